// Writing motion fields as they are produced, so that every finished frame is kept even when a later
// one fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "xme/motion_field.hpp"

namespace xme {

// The cost kind as a number, for NPY: 0 sad, 1 cost4, 2 satd; 3, 4, 5 the same with the rate term.
[[nodiscard]] constexpr int cost_kind_code(CostKind kind) {
    return static_cast<int>(kind.distortion) + (kind.with_rate ? 3 : 0);
}

// Which rows a file holds: one per block, or (SPEC §9) one per partition of every macroblock.
enum class FieldLayout { blocks, partitions };
[[nodiscard]] constexpr FieldLayout field_layout_of(const SearchParams& params) {
    return params.partitions == Partitions::all ? FieldLayout::partitions : FieldLayout::blocks;
}

// The CSV text of open_field_writer's ".csv" (also what `-o -` prints): the header line, and one
// frame's rows. Throws Error(invalid_argument) when the field does not have the layout's shape.
[[nodiscard]] std::string field_csv_header(FieldLayout layout);
[[nodiscard]] std::string field_csv_rows(std::int64_t frame_index, const MotionField& field,
                                         FieldLayout layout);

class FieldWriter {
public:
    virtual ~FieldWriter() = default;
    // Appends one frame's field. The file is written under a temporary name beside the path
    // (xme/staged_file.hpp) and holds whole frames after every call; when the write fails (a full disk,
    // a file-size limit), it is cut back to the frames written before, and Error(io) names the file
    // and the OS's reason.
    virtual void write(std::int64_t frame_index, const MotionField& field) = 0;
    // Ends the file with its first `frames` frames (every frame when negative or more than were
    // written: the outputs of one run keep the frames all of them hold) and renames it onto the
    // path. Without it, the writer's destructor keeps every whole frame. Throws Error(io).
    virtual void finish(std::int64_t frames) { static_cast<void>(frames); }
};

// The frames' luma size: a ".flo" file holds one vector per pixel of it. The other formats ignore it.
struct LumaSize {
    int width = 0;
    int height = 0;
};

// Whether `path` names one file per frame: a ".flo" name with one printf-style number ("flow_%04d.flo",
// "%d", "%5d"; "%%" is a percent sign), replaced by each field's frame index. Throws
// Error(invalid_argument) for any other use of '%' in a ".flo" name; other formats never have one.
[[nodiscard]] bool names_one_file_per_frame(const std::string& path);

// By extension:
// - ".csv": header `frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates`, one row per block;
//   x, y are the block's top-left pixel, mv in quarter-pel, cost_kind by name ("sad", "satd+rate"),
//   candidates the integer candidates the search evaluated.
//   With FieldLayout::partitions, one row per partition (41 per macroblock, in SPEC §9's order): the
//   same nine columns (x, y the macroblock's top-left; mv, cost the partition's), then
//   `partition,part_x,part_y,width,height,chosen`: the partition's index, its top-left pixel and size,
//   and 1 when it is one of the partitions of the macroblock's chosen mode, else 0.
// - ".npy": an int32 array of shape (rows, 9) (or (rows, 15)) with the same columns in the same order,
//   cost_kind as cost_kind_code; loadable with numpy.load.
// - ".flo": Middlebury optical flow, as OpenCV's readOpticalFlow reads it: the float 202021.25 (the
//   bytes "PIEH"), int32 width, int32 height (`frame`'s), then float32 (u, v) per pixel, row-major,
//   little-endian. Each pixel holds its block's vector in pixels, (mv_x / 4, mv_y / 4), and a partial
//   block's pixels at the right and bottom edges are its own (SPEC §1 tiles from (0, 0)); with
//   FieldLayout::partitions, the vector of the chosen mode's partition that covers the pixel (as SPEC
//   §12's prediction takes it). The flow is from the current frame to the reference: the pixel (x, y)
//   of the current frame is found at (x + u, y + v) in the reference. One field per file: `path` is a
//   pattern (names_one_file_per_frame) or holds a single field (a second write is
//   Error(invalid_argument)). Each file is renamed into place when whole (one that fails mid-write
//   never appears), and finish(frames) removes the files of the frames past `frames`.
// Throws Error(invalid_argument) for another extension (or ".flo" without `frame`), Error(io) when the
// file (for a pattern, its folder) cannot be written.
[[nodiscard]] std::unique_ptr<FieldWriter> open_field_writer(const std::string& path,
                                                             FieldLayout layout = FieldLayout::blocks,
                                                             LumaSize frame = {});

// The compact files: one array of the run's fields each, `.npy` only, a pair per row of the first axis
// (the k-th pair of the run: its current frame is the run's first frame + 1 + k), as xme.Field holds one
// pair's: numpy.load reads it whole.
enum class FieldArray {
    vectors,     // int16 (pairs, blocks_y, blocks_x, 2): (mv_x, mv_y) in quarter pel
    costs,       // uint32 (pairs, blocks_y, blocks_x): each block's cost, of the run's cost kind
    candidates,  // uint32 (pairs, blocks_y, blocks_x): the integer candidates each block's search evaluated
};
// Every field written must be blocks_x x blocks_y blocks, without partitions (SPEC §9's 41 vectors a
// macroblock are -o's rows): Error(invalid_argument) and Error(unsupported) otherwise. Written, cut back
// and renamed into place as open_field_writer's files are.
[[nodiscard]] std::unique_ptr<FieldWriter> open_field_array_writer(const std::string& path, FieldArray array,
                                                                   int blocks_x, int blocks_y);

// A field writer whose writes may still be under way after write() returned.
class SettlingFieldWriter : public FieldWriter {
public:
    // Waits until every field handed to it is written, or one failed; returns how many were written
    // whole (a run's outputs end with the pairs all of them hold).
    virtual std::int64_t settle() = 0;
};

// `writer` on a thread of its own: write() queues a copy of the field (waiting while `depth` are queued)
// and returns, so that the run's delivery goes on while the file is written. A failed write is thrown by
// the next write() and by finish(), which first ends the file with the pairs written before it; the
// pairs queued after a failed one are not written.
[[nodiscard]] std::unique_ptr<SettlingFieldWriter> write_in_background(std::unique_ptr<FieldWriter> writer,
                                                                       std::size_t depth = 8);

}  // namespace xme
