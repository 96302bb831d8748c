// SPEC §8's spatial predictor: H.264's median of the left (A), top (B) and top-right (C, else top-left)
// blocks' final vectors; a lone available neighbour is taken as it is, missing ones count as zero.
#include "spatial_predictor.hpp"

#include <algorithm>

namespace xme::cpu {
namespace {

int median_of_three(int a, int b, int c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

}  // namespace

MotionVector spatial_predictor(const MotionField& field, int bx, int by) {
    const auto final_at = [&](int x, int y, MotionVector& out) {
        if (x < 0 || x >= field.blocks_x || y < 0 || y >= field.blocks_y) return false;
        const BlockMotion& m = field.at(x, y);
        out = {m.mv_x, m.mv_y};
        return true;
    };
    MotionVector left;
    MotionVector top;
    MotionVector diagonal;
    const bool has_left = final_at(bx - 1, by, left);
    const bool has_top = final_at(bx, by - 1, top);
    const bool has_diagonal = final_at(bx + 1, by - 1, diagonal) || final_at(bx - 1, by - 1, diagonal);
    const int available = int{has_left} + int{has_top} + int{has_diagonal};
    if (available == 1) return has_left ? left : has_top ? top : diagonal;
    return {median_of_three(left.x, top.x, diagonal.x), median_of_three(left.y, top.y, diagonal.y)};
}

}  // namespace xme::cpu
