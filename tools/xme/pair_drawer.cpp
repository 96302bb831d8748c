#include "pair_drawer.hpp"

#include "xme/error.hpp"
#include "xme/macroblock.hpp"

namespace xme::cli {
namespace {

// The rows `xme estimate -o` would write for the field (xme/field_io.hpp), as `xme draw` reads them.
std::vector<FieldRow> rows_of(const MotionField& field) {
    std::vector<FieldRow> rows;
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const std::int64_t x = std::int64_t{bx} * field.block_size,
                               y = std::int64_t{by} * field.block_size;
            if (field.macroblocks.empty()) {
                const BlockMotion& motion = field.at(bx, by);
                rows.push_back({x, y, motion.mv_x, motion.mv_y, motion.cost});
                continue;
            }
            const MacroblockMotion& macroblock =
                field.macroblocks[static_cast<std::size_t>(by) * static_cast<std::size_t>(field.blocks_x) +
                                  static_cast<std::size_t>(bx)];
            for (const int index :
                 partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes)) {
                const Partition& partition = macroblock_partitions[static_cast<std::size_t>(index)];
                const BlockMotion& motion = macroblock.partitions[static_cast<std::size_t>(index)];
                rows.push_back({x, y, motion.mv_x, motion.mv_y, motion.cost, index, x + partition.x,
                                y + partition.y, partition.width, partition.height, true});
            }
        }
    }
    return rows;
}

}  // namespace

PairDrawer::PairDrawer(const std::string& path, bool partitions, std::int64_t first_frame, std::int64_t pairs)
    : target_(parse_picture_target(path, "--draw")), first_frame_(first_frame) {
    if (!pictures_available()) {
        throw Error(
            ErrorKind::unsupported,
            "--draw needs FFmpeg's libraries to write PNG and video, and this xme was built without them "
            "(XME_WITH_FFMPEG=OFF)");
    }
    if (target_.kind == PictureKind::png && pairs != 1) {
        throw Error(
            ErrorKind::invalid_argument,
            "--draw " + path + " holds one picture and the run has " +
                (pairs < 0 ? std::string("every pair of the input") : std::to_string(pairs) + " pairs") +
                ": use --frames 2 (and --start) for one pair, or name a pattern such as frames_%04d.png or a "
                "video");
    }
    options_.partitions = partitions;
    claim_.emplace(target_.file_for(first_frame), "the --draw pictures");
}

void PairDrawer::draw(const ScheduledPair& pair, const VideoInfo& video) {
    const MotionField& field = pair.results.front().result.field;
    draw_over(pair.frame, *pair.current, video,
              [&](Picture& picture) { draw_field(picture, rows_of(field), field.block_size, options_); });
}

void PairDrawer::draw_over(std::int64_t frame_index, const Frame& frame, const VideoInfo& video,
                           const std::function<void(Picture&)>& paint) {
    if (!writer_) {
        writer_ = open_picture_writer(target_, frame.width(), frame.height(), video.fps_num, video.fps_den,
                                      frame_index);
    }
    Picture picture = Picture::of_frame(frame);
    paint(picture);
    writer_->write(frame_index, picture);
    if (claim_) claim_->keep();
    ++drawn_;
}

void PairDrawer::finish() {
    if (writer_) writer_->finish();
}

}  // namespace xme::cli
