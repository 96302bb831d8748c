// SPEC §11 `hex`: the hexagon (+-2, 0), (+-1, +-2) from §11's start while the best moves (at most R
// moves), then the 8 neighbours of the best once.
#include "reference/integer_candidates.hpp"

namespace xme::reference {

BlockResult hexagon_search(const BlockSearch& search) {
    detail::require_square_block(search, "hex");
    detail::IntegerCandidateTracker tracker(search);
    detail::evaluate_start(tracker);
    detail::hexagon_moves(tracker, search.range);
    detail::evaluate_square_neighbours(tracker);
    return tracker.result();
}

XME_REFERENCE_SEARCH(hexagon) { return hexagon_search(search); }

}  // namespace xme::reference
