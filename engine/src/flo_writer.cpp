// Middlebury ".flo" files: one field per file, one vector per pixel (xme/field_io.hpp says which).
#include "flo_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <vector>

#include "xme/error.hpp"
#include "xme/staged_file.hpp"
#include "xme/video.hpp"

namespace xme {
namespace {

constexpr float flo_magic = 202021.25F;  // "PIEH" as little-endian bytes: how readers tell the format

// A ".flo" name split at its number: `before` + the frame index (padded to `width`, with zeros when
// `zeros`) + `after`; no number (`numbered` false): the name itself, in `before`.
struct FloName {
    std::string before;
    std::string after;
    bool numbered = false;
    bool zeros = false;
    int width = 0;

    [[nodiscard]] std::string expand(std::int64_t frame_index) const {
        if (!numbered) return before;
        std::string digits = std::to_string(frame_index);
        const auto pad = static_cast<std::size_t>(width) > digits.size()
                             ? static_cast<std::size_t>(width) - digits.size()
                             : std::size_t{0};
        digits.insert(0, pad, zeros ? '0' : ' ');
        return before + digits + after;
    }
};

[[noreturn]] void bad_pattern(const std::string& path, const std::string& why) {
    throw Error(ErrorKind::invalid_argument,
                "cannot write motion fields to " + path + ": " + why +
                    "; a .flo name may hold one frame number as %d or %0Nd (as in flow_%04d.flo), "
                    "and %% for a percent sign");
}

FloName parse_flo_name(const std::string& path) {
    FloName name;
    std::string* piece = &name.before;
    const std::size_t last_slash = path.rfind('/');
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '%') {
            *piece += path[i];
            continue;
        }
        if (i + 1 < path.size() && path[i + 1] == '%') {
            *piece += '%';
            ++i;
            continue;
        }
        const std::size_t start = i;
        std::size_t j = i + 1;
        if (j < path.size() && path[j] == '0') {
            name.zeros = true;
            ++j;
        }
        const std::size_t digits = j;
        while (j < path.size() && j - digits < 2 && path[j] >= '0' && path[j] <= '9')
            name.width = name.width * 10 + (path[j++] - '0');
        if (j >= path.size() || path[j] != 'd') {
            bad_pattern(path, "'" + path.substr(start, std::min(j + 1, path.size()) - start) +
                                  "' is not a frame number");
        }
        if (name.numbered) bad_pattern(path, "it has more than one frame number");
        if (last_slash != std::string::npos && start < last_slash)
            bad_pattern(path, "the frame number is in the folder's name, not the file's");
        name.numbered = true;
        piece = &name.after;
        i = j;
    }
    return name;
}

void append_le32(std::string& bytes, std::uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) bytes += static_cast<char>((value >> shift) & 0xff);
}

// The pixels of a macroblock row by the chosen partition covering them, 16x16 per macroblock.
using PartitionCover = std::array<std::uint8_t, macroblock_size * macroblock_size>;

PartitionCover cover_of(const MacroblockMotion& macroblock) {
    PartitionCover cover{};
    for (const int index : partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes)) {
        const Partition& p = macroblock_partitions[static_cast<std::size_t>(index)];
        for (int y = p.y; y < p.y + p.height; ++y) {
            for (int x = p.x; x < p.x + p.width; ++x)
                cover[static_cast<std::size_t>(y * macroblock_size + x)] = static_cast<std::uint8_t>(index);
        }
    }
    return cover;
}

class FloFieldWriter final : public FieldWriter {
public:
    FloFieldWriter(const std::string& path, FieldLayout layout, LumaSize frame)
        : path_(path), name_(parse_flo_name(path)), layout_(layout), frame_(frame) {
        if (frame.width < 1 || frame.height < 1) {
            throw Error(ErrorKind::invalid_argument,
                        "cannot write motion fields to " + path_ +
                            ": a .flo file holds one vector per pixel and needs the frames' size");
        }
        // Found unwritable now, before any work: the file itself, or for a pattern its folder. Nothing
        // is created: each file is written beside its name and renamed onto it once whole.
        if (!name_.numbered) {
            if (const int error = staged_write_error(name_.before); error != 0)
                throw Error(ErrorKind::io, "cannot create " + name_.before + ": " + std::strerror(error));
            return;
        }
        std::string folder = std::filesystem::path(name_.before).parent_path().string();
        if (folder.empty()) folder = ".";
        if (::access(folder.c_str(), W_OK) != 0) {
            throw Error(ErrorKind::io,
                        "cannot write " + path_ + ": its folder " + folder + ": " + std::strerror(errno));
        }
    }

    FloFieldWriter(const FloFieldWriter&) = delete;
    FloFieldWriter& operator=(const FloFieldWriter&) = delete;

    void write(std::int64_t frame_index, const MotionField& field) override {
        if (!name_.numbered && written_ >= 0) {
            throw Error(ErrorKind::invalid_argument,
                        "cannot write frame " + std::to_string(frame_index) + " to " + name_.before +
                            ": a .flo file holds one field and it has frame " + std::to_string(written_) +
                            "'s; name one file per frame with a pattern, as in flow_%04d.flo");
        }
        check_shape(frame_index, field);
        const std::string path = name_.expand(frame_index);
        StagedFile file(path);
        std::string bytes;
        append_le32(bytes, std::bit_cast<std::uint32_t>(flo_magic));
        append_le32(bytes, static_cast<std::uint32_t>(frame_.width));
        append_le32(bytes, static_cast<std::uint32_t>(frame_.height));
        std::vector<PartitionCover> covers;
        for (int y = 0; y < frame_.height; ++y) {
            const int by = y / field.block_size;
            if (layout_ == FieldLayout::partitions && y % field.block_size == 0) {
                covers.clear();
                for (int bx = 0; bx < field.blocks_x; ++bx)
                    covers.push_back(cover_of(macroblock(field, bx, by)));
            }
            for (int x = 0; x < frame_.width; ++x) {
                const BlockMotion& motion = motion_at(field, covers, x, y);
                append_le32(bytes, std::bit_cast<std::uint32_t>(static_cast<float>(motion.mv_x) / 4.0F));
                append_le32(bytes, std::bit_cast<std::uint32_t>(static_cast<float>(motion.mv_y) / 4.0F));
            }
            // Written a few rows at a time: a frame of 16384 x 16384 would take 2 GiB at once.
            if (bytes.size() >= (std::size_t{1} << 20) || y + 1 == frame_.height) put(file, bytes);
        }
        try {
            file.publish();
        } catch (const Error& e) {
            throw Error(ErrorKind::io, std::string(e.what()) + "; the frames before keep their files");
        }
        written_ = frame_index;
        files_.push_back(path);
    }

    void finish(std::int64_t frames) override {
        // The files of the frames the run's other outputs do not hold.
        while (frames >= 0 && static_cast<std::int64_t>(files_.size()) > frames) {
            ::unlink(files_.back().c_str());
            files_.pop_back();
        }
    }

private:
    static const MacroblockMotion& macroblock(const MotionField& field, int bx, int by) {
        return field.macroblocks[static_cast<std::size_t>(by) * static_cast<std::size_t>(field.blocks_x) +
                                 static_cast<std::size_t>(bx)];
    }

    // The vector of pixel (x, y): its block's, or with partitions its chosen partition's.
    const BlockMotion& motion_at(const MotionField& field, const std::vector<PartitionCover>& covers, int x,
                                 int y) const {
        const int bx = x / field.block_size;
        const int by = y / field.block_size;
        if (layout_ == FieldLayout::blocks) return field.at(bx, by);
        const auto index =
            covers[static_cast<std::size_t>(bx)]
                  [static_cast<std::size_t>((y % macroblock_size) * macroblock_size + x % macroblock_size)];
        return macroblock(field, bx, by).partitions[index];
    }

    void check_shape(std::int64_t frame_index, const MotionField& field) const {
        const int b = field.block_size;
        std::string problem;
        if (b < 1 || field.blocks_x != (frame_.width + b - 1) / b ||
            field.blocks_y != (frame_.height + b - 1) / b ||
            field.blocks.size() !=
                static_cast<std::size_t>(field.blocks_x) * static_cast<std::size_t>(field.blocks_y)) {
            problem = "its field of " + std::to_string(field.blocks_x) + "x" +
                      std::to_string(field.blocks_y) + " blocks of " + std::to_string(b) +
                      " does not tile a " + std::to_string(frame_.width) + "x" +
                      std::to_string(frame_.height) + " frame";
        } else if (layout_ == FieldLayout::partitions &&
                   (b != macroblock_size || field.macroblocks.size() != field.blocks.size())) {
            problem = "the file takes partitions and the field has none for every macroblock";
        } else if (layout_ == FieldLayout::blocks && !field.macroblocks.empty()) {
            problem = "the field has partitions and the file was opened for one vector per block";
        }
        if (!problem.empty()) {
            throw Error(ErrorKind::invalid_argument,
                        "cannot write frame " + std::to_string(frame_index) + ": " + problem);
        }
    }

    void put(StagedFile& file, std::string& bytes) const {
        for (std::size_t done = 0; done < bytes.size();) {
            const ssize_t n = ::write(file.descriptor(), bytes.data() + done, bytes.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                // A half-written .flo is no field: its temporary file goes, the path keeps what it held.
                const int error = n < 0 ? errno : ENOSPC;
                file.discard();
                throw Error(ErrorKind::io, "cannot write " + file.path() + ": " + std::strerror(error) +
                                               "; it is not written (the frames before keep their files)");
            }
            done += static_cast<std::size_t>(n);
        }
        bytes.clear();
    }

    std::string path_;
    FloName name_;
    FieldLayout layout_;
    LumaSize frame_;
    std::int64_t written_ = -1;       // the frame index of the field a single file holds; -1: none yet
    std::vector<std::string> files_;  // the files written, in order
};

}  // namespace

bool names_one_file_per_frame(const std::string& path) {
    return lowercase_extension(path) == ".flo" && parse_flo_name(path).numbered;
}

std::unique_ptr<FieldWriter> open_flo_writer(const std::string& path, FieldLayout layout, LumaSize frame) {
    return std::make_unique<FloFieldWriter>(path, layout, frame);
}

}  // namespace xme
