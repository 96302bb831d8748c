// SPEC §8: exhaustive integer search of the window c + [-R, R]^2 with J = SAD + lambda * R(mv - p).
#include "reference/integer_candidates.hpp"

namespace xme::reference {

BlockResult full_search(const BlockSearch& search) {
    search.validate();
    detail::IntegerCandidateTracker tracker(search);
    for (int dy = -search.range; dy <= search.range; ++dy) {
        for (int dx = -search.range; dx <= search.range; ++dx) {
            tracker.consider({search.centre.x + dx, search.centre.y + dy});
        }
    }
    // A window centred on a predictor may hold no valid candidate in `restrict` mode (the predictor's
    // block far outside the frame, R small). SPEC §8 keeps the zero vector valid; we take it then.
    // (SPEC does not say what happens; the lead should confirm.)
    if (!tracker.has_best()) tracker.evaluate({0, 0});
    return tracker.result();
}

XME_REFERENCE_SEARCH(full) { return full_search(search); }

}  // namespace xme::reference
