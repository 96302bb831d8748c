// SPEC §11 `ehds` (003's hierarchical diamond): exhaustive SAD on level 2 of the mean pyramid, the
// small diamond on level 1, the small diamond and the 8 neighbours on level 0. Every level's candidates
// count.
#include <algorithm>

#include "integer_search.hpp"

namespace xme::cpu {
namespace {

// round(v / f), halves away from zero, f = 2 or 4.
int rounded_quotient(int v, int f) { return v >= 0 ? (2 * v + f) / (2 * f) : -((-2 * v + f) / (2 * f)); }

// The block one level up: plain SAD (lambda 0, p = 0), every candidate valid, window ceil(R / f) around
// round(c / f).
IntegerBlock level_block(const IntegerBlock& block, const SearchPlane& reference, const SearchPlane& current,
                         int f) {
    IntegerBlock level = block;
    level.reference = &reference;
    level.current = &current;
    level.x = block.x / f;
    level.y = block.y / f;
    level.size = block.size / f;
    level.range = (block.range + f - 1) / f;
    level.border = BorderMode::pad;
    level.lambda = 0;
    level.predictor = {};
    level.centre = {rounded_quotient(block.centre.x, f), rounded_quotient(block.centre.y, f)};
    return level;
}

// The level above's best, doubled and clamped into this level's window.
MotionVector doubled_into_window(const IntegerBlock& level, MotionVector above) {
    return {std::clamp(2 * above.x, level.centre.x - level.range, level.centre.x + level.range),
            std::clamp(2 * above.y, level.centre.y - level.range, level.centre.y + level.range)};
}

}  // namespace

XME_CPU_SEARCH(ehds) {
    const MeanPyramid& pyramid = *surroundings.pyramid;
    const IntegerBlock level2 = level_block(block, pyramid.level2_reference, pyramid.level2_current, 4);
    const IntegerResult top = full_search_rate(level2);

    const IntegerBlock level1 = level_block(block, pyramid.level1_reference, pyramid.level1_current, 2);
    CandidateSearch middle(level1);
    middle.evaluate(doubled_into_window(level1, top.pel));
    small_diamond_moves(middle, level1.range);

    CandidateSearch search(block);
    const MotionVector start = doubled_into_window(block, middle.best_pel());
    if (search.admissible(start)) {
        search.evaluate(start);
    } else {
        search_start(search);  // restrict mode rejected the doubled level-1 result
    }
    small_diamond_moves(search, block.range);
    square_neighbours(search);
    IntegerResult result = search.result();
    result.candidates += top.candidates + middle.evaluated();
    return result;
}

}  // namespace xme::cpu
