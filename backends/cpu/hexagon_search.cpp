// SPEC §11 `hex`: the large hexagon while the best moves (at most R moves), then the 8 neighbours once.
#include "integer_search.hpp"

namespace xme::cpu {

IntegerResult hexagon_search(const IntegerBlock& block) {
    CandidateSearch search(block);
    search_start(search);
    for (int moves = 0; moves < block.range; ++moves) {
        const MotionVector c = search.best_pel();
        const MotionVector hexagon[6] = {{c.x + 2, c.y},     {c.x - 2, c.y},     {c.x + 1, c.y + 2},
                                         {c.x - 1, c.y + 2}, {c.x + 1, c.y - 2}, {c.x - 1, c.y - 2}};
        if (search.consider(hexagon, 6) < 0) break;
    }
    square_neighbours(search);
    return search.result();
}

}  // namespace xme::cpu
