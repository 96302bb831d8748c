// SPEC §8's spatial predictor: H.264's median of the left (A), top (B) and top-right (C, else top-left)
// blocks' final vectors; a lone available neighbour is taken as it is, missing ones count as zero. And
// §8's predictor set, from the same neighbours.
#include "spatial_predictor.hpp"

#include <algorithm>

namespace xme::cpu {
namespace {

int median_of_three(int a, int b, int c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// A, B and C (or D) of block (bx, by), each with whether its block lies inside the frame.
struct Neighbours {
    MotionVector left, top, diagonal;
    bool has_left, has_top, has_diagonal;
};

Neighbours neighbours_of(const MotionField& field, int bx, int by) {
    const auto final_at = [&](int x, int y, MotionVector& out) {
        if (x < 0 || x >= field.blocks_x || y < 0 || y >= field.blocks_y) return false;
        const BlockMotion& m = field.at(x, y);
        out = {m.mv_x, m.mv_y};
        return true;
    };
    Neighbours n{};
    n.has_left = final_at(bx - 1, by, n.left);
    n.has_top = final_at(bx, by - 1, n.top);
    n.has_diagonal = final_at(bx + 1, by - 1, n.diagonal) || final_at(bx - 1, by - 1, n.diagonal);
    return n;
}

MotionVector median_of(const Neighbours& n) {
    const int available = int{n.has_left} + int{n.has_top} + int{n.has_diagonal};
    if (available == 1) return n.has_left ? n.left : n.has_top ? n.top : n.diagonal;
    return {median_of_three(n.left.x, n.top.x, n.diagonal.x), median_of_three(n.left.y, n.top.y, n.diagonal.y)};
}

}  // namespace

MotionVector spatial_predictor(const MotionField& field, int bx, int by) {
    return median_of(neighbours_of(field, bx, by));
}

PredictorSet predictor_set(const MotionField& field, int bx, int by, const MotionField* previous) {
    const Neighbours n = neighbours_of(field, bx, by);
    PredictorSet set;
    const auto add = [&](MotionVector v) { set.members[static_cast<std::size_t>(set.count++)] = v; };
    if (n.has_left) add(n.left);
    if (n.has_top) add(n.top);
    if (n.has_diagonal) add(n.diagonal);
    if (set.count > 0) add(median_of(n));
    if (previous != nullptr) {
        const BlockMotion& m = previous->at(bx, by);
        add({m.mv_x, m.mv_y});
    }
    return set;
}

}  // namespace xme::cpu
