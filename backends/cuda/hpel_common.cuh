// What both half-pel refinements (SPEC §4) share: validity of a half-pel candidate, and the choice of
// the best of the 9 positions (the integer winner and its 8 half-pel neighbours) from their cost4 sums.
// hpel_refine.cu computes the sums exactly in integers, hpel_texture.cu through the texture unit's
// bilinear filter.
#pragma once

#include "rate_common.cuh"

namespace xme::cuda {

// SPEC §4, restrict mode: every integer sample interpolated lies inside Wp x Hp (as
// xme::reference::halfpel_candidate_valid, with mv in quarter units).
__device__ __forceinline__ bool halfpel_valid(const SearchJob& job, int x, int y, int mvx, int mvy) {
    if (!job.restrict_border) return true;
    const int b = job.block_size;
    const int x_low = x + (mvx >= 0 ? mvx / 4 : -((-mvx + 3) / 4));
    const int y_low = y + (mvy >= 0 ? mvy / 4 : -((-mvy + 3) / 4));
    const int x_high = x_low + (mvx % 4 != 0 ? 1 : 0);
    const int y_high = y_low + (mvy % 4 != 0 ? 1 : 0);
    const int last_x = job.layout.padded_width - b;
    const int last_y = job.layout.padded_height - b;
    return x_low >= 0 && x_low <= last_x && y_low >= 0 && y_low <= last_y && x_high >= 0 &&
           x_high <= last_x && y_high >= 0 && y_high <= last_y;
}

// Adds one pixel's |4 cur - 4 interp| for the nine positions (sx, sy) to sums[(sy + 1) * 3 + sx + 1]:
// `window` holds the integer samples around the pixel's match, window[1][1] the match itself. Position
// (sx, sy) averages columns min(sx,0)..max(sx,0) and rows min(sy,0)..max(sy,0) of the window (a sample
// counts twice on an axis that is not at a half position): 4 * interp.
__device__ __forceinline__ void add_half_pel_costs(int current4, const int (&window)[3][3],
                                                   std::uint32_t* sums) {
#pragma unroll
    for (int sy = -1; sy <= 1; ++sy) {
#pragma unroll
        for (int sx = -1; sx <= 1; ++sx) {
            const int r0 = (sy < 0 ? sy : 0) + 1, r1 = (sy > 0 ? sy : 0) + 1;
            const int c0 = (sx < 0 ? sx : 0) + 1, c1 = (sx > 0 ? sx : 0) + 1;
            const int four_interp = window[r0][c0] + window[r0][c1] + window[r1][c0] + window[r1][c1];
            sums[(sy + 1) * 3 + sx + 1] += static_cast<std::uint32_t>(abs(current4 - four_interp));
        }
    }
}

// sums[(sy + 1) * 3 + sx + 1] is cost4 of position (sx, sy) around the integer vector (cx, cy): the key of
// the best valid position.
__device__ __forceinline__ std::uint64_t best_position(const SearchJob& job, int x, int y, int cx, int cy,
                                                       const std::uint32_t* sums) {
    std::uint64_t best = ~std::uint64_t{0};
#pragma unroll
    for (int n = 0; n < 9; ++n) {
        const int hx = 2 * cx + n % 3 - 1;  // half-pel units
        const int hy = 2 * cy + n / 3 - 1;
        if (!halfpel_valid(job, x, y, 2 * hx, 2 * hy)) continue;
        const std::uint64_t key = pack_search_key(sums[n], hx, hy);
        best = key < best ? key : best;
    }
    return best;
}

// The integer winner (cx, cy), in integer pel, of the block the refinement starts from.
__device__ __forceinline__ Vector integer_winner(const SearchJob& job, int block) {
    if (job.rate.active) {
        const MotionRecord r = job.records[block];
        return {r.mv_x / 4, r.mv_y / 4};
    }
    const std::uint64_t key = job.keys[block];
    return {key_half_x(key) / 2, key_half_y(key) / 2};  // half units are even
}

// SPEC §4 with §8's rate term: the best valid position's record (J = cost4 + 4 lambda R(mv - p)).
// `integer` keeps its candidate count: the refinement's are not counted (SPEC §7).
__device__ __forceinline__ MotionRecord best_rate_position(const SearchJob& job, int x, int y, int cx, int cy,
                                                           const std::uint32_t* sums, Vector p,
                                                           std::uint32_t candidates) {
    RateKey best;
#pragma unroll
    for (int n = 0; n < 9; ++n) {
        const int mvx = 2 * (2 * cx + n % 3 - 1);  // quarter units
        const int mvy = 2 * (2 * cy + n / 3 - 1);
        if (n != 4 && !halfpel_valid(job, x, y, mvx, mvy)) continue;
        const RateKey key = rate_key(sums[n], 4 * job.rate.lambda, mvx, mvy, p);
        if (key < best) best = key;
    }
    return {static_cast<std::int16_t>(best.x), static_cast<std::int16_t>(best.y), best.cost, candidates};
}

// Writes the refined result of a block whose predictor is not spatial (the wavefront kernel refines
// those itself): the packed key, or the record when the chain has a rate term.
__device__ __forceinline__ void store_refined(const SearchJob& job, int block, int x, int y, int cx, int cy,
                                              const std::uint32_t* sums) {
    if (job.rate.active) {
        job.records[block] = best_rate_position(job, x, y, cx, cy, sums, temporal_predictor(job.rate, block),
                                                job.records[block].candidates);
    } else {
        job.keys[block] = best_position(job, x, y, cx, cy, sums);
    }
}

}  // namespace xme::cuda
