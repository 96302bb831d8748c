#include "xme/motion_field.hpp"

#include <cstddef>
#include <numeric>

#include "xme/params.hpp"

namespace xme {

MotionField::MotionField(int frame_width, int frame_height, int block, int scale)
    : blocks_x(blocks_across(frame_width, block)),
      blocks_y(blocks_across(frame_height, block)),
      block_size(block),
      cost_scale(scale),
      blocks(static_cast<std::size_t>(blocks_x) * static_cast<std::size_t>(blocks_y)) {}

std::uint64_t MotionField::total_cost() const {
    return std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0},
                           [](std::uint64_t sum, const BlockMotion& b) { return sum + b.cost; });
}

}  // namespace xme
