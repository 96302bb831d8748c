// The result of one search: a vector and its cost for every block of the current frame.
#pragma once

#include <cstdint>
#include <vector>

namespace xme {

struct BlockMotion {
    std::int16_t mv_x = 0;  // quarter-pel units: an integer vector is 4*(dx, dy)
    std::int16_t mv_y = 0;
    std::uint32_t cost = 0;  // SAD at scale 1, cost4 at scale 4 (SPEC §4)

    friend bool operator==(const BlockMotion&, const BlockMotion&) = default;
};

struct MotionField {
    int blocks_x = 0;
    int blocks_y = 0;
    int block_size = 0;
    int cost_scale = 1;  // 1: integer SAD; 4: cost4 of the half-pel refinement
    std::vector<BlockMotion> blocks;  // row-major, blocks_x * blocks_y

    MotionField() = default;
    MotionField(int frame_width, int frame_height, int block, int scale);

    [[nodiscard]] BlockMotion& at(int bx, int by) { return blocks[by * blocks_x + bx]; }
    [[nodiscard]] const BlockMotion& at(int bx, int by) const { return blocks[by * blocks_x + bx]; }
    [[nodiscard]] std::uint64_t total_cost() const;
};

}  // namespace xme
