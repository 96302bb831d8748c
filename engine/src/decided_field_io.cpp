// SPEC §14's rows (xme/decided_field_io.hpp), on the append-only files every field file uses.
#include "xme/decided_field_io.hpp"

#include <array>
#include <charconv>

#include "appending_file.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"
#include "xme/video.hpp"

namespace xme {
namespace {

constexpr int mode_column = 10;
constexpr int cost_kind_column = 7;
using Row = std::array<std::int64_t, decided_columns>;

int mode_code(ReferenceMode mode) { return static_cast<int>(mode); }

template <class Visit>
void for_each_row(const DecidedFrame& frame, Visit visit) {
    const DecidedField& decided = frame.decided;
    for (int by = 0; by < decided.blocks_y; ++by) {
        for (int bx = 0; bx < decided.blocks_x; ++bx) {
            const std::size_t index =
                static_cast<std::size_t>(by) * static_cast<std::size_t>(decided.blocks_x) +
                static_cast<std::size_t>(bx);
            const DecidedBlock& b = decided.blocks[index];
            const BlockMotion backward = frame.backward ? frame.backward->at(bx, by) : BlockMotion{};
            const std::uint32_t figure = frame.consistency.empty() ? 0 : frame.consistency[index];
            visit(Row{frame.frame, std::int64_t{bx} * decided.block_size,
                      std::int64_t{by} * decided.block_size, b.mv.x, b.mv.y, b.cost,
                      cost_scale_of(decided.cost_kind), cost_kind_code(decided.cost_kind), b.candidates,
                      b.distance, mode_code(b.mode), b.second_mv.x, b.second_mv.y, b.second_distance,
                      backward.mv_x, backward.mv_y, figure,
                      frame.consistency.empty() ? 0 : (figure > consistency_flag_threshold ? 1 : 0)});
        }
    }
}

class CsvDecidedWriter final : public DecidedFieldWriter, AppendingFile {
public:
    explicit CsvDecidedWriter(const std::string& path) : AppendingFile(path) {
        append(decided_csv_header());
        commit();
    }
    void write(const DecidedFrame& frame) override {
        append(decided_csv_rows(frame));
        commit();
    }
    void finish(std::int64_t frames) override { finish_frames(frames); }
};

class NpyDecidedWriter final : public DecidedFieldWriter, AppendingFile {
public:
    explicit NpyDecidedWriter(const std::string& path) : AppendingFile(path) {
        append(header(0));
        commit();
    }
    void write(const DecidedFrame& frame) override {
        data_.clear();
        std::int64_t rows = 0;
        for_each_row(frame, [&](const Row& row) {
            for (const std::int64_t value : row) {  // every column fits int32: vectors, costs, counts
                const auto bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(value));
                for (int byte = 0; byte < 4; ++byte) data_ += static_cast<char>((bits >> (8 * byte)) & 0xff);
            }
            ++rows;
        });
        append(data_);
        put(header(whole_rows() + rows), 0);
        commit(rows);
    }
    void finish(std::int64_t frames) override { finish_frames(frames); }

private:
    [[nodiscard]] std::string header(std::int64_t rows) const override {
        return npy_header("<i4", "(" + std::to_string(rows) + ", " + std::to_string(decided_columns) + ")");
    }
    std::string data_;
};

}  // namespace

std::string decided_csv_header() {
    return "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates,ref,mode,mv2_x,mv2_y,ref2,back_mv_x,"
           "back_mv_y,"
           "consistency,flagged\n";
}

std::string decided_csv_rows(const DecidedFrame& frame) {
    std::string text;
    const std::string kind = to_string(frame.decided.cost_kind);
    for_each_row(frame, [&](const Row& row) {
        char line[decided_columns * 21 + 32];
        char* end = line;
        for (int column = 0; column < decided_columns; ++column) {
            if (column > 0) *end++ = ',';
            if (column == cost_kind_column) {
                end = std::copy(kind.begin(), kind.end(), end);
            } else if (column == mode_column) {
                const std::string_view mode = to_string(static_cast<ReferenceMode>(row[mode_column]));
                end = std::copy(mode.begin(), mode.end(), end);
            } else {
                end = std::to_chars(end, line + sizeof line, row[static_cast<std::size_t>(column)]).ptr;
            }
        }
        *end++ = '\n';
        text.append(line, end);
    });
    return text;
}

std::unique_ptr<DecidedFieldWriter> open_decided_field_writer(const std::string& path) {
    const std::string ext = lowercase_extension(path);
    if (ext == ".csv") return std::make_unique<CsvDecidedWriter>(path);
    if (ext == ".npy") return std::make_unique<NpyDecidedWriter>(path);
    throw Error(
        ErrorKind::invalid_argument,
        "cannot write the rows of several references or both directions to " + path + ": use .csv or .npy");
}

}  // namespace xme
