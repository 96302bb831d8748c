// SPEC §11's umh on fast_walk.cuh's tracker, step for step as engine/src/reference/searches/umh.cpp:
// §11's start, then §8's predictor set; the cross, the 5x5 grid and the multi-hexagon, each one step
// around a centre fixed for the step; the hexagon walk (at most R moves) and the 4 neighbours once.
#pragma once

#include "fast_walk.cuh"

namespace xme::cuda::walk {

// Step 1's members of the predictor set, each as round(v / 4).
struct UmhMembers {
    const PredictorSet& set;
    XME_QPEL_HD Vector operator()(int i) const {
        const Vector v = set.at(i);
        return {round_quarter(v.x), round_quarter(v.y)};
    }
};

// Step 2: (+-d, 0) for the `across` odd d = 1, 3, ... <= R, then (0, +-d) for those <= R / 2.
struct UmhCross {
    Vector centre;
    int across;
    XME_QPEL_HD Vector operator()(int i) const {
        const bool horizontal = i < 2 * across;
        const int j = horizontal ? i : i - 2 * across;
        const int d = (j & 1) != 0 ? -(j | 1) : j + 1;  // j = 2k: 2k + 1; j = 2k + 1: -(2k + 1)
        return horizontal ? Vector{centre.x + d, centre.y} : Vector{centre.x, centre.y + d};
    }
};

// Step 3: the 24 points of the 5x5 square around centre, row by row.
struct UmhGrid {
    Vector centre;
    XME_QPEL_HD Vector operator()(int i) const {
        const int k = i < 12 ? i : i + 1;  // skips the centre, k = 12
        return {centre.x + k % 5 - 2, centre.y + k / 5 - 2};
    }
};

// Step 4: k * h for k = 1 .. R / 4 and the 16 h of SPEC §11 in its order: (-4, -2 .. 2), (4, -2 .. 2),
// (-2, 3), (0, 4), (2, 3), (-2, -3), (0, -4), (2, -3).
struct UmhMultiHexagon {
    Vector centre;
    XME_QPEL_HD Vector operator()(int i) const {
        const int k = i / 16 + 1;
        const int j = i % 16;
        Vector h;
        if (j < 10) {
            h = {j < 5 ? -4 : 4, j % 5 - 2};
        } else {
            const int m = (j - 10) % 3;  // -2, 0, 2 across
            h = {2 * m - 2, (j < 13 ? 1 : -1) * (m == 1 ? 4 : 3)};
        }
        return {centre.x + k * h.x, centre.y + k * h.y};
    }
};

template <>
struct Walk<SearchMethod::umh> {
    template <class Warp, class T>
    XME_QPEL_HD static std::uint32_t run(Warp& /*warp*/, T& t, const SearchJob& /*job*/, int /*x*/, int /*y*/,
                                         const PredictorSet& set) {
        const int range = t.bounds.range;
        start(t);
        if (set.count > 0) t.step(set.count, UmhMembers{set});
        const int across = (range + 1) / 2;    // odd d <= R
        const int down = (range / 2 + 1) / 2;  // odd d <= R / 2
        t.step(2 * across + 2 * down, UmhCross{t.best_pel, across});
        t.step(24, UmhGrid{t.best_pel});
        t.step(16 * (range / 4), UmhMultiHexagon{t.best_pel});
        for (int moves = 0; moves < range; ++moves) {
            if (!t.step(6, Hexagon{t.best_pel})) break;
        }
        t.step(4, Diamond{t.best_pel});
        return 0;
    }
};

}  // namespace xme::cuda::walk
