// Motion-field files, appended frame by frame and flushed, so that a run that fails later leaves
// every finished frame readable.
#include "xme/field_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string_view>

#include "appending_file.hpp"
#include "flo_writer.hpp"
#include "xme/error.hpp"
#include "xme/video.hpp"

namespace xme {
namespace {

constexpr int block_columns = 9;  // frame, x, y, mv_x, mv_y, cost, cost_scale, cost_kind, candidates
constexpr int partition_columns = block_columns + 6;  // + partition, part_x, part_y, width, height, chosen
constexpr int cost_kind_column = 7;

int column_count(FieldLayout layout) {
    return layout == FieldLayout::partitions ? partition_columns : block_columns;
}

using Row = std::array<std::int64_t, partition_columns>;  // block rows use the first nine

// One block's (or partition's) row, in the column order both formats share.
Row motion_row(std::int64_t frame_index, const MotionField& field, int bx, int by,
               const BlockMotion& motion) {
    return {frame_index,
            std::int64_t{bx} * field.block_size,
            std::int64_t{by} * field.block_size,
            motion.mv_x,
            motion.mv_y,
            motion.cost,
            field.cost_scale(),
            cost_kind_code(field.cost_kind),
            motion.candidates};
}

void check_shape(std::int64_t frame_index, const MotionField& field, FieldLayout layout) {
    const auto blocks = static_cast<std::size_t>(field.blocks_x) * static_cast<std::size_t>(field.blocks_y);
    std::string problem;
    if (field.blocks_x < 0 || field.blocks_y < 0 || field.blocks.size() != blocks) {
        problem = "its field has " + std::to_string(field.blocks.size()) + " blocks, not " +
                  std::to_string(field.blocks_x) + "x" + std::to_string(field.blocks_y);
    } else if (layout == FieldLayout::partitions && field.macroblocks.size() != blocks) {
        problem = "the file holds partitions and the field has " + std::to_string(field.macroblocks.size()) +
                  " macroblocks of partitions, not " + std::to_string(blocks);
    } else if (layout == FieldLayout::blocks && !field.macroblocks.empty()) {
        problem = "the field has partitions and the file holds one row per block";
    }
    if (!problem.empty()) {
        throw Error(ErrorKind::invalid_argument,
                    "cannot write frame " + std::to_string(frame_index) + ": " + problem);
    }
}

// Every row of one frame, in the file's order: blocks row-major; with partitions, each macroblock's 41.
template <class Visit>
void for_each_row(std::int64_t frame_index, const MotionField& field, FieldLayout layout, Visit visit) {
    check_shape(frame_index, field, layout);
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            if (layout == FieldLayout::blocks) {
                visit(motion_row(frame_index, field, bx, by, field.at(bx, by)));
                continue;
            }
            const MacroblockMotion& macroblock =
                field.macroblocks[static_cast<std::size_t>(by) * static_cast<std::size_t>(field.blocks_x) +
                                  static_cast<std::size_t>(bx)];
            std::array<bool, partition_count> chosen{};
            for (const int index :
                 partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes))
                chosen[static_cast<std::size_t>(index)] = true;
            for (const Partition& partition : macroblock_partitions) {
                const auto index = static_cast<std::size_t>(partition.index);
                Row row = motion_row(frame_index, field, bx, by, macroblock.partitions[index]);
                row[block_columns + 0] = partition.index;
                row[block_columns + 1] = row[1] + partition.x;
                row[block_columns + 2] = row[2] + partition.y;
                row[block_columns + 3] = partition.width;
                row[block_columns + 4] = partition.height;
                row[block_columns + 5] = chosen[index] ? 1 : 0;
                visit(row);
            }
        }
    }
}

}  // namespace

std::string field_csv_header(FieldLayout layout) {
    return layout == FieldLayout::partitions ? "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates,"
                                               "partition,part_x,part_y,width,height,"
                                               "chosen\n"
                                             : "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates\n";
}

std::string field_csv_rows(std::int64_t frame_index, const MotionField& field, FieldLayout layout) {
    std::string text;
    const int columns = column_count(layout);
    // The cost kind by name in CSV ("satd+rate"); NPY holds its code.
    const std::string kind = to_string(field.cost_kind);
    text.reserve(field.blocks.size() * static_cast<std::size_t>(columns) * 6);
    for_each_row(frame_index, field, layout, [&](const Row& row) {
        char line[partition_columns * 21 + 32];  // 20 characters hold any int64, plus its comma
        char* end = line;
        for (int column = 0; column < columns; ++column) {
            if (column > 0) *end++ = ',';
            if (column == cost_kind_column) {
                end = std::copy(kind.begin(), kind.end(), end);
                continue;
            }
            end = std::to_chars(end, line + sizeof line, row[static_cast<std::size_t>(column)]).ptr;
        }
        *end++ = '\n';
        text.append(line, end);
    });
    return text;
}

namespace {

// The append-only file (appending_file.hpp) behind both formats' writers.
class FileFieldWriter : public FieldWriter, protected AppendingFile {
public:
    explicit FileFieldWriter(const std::string& path) : AppendingFile(path) {}
    void finish(std::int64_t frames) override { finish_frames(frames); }
};

class CsvFieldWriter final : public FileFieldWriter {
public:
    CsvFieldWriter(const std::string& path, FieldLayout layout) : FileFieldWriter(path), layout_(layout) {
        append(field_csv_header(layout));
        commit();
    }

    void write(std::int64_t frame_index, const MotionField& field) override {
        append(field_csv_rows(frame_index, field, layout_));
        commit();
    }

private:
    FieldLayout layout_;
};

// NPY (npy_header): the row count in the shape is rewritten in place after every frame.
class NpyFieldWriter final : public FileFieldWriter {
public:
    NpyFieldWriter(const std::string& path, FieldLayout layout)
        : FileFieldWriter(path), columns_(column_count(layout)), layout_(layout) {
        append(header(0));
        commit();
    }

    void write(std::int64_t frame_index, const MotionField& field) override {
        data_.clear();
        data_.reserve(field.blocks.size() * 4 * static_cast<std::size_t>(columns_));
        std::int64_t rows = 0;
        for_each_row(frame_index, field, layout_, [&](const Row& row) {
            const std::size_t at = data_.size();
            data_.resize(at + 4 * static_cast<std::size_t>(columns_));
            for (int column = 0; column < columns_; ++column)
                put_int32(&data_[at + 4 * static_cast<std::size_t>(column)],
                          row[static_cast<std::size_t>(column)], frame_index);
            ++rows;
        });
        // Data first, shape second: if the process dies in between, the file still holds the old
        // shape, and numpy ignores the bytes past it.
        append(data_);
        put(header(whole_rows() + rows), 0);
        commit(rows);
    }

private:
    // The header of an array of `rows` rows.
    [[nodiscard]] std::string header(std::int64_t rows) const override {
        return npy_header("<i4", "(" + std::to_string(rows) + ", " + std::to_string(columns_) + ")");
    }

    // Little-endian whatever the host; a value that int32 cannot hold is an error, never wrapped.
    void put_int32(char* out, std::int64_t value, std::int64_t frame_index) const {
        if (value < std::numeric_limits<std::int32_t>::min() ||
            value > std::numeric_limits<std::int32_t>::max()) {
            throw Error(ErrorKind::unsupported, "cannot write frame " + std::to_string(frame_index) + " to " +
                                                    path_ + ": the value " + std::to_string(value) +
                                                    " does not fit its int32 columns; write .csv instead");
        }
        const auto bits = static_cast<std::uint32_t>(value);
        for (int byte = 0; byte < 4; ++byte) out[byte] = static_cast<char>((bits >> (8 * byte)) & 0xff);
    }

    std::string data_;  // one frame's rows, kept for the next frame
    int columns_;
    FieldLayout layout_;
};

}  // namespace

std::unique_ptr<FieldWriter> open_field_writer(const std::string& path, FieldLayout layout, LumaSize frame) {
    const std::string ext = lowercase_extension(path);
    if (ext == ".csv") return std::make_unique<CsvFieldWriter>(path, layout);
    if (ext == ".npy") return std::make_unique<NpyFieldWriter>(path, layout);
    if (ext == ".flo") return open_flo_writer(path, layout, frame);
    const std::string what = ext.empty() ? "no extension" : "unknown extension '" + ext + "'";
    throw Error(ErrorKind::invalid_argument,
                "cannot write motion fields to " + path + ": " + what + "; use .csv, .npy or .flo");
}

}  // namespace xme
