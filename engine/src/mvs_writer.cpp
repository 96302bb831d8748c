// The AVMotionVector-shaped .npy of xme/mvs_io.hpp, appended and flushed frame by frame.
#include <cstdint>
#include <string>

#include "appending_file.hpp"
#include "xme/decided_field_io.hpp"
#include "xme/error.hpp"
#include "xme/mvs_io.hpp"
#include "xme/video.hpp"

namespace xme {
namespace {

constexpr std::size_t header_bytes = 320;  // room for the structured descr and any shape
constexpr int quarter_pel = 4;             // motion_scale: xme's vectors are in quarter pixels

template <class T>
void append_le(std::string& bytes, T value) {
    const auto bits = static_cast<std::uint64_t>(value);
    for (std::size_t i = 0; i < sizeof(T); ++i) bytes += static_cast<char>((bits >> (8 * i)) & 0xff);
}

// One record: the block or partition at (x, y) of size w x h with `motion`, whose reference is `source`
// frames away (negative: the past).
void append_record(std::string& bytes, std::int64_t frame_index, int x, int y, int w, int h,
                   const BlockMotion& motion, int source = -1) {
    const int dst_x = x + w / 2;
    const int dst_y = y + h / 2;
    append_le(bytes, static_cast<std::int32_t>(frame_index));
    append_le(bytes, static_cast<std::int32_t>(source));
    append_le(bytes, static_cast<std::uint8_t>(w));
    append_le(bytes, static_cast<std::uint8_t>(h));
    // Within int16: frames are at most 16384 wide and |mv / 4| < 8192.
    append_le(bytes, static_cast<std::int16_t>(dst_x + motion.mv_x / quarter_pel));
    append_le(bytes, static_cast<std::int16_t>(dst_y + motion.mv_y / quarter_pel));
    append_le(bytes, static_cast<std::int16_t>(dst_x));
    append_le(bytes, static_cast<std::int16_t>(dst_y));
    append_le(bytes, std::uint64_t{0});
    append_le(bytes, static_cast<std::int32_t>(motion.mv_x));
    append_le(bytes, static_cast<std::int32_t>(motion.mv_y));
    append_le(bytes, static_cast<std::uint16_t>(quarter_pel));
}

// The file both writers append to: its records, then the header's count, a frame at a time.
class MvsFile : protected AppendingFile {
protected:
    explicit MvsFile(const std::string& path) : AppendingFile(path) {
        append(header(0));
        commit();
    }
    // Data first, shape second, as the vectors' .npy: a crash in between leaves the old count.
    void append_frame(const std::string& data, std::int64_t records) {
        append(data);
        put(header(whole_rows() + records), 0);
        commit(records);
    }

private:
    [[nodiscard]] std::string header(std::int64_t records) const override {
        return npy_header(mvs_record_descr(), "(" + std::to_string(records) + ",)", header_bytes);
    }
};

class MvsWriter final : public FieldWriter, MvsFile {
public:
    MvsWriter(const std::string& path, FieldLayout layout) : MvsFile(path), layout_(layout) {}

    void write(std::int64_t frame_index, const MotionField& field) override {
        check_shape(frame_index, field);
        std::string data;
        std::int64_t records = 0;
        for (int by = 0; by < field.blocks_y; ++by) {
            for (int bx = 0; bx < field.blocks_x; ++bx) {
                const int x = bx * field.block_size;
                const int y = by * field.block_size;
                if (layout_ == FieldLayout::blocks) {
                    append_record(data, frame_index, x, y, field.block_size, field.block_size,
                                  field.at(bx, by));
                    ++records;
                    continue;
                }
                const MacroblockMotion& macroblock =
                    field
                        .macroblocks[static_cast<std::size_t>(by) * static_cast<std::size_t>(field.blocks_x) +
                                     static_cast<std::size_t>(bx)];
                for (const int index :
                     partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes)) {
                    const Partition& p = macroblock_partitions[static_cast<std::size_t>(index)];
                    append_record(data, frame_index, x + p.x, y + p.y, p.width, p.height,
                                  macroblock.partitions[static_cast<std::size_t>(index)]);
                    ++records;
                }
            }
        }
        append_frame(data, records);
    }

    void finish(std::int64_t frames) override { finish_frames(frames); }

private:
    void check_shape(std::int64_t frame_index, const MotionField& field) const {
        const auto blocks =
            static_cast<std::size_t>(field.blocks_x) * static_cast<std::size_t>(field.blocks_y);
        std::string problem;
        if (field.blocks_x < 0 || field.blocks_y < 0 || field.blocks.size() != blocks ||
            field.block_size > 255) {
            problem = "its field has " + std::to_string(field.blocks.size()) + " blocks of " +
                      std::to_string(field.block_size) + ", not " + std::to_string(field.blocks_x) + "x" +
                      std::to_string(field.blocks_y) + " of at most 255";
        } else if (layout_ == FieldLayout::partitions && field.macroblocks.size() != blocks) {
            problem = "the file takes partitions and the field has none for every macroblock";
        } else if (layout_ == FieldLayout::blocks && !field.macroblocks.empty()) {
            problem = "the field has partitions and the file was opened for one record per block";
        }
        if (!problem.empty()) {
            throw Error(ErrorKind::invalid_argument, "cannot write frame " + std::to_string(frame_index) +
                                                         " to " + path_ + ": " + problem);
        }
    }

    FieldLayout layout_;
};

BlockMotion motion_of(MotionVector mv) {
    BlockMotion motion;
    motion.mv_x = static_cast<std::int16_t>(mv.x);
    motion.mv_y = static_cast<std::int16_t>(mv.y);
    return motion;
}

// SPEC §14's records (xme/mvs_io.hpp, open_decided_mvs_writer).
class DecidedMvsWriter final : public DecidedFieldWriter, MvsFile {
public:
    explicit DecidedMvsWriter(const std::string& path) : MvsFile(path) {}

    void write(const DecidedFrame& frame) override {
        const DecidedField& field = frame.decided;
        const int b = field.block_size;
        std::string data;
        std::int64_t records = 0;
        for (int by = 0; by < field.blocks_y; ++by) {
            for (int bx = 0; bx < field.blocks_x; ++bx) {
                const DecidedBlock& block = field.at(bx, by);
                append_record(data, frame.frame, bx * b, by * b, b, b, motion_of(block.mv), block.distance);
                ++records;
                if (block.mode == ReferenceMode::both) {
                    append_record(data, frame.frame, bx * b, by * b, b, b, motion_of(block.second_mv),
                                  block.second_distance);
                    ++records;
                }
            }
        }
        if (frame.backward) {  // frame - 1's blocks, whose reference is this frame: the future, +1
            const MotionField& backward = *frame.backward;
            for (int by = 0; by < backward.blocks_y; ++by) {
                for (int bx = 0; bx < backward.blocks_x; ++bx) {
                    append_record(data, frame.frame - 1, bx * backward.block_size, by * backward.block_size,
                                  backward.block_size, backward.block_size, backward.at(bx, by), 1);
                    ++records;
                }
            }
        }
        append_frame(data, records);
    }

    void finish(std::int64_t frames) override { finish_frames(frames); }
};

}  // namespace

std::unique_ptr<DecidedFieldWriter> open_decided_mvs_writer(const std::string& path) {
    if (lowercase_extension(path) != ".npy") {
        throw Error(ErrorKind::invalid_argument,
                    "cannot export motion vectors to " + path +
                        ": they are written as a NumPy array; name it NAME.mvs.npy");
    }
    return std::make_unique<DecidedMvsWriter>(path);
}

std::string mvs_record_descr() {
    return "[('frame', '<i4'), ('source', '<i4'), ('w', 'u1'), ('h', 'u1'), ('src_x', '<i2'), "
           "('src_y', '<i2'), ('dst_x', '<i2'), ('dst_y', '<i2'), ('flags', '<u8'), ('motion_x', '<i4'), "
           "('motion_y', '<i4'), ('motion_scale', '<u2')]";
}

std::unique_ptr<FieldWriter> open_mvs_writer(const std::string& path, FieldLayout layout) {
    if (lowercase_extension(path) != ".npy") {
        throw Error(ErrorKind::invalid_argument,
                    "cannot export motion vectors to " + path +
                        ": they are written as a NumPy array; name it NAME.mvs.npy");
    }
    return std::make_unique<MvsWriter>(path, layout);
}

}  // namespace xme
