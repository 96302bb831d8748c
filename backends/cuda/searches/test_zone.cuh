// SPEC §11's tz (HM's TZSearch with its default settings) on fast_walk.cuh's tracker, step for step as
// engine/src/reference/searches/test_zone.cpp: each diamond D(S, d), each 2-point search and each 32 raster
// points are one tracker step. HM's bookkeeping (the distance at which the best was found, and its
// step u for the 2-point search) follows from the step's winner: every point of D(S, d) lies at L1
// distance d from S.
#pragma once

#include "fast_walk.cuh"

namespace xme::cuda::walk {

// D(S, d) of SPEC §11, point i (HM's xTZ8PointDiamondSearch): 4 points for d = 1, 8 up to d = 8, then 16.
struct TzDiamond {
    Vector centre;
    int d;

    XME_QPEL_HD int count() const { return d == 1 ? 4 : d <= 8 ? 8 : 16; }
    XME_QPEL_HD Vector operator()(int i) const {
        Vector o;
        if (i < 4) {  // the axis points (0, -d), (-d, 0), (d, 0), (0, d)
            o = i == 0 ? Vector{0, -d} : i == 1 ? Vector{-d, 0} : i == 2 ? Vector{d, 0} : Vector{0, d};
        } else {
            const int j = i - 4;
            const int sx = (j & 1) != 0 ? 1 : -1;  // signs (-1, -1), (1, -1), (-1, 1), (1, 1)
            const int sy = (j & 2) != 0 ? 1 : -1;
            const int along = d <= 8 ? d / 2 : (d / 4) * (j / 4 + 1);
            const int across = d <= 8 ? d / 2 : d - along;
            o = {sx * along, sy * across};
        }
        return {centre.x + o.x, centre.y + o.y};
    }
};

// Every 5th candidate of the window c +- range in x and y, from its top-left corner, row by row.
struct TzRaster {
    Vector centre;
    int range;

    XME_QPEL_HD int per_row() const { return 2 * range / 5 + 1; }
    XME_QPEL_HD Vector operator()(int i) const {
        return {centre.x - range + 5 * (i % per_row()), centre.y - range + 5 * (i / per_row())};
    }
};

struct TzState {
    int best_distance = 0;
    int rounds_without_improvement = 0;
    Vector best_step;  // u of the 2-point search: the winner's offset from the diamond's centre
};

template <class T>
XME_QPEL_HD void tz_diamond_round(T& t, TzState& s, Vector centre, int d) {
    ++s.rounds_without_improvement;
    const TzDiamond diamond{centre, d};
    if (!t.step(diamond.count(), diamond)) return;
    s.best_distance = d;
    s.rounds_without_improvement = 0;
    s.best_step = {t.best_pel.x - centre.x, t.best_pel.y - centre.y};
}

// SPEC §11 step 3 (HM's xTZ2PointSearch): W + u +- u', found at distance 2.
template <class T>
XME_QPEL_HD void tz_two_point(T& t, TzState& s) {
    const Vector w = t.best_pel;
    const Vector u = s.best_step;
    const Vector across{u.y, u.x};
    s.best_distance = 0;
    if (t.step(2, Two{{w.x + u.x + across.x, w.y + u.y + across.y},
                      {w.x + u.x - across.x, w.y + u.y - across.y}}))
        s.best_distance = 2;
}

template <class T>
XME_QPEL_HD void tz_walk(T& t) {
    constexpr int kFirstSearchRounds = 3;
    constexpr int kRasterStep = 5;
    const int range = t.bounds.range;
    TzState s;
    start(t);
    const Vector first = t.best_pel;
    for (int d = 1; d <= range; d *= 2) {
        tz_diamond_round(t, s, first, d);
        if (s.rounds_without_improvement >= kFirstSearchRounds) break;
    }
    if (s.best_distance == 1) tz_two_point(t, s);
    if (s.best_distance > kRasterStep) {
        s.best_distance = kRasterStep;
        const TzRaster raster{t.bounds.centre, range};
        t.step(raster.per_row() * raster.per_row(), raster);
    }
    while (s.best_distance > 0) {  // the star refinement
        const Vector centre = t.best_pel;
        s.best_distance = 0;
        for (int d = 1; d <= range; d *= 2) tz_diamond_round(t, s, centre, d);
        if (s.best_distance == 1) tz_two_point(t, s);
    }
}

template <>
struct Walk<SearchMethod::test_zone> {
    template <class Warp, class T>
    XME_QPEL_HD static std::uint32_t run(Warp& /*warp*/, T& t, const SearchJob& /*job*/, int /*x*/, int /*y*/,
                                         const PredictorSet& /*set*/) {
        tz_walk(t);
        return 0;
    }
};

}  // namespace xme::cuda::walk
