// SPEC §11 `dia`: the small diamond from §11's start, at most R moves.
#include "reference/integer_candidates.hpp"

namespace xme::reference {

BlockResult diamond_search(const BlockSearch& search) {
    detail::require_square_block(search, "dia");
    detail::IntegerCandidateTracker tracker(search);
    detail::evaluate_start(tracker);
    detail::small_diamond(tracker, search.range);
    return tracker.result();
}

XME_REFERENCE_SEARCH(diamond) { return diamond_search(search); }

}  // namespace xme::reference
