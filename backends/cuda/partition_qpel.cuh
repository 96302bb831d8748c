// SPEC §9's sub-pel stage on CUDA: each of a macroblock's 41 partitions refined by SPEC §10 from its own
// integer vector, with its own SATD, by one warp (qpel_refine.cuh's core). A w x h partition is refined
// as the smallest square block at its origin that holds it (16 for 16x8 and 8x16, 8 for 8x4 and 4x8),
// costing only its own 4x4 tiles; `restrict` tests its macroblock displaced, as the reference does.
// __host__ __device__: partition_emulation_test.cpp runs it on 32 fibers.
#pragma once

#include "partition_search.cuh"
#include "qpel_refine.cuh"

namespace xme::cuda::p41 {

// One warp's scratch for every square size a partition is refined as.
struct QpelScratch {
    qpel::Scratch<16> s16;
    qpel::Scratch<8> s8;
    qpel::Scratch<4> s4;
};

// Partition i (SPEC §9's index) of macroblock mb, refined from `integer` with the macroblock's predictor
// p and `lambda`; all 32 lanes call it together and get the result.
template <class Warp>
XME_P41_HD MotionRecord refine_partition(Warp& warp, QpelScratch& s, const SearchJob& job, int mb, int i,
                                         MotionRecord integer, int px, int py, int lambda) {
    int x, y;
    macroblock_origin(job, mb, x, y);
    qpel::Area area;
    area.box_x = x;
    area.box_y = y;
    area.box_size = 16;
    if (i == 0) return qpel::refine_qpel_core<16>(warp, s.s16, job, x, y, integer, px, py, lambda, area);
    if (i <= 2) {  // 16x8: the top two rows of tiles of a 16x16 at the partition
        area.tiles = 0x00FFu;
        return qpel::refine_qpel_core<16>(warp, s.s16, job, x, y + 8 * (i - 1), integer, px, py, lambda,
                                          area);
    }
    if (i <= 4) {  // 8x16: the left two columns
        area.tiles = 0x3333u;
        return qpel::refine_qpel_core<16>(warp, s.s16, job, x + 8 * (i - 3), y, integer, px, py, lambda,
                                          area);
    }
    if (i <= 24) {  // 8x8 whole; 8x4 its top row of tiles (0, 1); 4x8 its left column (0, 2)
        const int q = i <= 8 ? i - 5 : (i <= 16 ? (i - 9) / 2 : (i - 17) / 2);
        int left = x + 8 * (q & 1);
        int top = y + 8 * (q >> 1);
        if (i >= 9 && i <= 16) {
            area.tiles = 0x3u;
            top += 4 * ((i - 9) & 1);
        } else if (i >= 17) {
            area.tiles = 0x5u;
            left += 4 * ((i - 17) & 1);
        }
        return qpel::refine_qpel_core<8>(warp, s.s8, job, left, top, integer, px, py, lambda, area);
    }
    const int q = (i - 25) / 4;  // 4x4: quadrant q's four in raster order
    const int k = (i - 25) & 3;
    return qpel::refine_qpel_core<4>(warp, s.s4, job, x + 8 * (q & 1) + 4 * (k & 1),
                                     y + 8 * (q >> 1) + 4 * (k >> 1), integer, px, py, lambda, area);
}

}  // namespace xme::cuda::p41
