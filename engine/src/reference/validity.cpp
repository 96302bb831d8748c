// SPEC §2, §8 and §10: which candidates a search may evaluate.
#include <string>

#include "xme/error.hpp"
#include "xme/reference_ops.hpp"

namespace xme::reference {
namespace {

int padded_extent(int extent, int block_size) { return blocks_across(extent, block_size) * block_size; }

// SPEC §2: the B x B block of the grid that contains (x, y), moved by (dx, dy), lies in Wp x Hp.
bool displaced_block_inside_padded_frame(int x, int y, int dx, int dy, int frame_width, int frame_height,
                                         int block_size) {
    const int left = x / block_size * block_size + dx;
    const int top = y / block_size * block_size + dy;
    return left >= 0 && left <= padded_extent(frame_width, block_size) - block_size && top >= 0 &&
           top <= padded_extent(frame_height, block_size) - block_size;
}

int floor_quarter(int q) { return q >= 0 ? q / 4 : -((-q + 3) / 4); }
int ceil_quarter(int q) { return -floor_quarter(-q); }

void require(bool condition, const std::string& message) {
    if (!condition) throw Error(ErrorKind::invalid_argument, "reference block search: " + message);
}

}  // namespace

void BlockSearch::validate() const {
    require(reference.data != nullptr && current.data != nullptr, "a frame is empty");
    require(reference.width == current.width && reference.height == current.height,
            "reference " + std::to_string(reference.width) + "x" + std::to_string(reference.height) +
                " and current " + std::to_string(current.width) + "x" + std::to_string(current.height) +
                " differ in size");
    require(current.width >= 1 && current.height >= 1, "the frame has no pixels");
    require(width >= 1 && height >= 1,
            "block size " + std::to_string(width) + "x" + std::to_string(height) + " must be at least 1x1");
    require(restrict_block_size >= 1,
            "restrict block size " + std::to_string(restrict_block_size) + " must be at least 1");
    // The grid block that contains (x, y) starts inside the frame. For a whole block that is (x, y)
    // itself; a §9 partition of a partial macroblock may start in the padding (Wp x Hp), its macroblock
    // does not.
    require(x >= 0 && y >= 0 && x / restrict_block_size * restrict_block_size < current.width &&
                y / restrict_block_size * restrict_block_size < current.height,
            "block (" + std::to_string(x) + "," + std::to_string(y) + ") starts outside the frame");
    require(range >= 0 && range <= max_search_range, "search range " + std::to_string(range) +
                                                         " is out of bounds: use 0.." +
                                                         std::to_string(max_search_range));
    require(lambda >= 0, "lambda " + std::to_string(lambda) + " must be >= 0");
}

bool inside_window(const BlockSearch& search, MotionVector pel) {
    return pel.x >= search.centre.x - search.range && pel.x <= search.centre.x + search.range &&
           pel.y >= search.centre.y - search.range && pel.y <= search.centre.y + search.range;
}

bool integer_displacement_valid(int x, int y, int dx, int dy, int frame_width, int frame_height,
                                int restrict_block_size, BorderMode border) {
    if (dx == 0 && dy == 0) return true;
    if (border == BorderMode::pad) return true;
    return displaced_block_inside_padded_frame(x, y, dx, dy, frame_width, frame_height, restrict_block_size);
}

bool integer_displacement_valid(const BlockSearch& search, MotionVector pel) {
    return integer_displacement_valid(search.x, search.y, pel.x, pel.y, search.current.width,
                                      search.current.height, search.restrict_block_size, search.border);
}

bool fractional_vector_valid(int x, int y, MotionVector quarter, int frame_width, int frame_height,
                             int restrict_block_size, BorderMode border) {
    if (border == BorderMode::pad) return true;
    return displaced_block_inside_padded_frame(x, y, floor_quarter(quarter.x), floor_quarter(quarter.y),
                                               frame_width, frame_height, restrict_block_size) &&
           displaced_block_inside_padded_frame(x, y, ceil_quarter(quarter.x), ceil_quarter(quarter.y),
                                               frame_width, frame_height, restrict_block_size);
}

bool fractional_vector_valid(const BlockSearch& search, MotionVector quarter) {
    return fractional_vector_valid(search.x, search.y, quarter, search.current.width, search.current.height,
                                   search.restrict_block_size, search.border);
}

}  // namespace xme::reference
