// SPEC §4 with §8's rate: the bilinear half-pel refinement, J = cost4 + 4 * lambda * R(mv - p) (cost4 is in
// quarter grey levels, so the rate weighs four times as much per bit as in the integer search).
#include <cstdlib>

#include "subpel_refine.hpp"

namespace xme::cpu {
namespace {

int floor_quarter(int q) { return q >> 2; }
int ceil_quarter(int q) { return -((-q) >> 2); }

bool inside_padded(const IntegerBlock& b, int dx, int dy) {
    const int left = b.x + dx;
    const int top = b.y + dy;
    return left >= 0 && left <= b.padded_width - b.size && top >= 0 && top <= b.padded_height - b.size;
}

// sum |4 cur - (a + b + c + d)| over the block, the four samples around half-pel vector mv (a step of 0
// repeats a sample).
std::uint32_t cost4(const IntegerBlock& b, MotionVector mv) {
    const int ix = floor_quarter(mv.x);
    const int iy = floor_quarter(mv.y);
    const std::ptrdiff_t stride = b.reference->stride();
    const std::ptrdiff_t step_x = mv.x != 4 * ix ? 1 : 0;
    const std::ptrdiff_t step_y = mv.y != 4 * iy ? stride : 0;
    const std::uint8_t* ref = b.reference->block(b.x + ix, b.y + iy, b.size + 1, b.size + 1);
    const std::uint8_t* cur = b.current->block(b.x, b.y, b.size, b.size);
    std::uint32_t sum = 0;
    for (int j = 0; j < b.size; ++j) {
        const std::uint8_t* a = ref + j * stride;
        const std::uint8_t* c = cur + j * b.current->stride();
        for (int i = 0; i < b.size; ++i) {
            const int four_interp = a[i] + a[i + step_x] + a[i + step_y] + a[i + step_x + step_y];
            sum += static_cast<std::uint32_t>(std::abs(4 * c[i] - four_interp));
        }
    }
    return sum;
}

}  // namespace

bool fractional_vector_valid(const IntegerBlock& block, MotionVector quarter) {
    if (block.border == BorderMode::pad) return true;
    return inside_padded(block, floor_quarter(quarter.x), floor_quarter(quarter.y)) &&
           inside_padded(block, ceil_quarter(quarter.x), ceil_quarter(quarter.y));
}

SubpelResult refine_hpel(const IntegerBlock& block, MotionVector integer_pel) {
    return subpel_step(block, {4 * integer_pel.x, 4 * integer_pel.y}, 2, 4 * block.lambda,
                       [&](MotionVector mv) { return cost4(block, mv); });
}

}  // namespace xme::cpu
