// SPEC §11 `dia`: the small diamond from the start, at most R moves.
#include "integer_search.hpp"

namespace xme::cpu {

XME_CPU_SEARCH(diamond) {
    CandidateSearch search(block);
    search_start(search);
    small_diamond_moves(search, block.range);
    return search.result();
}

}  // namespace xme::cpu
