// SPEC §11 `hex`: the large hexagon while the best moves (at most R moves), then the 8 neighbours once.
#include "integer_search.hpp"

namespace xme::cpu {

XME_CPU_SEARCH(hexagon) {
    CandidateSearch search(block);
    search_start(search);
    static constexpr MotionVector hexagon[6] = {{2, 0}, {-2, 0}, {1, 2}, {-1, 2}, {1, -2}, {-1, -2}};
    for (int moves = 0; moves < block.range; ++moves) {
        if (search.consider_around(search.best_pel(), hexagon, 6, {{-2, -2}, {2, 2}}) < 0) break;
    }
    square_neighbours(search);
    return search.result();
}

}  // namespace xme::cpu
