// SPEC §11 `ehds` (003 Algorithms 8-11): exhaustive search on level 2 of the mean pyramid, `dia` on
// level 1, `dia` then the 8 neighbours on level 0.
#include <algorithm>
#include <string>

#include "reference/integer_candidates.hpp"
#include "xme/error.hpp"

namespace xme::reference {
namespace {

int ceil_div(int value, int divisor) { return (value + divisor - 1) / divisor; }

// round(v / divisor), halves away from zero, for divisor 2 or 4.
int round_div(int value, int divisor) {
    return value >= 0 ? (2 * value + divisor) / (2 * divisor) : -((-2 * value + divisor) / (2 * divisor));
}

void require_level_size(PlaneView plane, int width, int height, const char* name) {
    if (plane.data == nullptr || plane.width != width || plane.height != height) {
        throw Error(ErrorKind::invalid_argument, std::string("ehds: ") + name + " is " +
                                                     std::to_string(plane.width) + "x" +
                                                     std::to_string(plane.height) + ", expected " +
                                                     std::to_string(width) + "x" + std::to_string(height));
    }
}

// The same block one pyramid level up: plain SAD (no rate, p = 0: §3's key), every candidate valid
// (samples edge-replicated), the level's own window.
BlockSearch level_search(const BlockSearch& search, PlaneView reference, PlaneView current, int factor) {
    BlockSearch level;
    level.reference = reference;
    level.current = current;
    level.x = search.x / factor;
    level.y = search.y / factor;
    level.width = search.width / factor;
    level.height = search.height / factor;
    level.restrict_block_size = level.width;
    level.range = ceil_div(search.range, factor);
    level.border = BorderMode::pad;
    level.lambda = 0;
    level.predictor = {};
    // SPEC names level 2's centre round(c / 4); level 1's, by the same rule, is round(c / 2).
    level.centre = {round_div(search.centre.x, factor), round_div(search.centre.y, factor)};
    return level;
}

// Twice the level above's result, clamped into this level's window: SPEC §11 does not say what happens
// when it falls outside (possible: 2 * ceil(R/4) > ceil(R/2) for small R); encoders clip a start into
// their search range (x264's CLIP_MV), so we do. (The lead should confirm.)
MotionVector doubled_start(const BlockSearch& level, MotionVector above) {
    return {std::clamp(2 * above.x, level.centre.x - level.range, level.centre.x + level.range),
            std::clamp(2 * above.y, level.centre.y - level.range, level.centre.y + level.range)};
}

}  // namespace

BlockResult ehds_search(const BlockSearch& search, PlaneView level1_reference, PlaneView level1_current,
                        PlaneView level2_reference, PlaneView level2_current) {
    detail::require_square_block(search, "ehds");
    if (search.width % 4 != 0) {
        throw Error(ErrorKind::invalid_argument,
                    "ehds needs a block size divisible by 4, got " + std::to_string(search.width));
    }
    const int level1_width = ceil_div(search.current.width, 2);
    const int level1_height = ceil_div(search.current.height, 2);
    require_level_size(level1_reference, level1_width, level1_height, "level 1 reference");
    require_level_size(level1_current, level1_width, level1_height, "level 1 current");
    require_level_size(level2_reference, ceil_div(level1_width, 2), ceil_div(level1_height, 2),
                       "level 2 reference");
    require_level_size(level2_current, ceil_div(level1_width, 2), ceil_div(level1_height, 2),
                       "level 2 current");

    // Every level's candidates count: SPEC §11 reports candidates evaluated, whatever their level.
    const BlockSearch level2 = level_search(search, level2_reference, level2_current, 4);
    detail::IntegerCandidateTracker tracker2(level2);
    for (int dy = -level2.range; dy <= level2.range; ++dy) {
        for (int dx = -level2.range; dx <= level2.range; ++dx) {
            tracker2.consider({level2.centre.x + dx, level2.centre.y + dy});
        }
    }

    const BlockSearch level1 = level_search(search, level1_reference, level1_current, 2);
    detail::IntegerCandidateTracker tracker1(level1);
    tracker1.evaluate(doubled_start(level1, tracker2.best_pel()));
    detail::small_diamond(tracker1, level1.range);

    detail::IntegerCandidateTracker tracker0(search);
    const MotionVector start0 = doubled_start(search, tracker1.best_pel());
    if (integer_displacement_valid(search, start0)) {
        tracker0.evaluate(start0);
    } else {
        detail::evaluate_start(tracker0);  // SPEC §11: `restrict` rejected the doubled level-1 result
    }
    detail::small_diamond(tracker0, search.range);
    detail::evaluate_square_neighbours(tracker0);

    BlockResult result = tracker0.result();
    result.candidates += tracker2.evaluated() + tracker1.evaluated();
    return result;
}

XME_REFERENCE_SEARCH(ehds) {
    return ehds_search(search, surroundings.level1_reference, surroundings.level1_current,
                       surroundings.level2_reference, surroundings.level2_current);
}

}  // namespace xme::reference
