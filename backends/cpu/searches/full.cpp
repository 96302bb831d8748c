// SPEC §8: the exhaustive search of c + [-R, R]^2 with J = SAD + lambda * R(mv - p), for the chains the
// fast full search (full_search_kernel.hpp) does not cover: a rate term, a predictor, a moved centre.
#include <algorithm>

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
    // The zero vector is valid even outside the restrict bounds (SPEC §2); the order of the candidates
    // does not change the best (keys are unique), so it is simply evaluated after its row.
    const bool zero_outside_bounds =
        search.admissible({0, 0}) && !(x_low <= 0 && 0 <= x_high && y_low <= 0 && 0 <= y_high);
    for (int dy = block.centre.y - block.range; dy <= block.centre.y + block.range; ++dy) {
        if (dy >= y_low && dy <= y_high && x_low <= x_high)
            search.evaluate_row({x_low, dy}, x_high - x_low + 1);
        if (dy == 0 && zero_outside_bounds) search.evaluate({0, 0});
    }
    // A window centred far away may hold no valid candidate in restrict mode; the reference takes the
    // zero vector then (SPEC §8 keeps it valid).
    if (!search.has_best()) search.evaluate({0, 0});
    return search.result();
}

XME_CPU_SEARCH(full) { return full_search_rate(block); }

}  // namespace xme::cpu
