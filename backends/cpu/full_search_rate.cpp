// SPEC §8: the exhaustive search of c + [-R, R]^2 with J = SAD + lambda * R(mv - p), for the chains the
// fast full search (full_search_kernel.hpp) does not cover: a rate term, a predictor, a moved centre.
#include <algorithm>
#include <vector>

#include "integer_search.hpp"

namespace xme::cpu {

IntegerResult full_search_rate(const IntegerBlock& block) {
    CandidateSearch search(block);
    int x_low = block.centre.x - block.range;
    int x_high = block.centre.x + block.range;
    int y_low = block.centre.y - block.range;
    int y_high = block.centre.y + block.range;
    if (block.border == BorderMode::restrict) {
        // SPEC §2's bounds of the displaced block; the zero vector, valid anyway, is added below.
        x_low = std::max(x_low, -block.x);
        x_high = std::min(x_high, block.padded_width - block.size - block.x);
        y_low = std::max(y_low, -block.y);
        y_high = std::min(y_high, block.padded_height - block.size - block.y);
    }
    std::vector<MotionVector> row;
    row.reserve(static_cast<std::size_t>(2 * block.range + 2));
    // The zero vector is valid even outside the restrict bounds (SPEC §2); the order within a row does
    // not change the best (keys are unique), so it is simply added to its row.
    const bool zero_outside_bounds =
        search.admissible({0, 0}) && !(x_low <= 0 && 0 <= x_high && y_low <= 0 && 0 <= y_high);
    for (int dy = block.centre.y - block.range; dy <= block.centre.y + block.range; ++dy) {
        row.clear();
        if (dy >= y_low && dy <= y_high) {
            for (int dx = x_low; dx <= x_high; ++dx) row.push_back({dx, dy});
        }
        if (dy == 0 && zero_outside_bounds) row.push_back({0, 0});
        if (!row.empty()) search.evaluate(row.data(), static_cast<int>(row.size()));
    }
    // A window centred far away may hold no valid candidate in restrict mode; the reference takes the
    // zero vector then (SPEC §8 keeps it valid).
    if (!search.has_best()) search.evaluate({0, 0});
    return search.result();
}

}  // namespace xme::cpu
