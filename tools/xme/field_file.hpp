// Reading back the motion-field files `xme estimate -o` writes (.csv, .npy; xme/field_io.hpp has
// their columns) one frame at a time, for `xme draw`: a long video's file is never held whole.
#pragma once

#include <array>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace xme::cli {

// One row of the file: a block's, or (with partitions) one partition of a macroblock.
struct FieldRow {
    std::int64_t x = 0;  // the block's (macroblock's) top-left pixel
    std::int64_t y = 0;
    std::int64_t mv_x = 0;  // quarter-pel, from the current block to its match in the reference
    std::int64_t mv_y = 0;
    std::int64_t cost = 0;
    // With partitions only: the partition's index (0-40), rectangle, and whether the macroblock's
    // chosen mode has it.
    int partition = -1;
    std::int64_t part_x = 0;
    std::int64_t part_y = 0;
    std::int64_t width = 0;
    std::int64_t height = 0;
    bool chosen = false;
    // SPEC §14's rows (xme/decided_field_io.hpp's 18 columns) only: mv's reference distance, the mode
    // (0 past, 1 future, 2 both), a bi-predicted block's future vector and distance, the backward vector
    // of the block at (x, y) of frame - 1, the consistency and its flag.
    bool decided = false;
    std::int64_t ref = 0;
    int mode = 0;
    std::int64_t mv2_x = 0;
    std::int64_t mv2_y = 0;
    std::int64_t ref2 = 0;
    std::int64_t back_mv_x = 0;
    std::int64_t back_mv_y = 0;
    std::int64_t consistency = 0;
    bool flagged = false;
};

struct FieldFrame {
    std::int64_t frame = 0;  // the current frame's index
    std::vector<FieldRow> rows;
};

class FieldFileReader {
public:
    // Opens a file written by `xme estimate -o` (by extension, as open_field_writer writes them, or
    // SPEC §14's rows of --refs and --direction both) and reads its header. Throws Error(invalid_argument)
    // for an extension that is neither .csv nor .npy, Error(bad_input) for a file that cannot be read or is
    // not xme's.
    explicit FieldFileReader(const std::string& path);

    // Bounds the rows one frame may hold to the most any block grid over a width x height picture has
    // (4x4 blocks, or 41 partitions per macroblock): a frame with more is refused as it is read,
    // before its rows fill the memory.
    void limit_rows_to_picture(int width, int height, const std::string& video_name);

    [[nodiscard]] const std::string& path() const { return path_; }
    [[nodiscard]] bool partitions() const { return partitions_; }  // 15 columns: one row per partition
    [[nodiscard]] bool decided() const { return decided_; }        // 18 columns: SPEC §14's rows
    // The next frame's rows, or nothing at the end. Throws Error(bad_input) naming the line or row
    // that is not xme's, or frames out of order. Every row is checked against what xme writes (xme(1),
    // `xme draw`): its frame is a pair's current frame, so at least 1 (the pair is frame - 1 to
    // frame; §14's rows from 0, estimated from the future); its vectors fit SPEC §3's quarter-pel int16;
    // a partition row is SPEC §9's partition of that index, inside its macroblock; a §14 row's mode is
    // past, future or both and its references are distances SPEC §14 allows.
    [[nodiscard]] std::optional<FieldFrame> next();

private:
    using Values = std::array<std::int64_t, 18>;
    [[nodiscard]] bool read_row(Values& values);
    [[nodiscard]] bool read_csv_row(Values& values);
    [[nodiscard]] bool read_npy_row(Values& values);
    [[noreturn]] void malformed(const std::string& what) const;
    // The row just read, as a message names it: "line 12" (CSV) or "row 11" (NPY, from 0).
    [[nodiscard]] std::string where() const;
    void check_row(const Values& values) const;

    std::string path_;
    std::ifstream in_;
    bool npy_ = false;
    bool partitions_ = false;
    bool decided_ = false;
    int columns_ = 9;
    std::int64_t npy_rows_left_ = 0;
    std::int64_t line_ = 1;      // CSV: the line last read
    std::int64_t npy_row_ = -1;  // NPY: the row last read
    std::size_t max_rows_ = 0;   // 0: no limit yet (limit_rows_to_picture)
    std::string limit_reason_;
    std::optional<Values> pending_;  // the first row of the next frame, read ahead
    std::optional<std::int64_t> last_frame_;
};

// The block grid a frame's rows form over a width x height picture: its block size (4, 8, 16 or 32;
// 16 with partitions, each macroblock with its 41 partitions once). Throws Error(bad_input) saying how
// the rows and the picture differ.
[[nodiscard]] int block_size_of(const FieldFileReader& file, const FieldFrame& frame, int width, int height,
                                const std::string& video_name);

}  // namespace xme::cli
