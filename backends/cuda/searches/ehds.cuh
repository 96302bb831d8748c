// SPEC §11's ehds on fast_walk.cuh's tracker, as engine/src/reference/searches/ehds.cpp: an exhaustive
// search of level 2 of the mean pyramid (32 candidates a step), dia on level 1 and dia then the 8
// neighbours on level 0. The levels above 0 cost plain SAD with §3's key (lambda 0, p = 0: the same
// key), every candidate of their window valid, their samples edge-replicated in the level's plane.
#pragma once

#include "fast_walk.cuh"

namespace xme::cuda::walk {

// round(v / divisor), halves away from zero, for divisor 2 or 4.
XME_QPEL_HD int round_div(int v, int divisor) {
    return v >= 0 ? (2 * v + divisor) / (2 * divisor) : -((-2 * v + divisor) / (2 * divisor));
}

XME_QPEL_HD int clamp_int(int v, int low, int high) { return qpel::min_int(qpel::maximum(v, low), high); }

// The SAD of a size x size block at (x, y) of one pyramid level against its reference displaced by pel,
// by a group of `lanes` lanes; both planes read with clamping (SPEC §1 on the level's plane).
struct LevelCost {
    const std::uint8_t* current;
    const std::uint8_t* reference;
    int width, height, size, x, y;

    XME_QPEL_HD int at(const std::uint8_t* plane, int px, int py) const {
        return plane[static_cast<std::ptrdiff_t>(clamp_int(py, 0, height - 1)) * width +
                     clamp_int(px, 0, width - 1)];
    }

    template <class Warp>
    XME_QPEL_HD std::uint32_t operator()(Warp& warp, int sub, int lanes, Vector pel) const {
        std::uint32_t sad = 0;
        for (int k = sub; k < size * size; k += lanes) {
            const int px = x + k % size;
            const int py = y + k / size;
            sad += static_cast<std::uint32_t>(
                qpel::absolute(at(current, px, py) - at(reference, px + pel.x, py + pel.y)));
        }
        return group_sum(warp, sad, lanes);
    }
};

// Every candidate of the window c +- range, row by row.
struct Exhaustive {
    Vector centre;
    int range;
    XME_QPEL_HD Vector operator()(int i) const {
        const int side = 2 * range + 1;
        return {centre.x - range + i % side, centre.y - range + i / side};
    }
};

// Twice the level above's result, clamped into this level's window (x264's clipping of a start).
XME_QPEL_HD Vector doubled_start(const Bounds& level, Vector above) {
    return {clamp_int(2 * above.x, level.centre.x - level.range, level.centre.x + level.range),
            clamp_int(2 * above.y, level.centre.y - level.range, level.centre.y + level.range)};
}

// The tracker of level `level` (1 or 2) of the block at (x, y), around level 0's window centre c.
template <class Warp>
XME_QPEL_HD Tracker<Warp, LevelCost> level_tracker(Warp& warp, const SearchJob& job, int level, int x, int y,
                                                   Vector c) {
    const int factor = 1 << level;
    Bounds bounds;
    bounds.centre = {round_div(c.x, factor), round_div(c.y, factor)};
    bounds.range = (job.range + factor - 1) / factor;
    const LevelCost cost{job.pyramid.current[level - 1],
                         job.pyramid.reference[level - 1],
                         job.pyramid.width[level - 1],
                         job.pyramid.height[level - 1],
                         job.block_size >> level,
                         x >> level,
                         y >> level};
    return {warp, cost, bounds, 0, Vector{}, RateKey{}, Vector{}, 0};
}

// Runs ehds on t (level 0's tracker of the block at (x, y)); returns the candidates of levels 2 and 1,
// which count alike with t's in the reported number.
template <class Warp, class T>
XME_QPEL_HD std::uint32_t ehds_walk(Warp& warp, T& t, const SearchJob& job, int x, int y) {
    std::uint32_t above = 0;
    Vector level1_best;
    {
        auto level2 = level_tracker(warp, job, 2, x, y, t.bounds.centre);
        const int r = level2.bounds.range;
        level2.step((2 * r + 1) * (2 * r + 1), Exhaustive{level2.bounds.centre, r});
        auto level1 = level_tracker(warp, job, 1, x, y, t.bounds.centre);
        const Vector s1 = doubled_start(level1.bounds, level2.best_pel);
        level1.step(1, Two{s1, s1}, false);
        small_diamond(level1, level1.bounds.range);
        above = level2.evaluated + level1.evaluated;
        level1_best = level1.best_pel;
    }
    const Vector s0 = doubled_start(t.bounds, level1_best);
    if (t.bounds.valid(s0)) {
        t.step(1, Two{s0, s0}, false);
    } else {
        start(t);  // SPEC §11: restrict rejected the doubled level-1 result
    }
    small_diamond(t, t.bounds.range);
    square_neighbours(t);
    return above;
}

template <>
struct Walk<SearchMethod::ehds> {
    template <class Warp, class T>
    XME_QPEL_HD static std::uint32_t run(Warp& warp, T& t, const SearchJob& job, int x, int y,
                                         const PredictorSet& /*set*/) {
        return ehds_walk(warp, t, job, x, y);
    }
};

}  // namespace xme::cuda::walk
