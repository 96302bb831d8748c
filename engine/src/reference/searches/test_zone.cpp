// SPEC §11 `tz`: HEVC's test zone search as HM's TZSearch runs it with its default settings (diamond
// first search stopping after 3 rounds without improvement, 2-point search, raster step 5, star
// refinement with diamonds).
#include <vector>

#include "reference/integer_candidates.hpp"

namespace xme::reference {
namespace {

constexpr int first_search_rounds = 3;
constexpr int raster_step = 5;

// HM's bookkeeping: the distance at which the current best was found, how many diamond rounds ran since
// it was, and which axis step of a distance-1 diamond found it (for the 2-point search).
struct TzState {
    detail::IntegerCandidateTracker tracker;
    int best_distance = 0;
    int rounds_without_improvement = 0;
    MotionVector best_step;  // u of SPEC §11 step 3 when best_distance == 1

    bool consider(MotionVector pel, int distance, MotionVector step = {}) {
        if (!tracker.consider(pel)) return false;
        best_distance = distance;
        rounds_without_improvement = 0;
        best_step = step;
        return true;
    }
};

// D(S, d) of SPEC §11 (HM's xTZ8PointDiamondSearch), as offsets from S.
std::vector<MotionVector> diamond_points(int d) {
    if (d == 1) return {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
    std::vector<MotionVector> points = {{0, -d}, {-d, 0}, {d, 0}, {0, d}};
    if (d <= 8) {
        for (const MotionVector corner :
             {MotionVector{-1, -1}, MotionVector{1, -1}, MotionVector{-1, 1}, MotionVector{1, 1}}) {
            points.push_back({corner.x * d / 2, corner.y * d / 2});
        }
        return points;
    }
    const int quarter = d / 4;
    for (int i = 1; i <= 3; ++i) {
        const int along = quarter * i;
        const int across = d - along;
        for (const MotionVector sign :
             {MotionVector{-1, -1}, MotionVector{1, -1}, MotionVector{-1, 1}, MotionVector{1, 1}}) {
            points.push_back({sign.x * along, sign.y * across});
        }
    }
    return points;
}

void diamond_round(TzState& state, MotionVector start, int d) {
    ++state.rounds_without_improvement;
    for (const MotionVector offset : diamond_points(d)) {
        state.consider({start.x + offset.x, start.y + offset.y}, d, offset);
    }
}

// SPEC §11 step 3 (HM's xTZ2PointSearch): the best W = S + u; W + u +- u', u' perpendicular to u. HM
// records what it finds there at distance 2.
void two_point_search(TzState& state) {
    const MotionVector w = state.tracker.best_pel();
    const MotionVector u = state.best_step;
    const MotionVector perpendicular{u.y, u.x};
    state.best_distance = 0;
    state.consider({w.x + u.x + perpendicular.x, w.y + u.y + perpendicular.y}, 2);
    state.consider({w.x + u.x - perpendicular.x, w.y + u.y - perpendicular.y}, 2);
}

}  // namespace

BlockResult tz_search(const BlockSearch& search) {
    detail::require_square_block(search, "tz");
    TzState state{detail::IntegerCandidateTracker(search), 0, 0, {}};

    // 1. The start candidates, found at distance 0.
    detail::evaluate_start(state.tracker);
    const MotionVector start = state.tracker.best_pel();

    // 2. First search around the fixed start.
    for (int d = 1; d <= search.range; d *= 2) {
        diamond_round(state, start, d);
        if (state.rounds_without_improvement >= first_search_rounds) break;
    }

    // 3. 2-point search.
    if (state.best_distance == 1) two_point_search(state);

    // 4. Raster search over the whole window from its top-left corner; HM then refines from its best
    // as if found at the raster step.
    if (state.best_distance > raster_step) {
        state.best_distance = raster_step;
        for (int y = search.centre.y - search.range; y <= search.centre.y + search.range; y += raster_step) {
            for (int x = search.centre.x - search.range; x <= search.centre.x + search.range;
                 x += raster_step) {
                state.consider({x, y}, raster_step);
            }
        }
    }

    // 5. Star refinement. "While the best moved" is HM's `while (uiBestDistance > 0)`: it runs only if
    // steps 2-4 left a best found at a distance > 0, and a round whose best is at distance 1 ends the
    // refinement unless its 2-point search improves (HM resets the distance before that search).
    while (state.best_distance > 0) {
        const MotionVector centre = state.tracker.best_pel();
        state.best_distance = 0;
        for (int d = 1; d <= search.range; d *= 2) diamond_round(state, centre, d);
        if (state.best_distance == 1) two_point_search(state);
    }
    return state.tracker.result();
}

XME_REFERENCE_SEARCH(test_zone) { return tz_search(search); }

}  // namespace xme::reference
