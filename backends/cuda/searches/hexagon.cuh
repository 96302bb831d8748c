// SPEC §11's hex on fast_walk.cuh's tracker: §11's start, the hexagon while the best moves (at most R
// moves), then the 8 neighbours once.
#pragma once

#include "fast_walk.cuh"

namespace xme::cuda::walk {

template <>
struct Walk<SearchMethod::hexagon> {
    template <class Warp, class T>
    XME_QPEL_HD static std::uint32_t run(Warp& /*warp*/, T& t, const SearchJob& /*job*/, int /*x*/, int /*y*/,
                                         const PredictorSet& /*set*/) {
        start(t);
        for (int moves = 0; moves < t.bounds.range; ++moves) {
            if (!t.step(6, Hexagon{t.best_pel})) break;
        }
        square_neighbours(t);
        return 0;
    }
};

}  // namespace xme::cuda::walk
