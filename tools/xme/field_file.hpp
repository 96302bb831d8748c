// Reading back the motion-field files `xme estimate -o` writes (.csv, .npy; xme/field_io.hpp has
// their columns), for `xme draw`.
#pragma once

#include <cstdint>
#include <map>
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
};

struct FieldFile {
    std::string path;
    bool partitions = false;                               // 15 columns: one row per partition
    std::map<std::int64_t, std::vector<FieldRow>> frames;  // by the current frame's index
};

// Reads a whole file written by `xme estimate -o` (by extension, as open_field_writer writes them).
// Throws Error(bad_input) naming the file and the line or row for anything else, and
// Error(invalid_argument) for an extension that is neither .csv nor .npy.
[[nodiscard]] FieldFile read_field_file(const std::string& path);

// The block grid a frame's rows form over a width x height picture: its block size (4, 8, 16 or 32;
// 16 with partitions). Throws Error(bad_input) saying how the rows and the picture differ.
[[nodiscard]] int block_size_of(const FieldFile& file, std::int64_t frame, int width, int height,
                                const std::string& video_name);

}  // namespace xme::cli
