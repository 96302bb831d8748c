// SPEC §8's predictor set of a block, which searches that start from several predictors read (§11's
// umh): A, B and C (or D) of this frame's final vectors, the spatial median when one of them lies
// inside the frame, then T, the co-located block's final vector of the previous pair (none at a
// segment's start). __host__ __device__, so that walk_emulation_test.cpp checks it against the
// reference's predictor_set().
#pragma once

#include "rate_key.cuh"
#include "spatial_median.cuh"

namespace xme::cuda {

// Up to 5 quarter-pel vectors in SPEC §8's order, a repeated vector kept. Written and read with
// constant indices only (add(), at()), so that on the device it stays in registers.
struct PredictorSet {
    static constexpr int kCapacity = 5;
    Vector members[kCapacity];
    int count = 0;

    // Appends v when `present`.
    XME_QPEL_HD void add(bool present, Vector v) {
        XME_QPEL_UNROLL
        for (int k = 0; k < kCapacity; ++k) {
            if (present && k == count) members[k] = v;
        }
        count += present ? 1 : 0;
    }
    // Member i, 0 <= i < count.
    XME_QPEL_HD Vector at(int i) const {
        Vector v = members[0];
        XME_QPEL_UNROLL
        for (int k = 1; k < kCapacity; ++k) {
            if (k == i) v = members[k];
        }
        return v;
    }
};

// The set of block (bx, by) of a frame `blocks_x` blocks wide: A, B, C or D from `records` (this frame's
// records, row-major, final above and to the left of the block: the caller waits for them, a
// wavefront), then T from `previous` (the previous pair's records of the same segment; null at a
// segment's start).
XME_QPEL_HD PredictorSet block_predictor_set(const MotionRecord* records, int blocks_x, int bx, int by,
                                             const MotionRecord* previous) {
    const MedianNeighbours n = median_neighbours(reinterpret_cast<const std::uint8_t*>(records),
                                                 sizeof(MotionRecord), blocks_x, bx, by);
    PredictorSet set;
    set.add(n.has_a, {n.a.x, n.a.y});
    set.add(n.has_b, {n.b.x, n.b.y});
    set.add(n.has_c, {n.c.x, n.c.y});
    const MedianVector median = median_of(n);
    set.add(set.count > 0, {median.x, median.y});
    if (previous != nullptr) {
        const MotionRecord t = previous[by * blocks_x + bx];
        set.add(true, {t.mv_x, t.mv_y});
    }
    return set;
}

}  // namespace xme::cuda
