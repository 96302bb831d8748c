// SPEC §8's spatial predictor: H.264's median over the final vectors of the left (A), top (B) and
// top-right (C, or top-left D when C lies outside the frame) blocks; and §8's predictor set.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "xme/error.hpp"
#include "xme/reference_ops.hpp"

namespace xme::reference {
namespace {

int median3(int a, int b, int c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

// The final vector of block (nx, ny), or nothing when it lies outside the frame; every block above or
// left of the block being searched is final.
struct Neighbours {
    std::optional<MotionVector> a, b, c;
};

Neighbours neighbours_of(const std::vector<MotionVector>& finals, int blocks_x, int blocks_y, int bx,
                         int by) {
    if (blocks_x < 1 || blocks_y < 1 || bx < 0 || bx >= blocks_x || by < 0 || by >= blocks_y ||
        finals.size() != static_cast<std::size_t>(blocks_x) * static_cast<std::size_t>(blocks_y)) {
        throw Error(ErrorKind::invalid_argument,
                    "spatial predictor: block (" + std::to_string(bx) + "," + std::to_string(by) + ") of a " +
                        std::to_string(blocks_x) + "x" + std::to_string(blocks_y) + " field of " +
                        std::to_string(finals.size()) + " vectors is out of bounds");
    }
    const auto neighbour = [&](int nx, int ny) -> std::optional<MotionVector> {
        if (nx < 0 || nx >= blocks_x || ny < 0 || ny >= blocks_y) return std::nullopt;
        return finals[static_cast<std::size_t>(ny) * static_cast<std::size_t>(blocks_x) +
                      static_cast<std::size_t>(nx)];
    };
    Neighbours n{neighbour(bx - 1, by), neighbour(bx, by - 1), neighbour(bx + 1, by - 1)};
    if (!n.c) n.c = neighbour(bx - 1, by - 1);
    return n;
}

// SPEC §8's median of a block's neighbours.
MotionVector median_of(const Neighbours& neighbours) {
    const auto& [a, b, c] = neighbours;
    // SPEC §8 (H.264 8.4.1.3.1 with one reference picture): exactly one available neighbour is the
    // predictor; otherwise unavailable neighbours count as (0, 0) in the median.
    if (static_cast<int>(a.has_value()) + static_cast<int>(b.has_value()) + static_cast<int>(c.has_value()) ==
        1) {
        return a ? *a : b ? *b : *c;
    }
    const MotionVector va = a.value_or(MotionVector{});
    const MotionVector vb = b.value_or(MotionVector{});
    const MotionVector vc = c.value_or(MotionVector{});
    return {median3(va.x, vb.x, vc.x), median3(va.y, vb.y, vc.y)};
}

}  // namespace

MotionVector spatial_predictor(const std::vector<MotionVector>& finals, int blocks_x, int blocks_y, int bx,
                               int by) {
    return median_of(neighbours_of(finals, blocks_x, blocks_y, bx, by));
}

std::vector<MotionVector> predictor_set(const std::vector<MotionVector>& finals, int blocks_x, int blocks_y,
                                        int bx, int by, const MotionVector* temporal) {
    const Neighbours neighbours = neighbours_of(finals, blocks_x, blocks_y, bx, by);
    std::vector<MotionVector> set;
    for (const auto& neighbour : {neighbours.a, neighbours.b, neighbours.c}) {
        if (neighbour) set.push_back(*neighbour);
    }
    if (!set.empty()) set.push_back(median_of(neighbours));
    if (temporal != nullptr) set.push_back(*temporal);
    return set;
}

}  // namespace xme::reference
