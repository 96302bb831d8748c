// SPEC §11 `umh`: x264's uneven multi-hexagon search in FFmpeg's form: §11's start and §8's predictor
// set, the unsymmetrical cross, the 5x5 grid, the 16-point hexagon at radii 1 .. R/4, then the
// hexagon walk and the small diamond once. Each step's centre is fixed for the step.
#include "reference/integer_candidates.hpp"

namespace xme::reference {
namespace {

// The 16 points of step 4, in SPEC's order.
constexpr MotionVector multi_hexagon[16] = {{-4, -2}, {-4, -1}, {-4, 0}, {-4, 1}, {-4, 2}, {4, -2},
                                            {4, -1},  {4, 0},   {4, 1},  {4, 2},  {-2, 3}, {0, 4},
                                            {2, 3},   {-2, -3}, {0, -4}, {2, -3}};

}  // namespace

XME_REFERENCE_SEARCH(umh) {
    detail::require_square_block(search, "umh");
    detail::IntegerCandidateTracker tracker(search);
    detail::evaluate_start(tracker);
    for (const MotionVector member : surroundings.predictor_set)
        tracker.consider(round_quarter_to_pel(member));

    const int range = search.range;
    MotionVector centre = tracker.best_pel();
    for (int d = 1; d <= range; d += 2) {  // the cross
        tracker.consider({centre.x - d, centre.y});
        tracker.consider({centre.x + d, centre.y});
        if (d <= range / 2) {
            tracker.consider({centre.x, centre.y - d});
            tracker.consider({centre.x, centre.y + d});
        }
    }
    centre = tracker.best_pel();
    for (int dy = -2; dy <= 2; ++dy) {  // the grid
        for (int dx = -2; dx <= 2; ++dx) {
            if (dx != 0 || dy != 0) tracker.consider({centre.x + dx, centre.y + dy});
        }
    }
    centre = tracker.best_pel();
    for (int k = 1; k <= range / 4; ++k) {  // the multi-hexagon
        for (const MotionVector h : multi_hexagon) tracker.consider({centre.x + k * h.x, centre.y + k * h.y});
    }
    detail::hexagon_moves(tracker, range);  // the hexagon walk
    centre = tracker.best_pel();
    for (const MotionVector step :
         {MotionVector{1, 0}, MotionVector{-1, 0}, MotionVector{0, 1}, MotionVector{0, -1}})
        tracker.consider({centre.x + step.x, centre.y + step.y});
    return tracker.result();
}

}  // namespace xme::reference
