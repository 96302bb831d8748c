// SPEC §11 `hex`: the hexagon (+-2, 0), (+-1, +-2) from §11's start while the best moves (at most R
// moves), then the 8 neighbours of the best once.
#include "reference/integer_candidates.hpp"

namespace xme::reference {

BlockResult hexagon_search(const BlockSearch& search) {
    detail::require_square_block(search, "hex");
    detail::IntegerCandidateTracker tracker(search);
    detail::evaluate_start(tracker);
    for (int moves = 0; moves < search.range; ++moves) {
        const MotionVector centre = tracker.best_pel();
        bool moved = false;
        for (const MotionVector step : {MotionVector{2, 0}, MotionVector{-2, 0}, MotionVector{1, 2},
                                        MotionVector{-1, 2}, MotionVector{1, -2}, MotionVector{-1, -2}}) {
            moved = tracker.consider({centre.x + step.x, centre.y + step.y}) || moved;
        }
        if (!moved) break;
    }
    detail::evaluate_square_neighbours(tracker);
    return tracker.result();
}

XME_REFERENCE_SEARCH(hexagon) { return hexagon_search(search); }

}  // namespace xme::reference
