// SPEC §8 in device code: the predictors, the window around a centre and the fast kernel's row terms
// (rate_key.cuh has the se(v) lengths and the key that picks the best). Shared by the rate-constrained
// kernels (rate_search_block.cu, rate_fast_support.cu, the refinements).
#pragma once

#include <cstdint>

#include "device_common.cuh"
#include "rate_key.cuh"
#include "spatial_median.cuh"

namespace xme::cuda {

// The temporal predictor, or p = 0 (no predictor, or the first pair of a segment).
__device__ __forceinline__ Vector temporal_predictor(const RateTerm& rate, int block) {
    if (rate.temporal_keys != nullptr) {  // the previous pair's fast rate keys (rate_key.cuh)
        const std::uint64_t key = rate.temporal_keys[block];
        if (key == no_fast_rate_key) return {};
        return {4 * fast_rate_key_dx(key, rate.key_range), 4 * fast_rate_key_dy(key, rate.key_range)};
    }
    if (rate.temporal == nullptr) return {};
    const MotionRecord r = rate.temporal[block];
    return {r.mv_x, r.mv_y};
}

// SPEC §8's spatial median over final vectors of this frame (records of blocks above and left, which
// the caller has waited for: spatial_median.cuh).
__device__ __forceinline__ Vector spatial_predictor(const MotionRecord* records, int blocks_x, int bx,
                                                    int by) {
    const MedianVector p = spatial_median(reinterpret_cast<const std::uint8_t*>(records),
                                          sizeof(MotionRecord), blocks_x, bx, by);
    return {p.x, p.y};
}

// The order of a column's candidates (dx fixed) by SPEC §8's key without J: (|4 dy - py|, dy). Around
// py = 4q + f the rows alternate sides: for f = 0 (or f = 3, around q + 1) the nearer row first and, on
// a tie, the lower one: q, q-1, q+1, q-2, ...; for f = 1 or 2: q, q+1, q-1, q+2, ...
struct RowOrder {
    int centre;
    bool lower_first;
};

__device__ __forceinline__ RowOrder row_order(int py) {
    const int q = py >> 2;  // floor(py / 4)
    const int f = py & 3;
    return {f == 3 ? q + 1 : q, f == 0 || f == 3};
}

__device__ __forceinline__ std::uint32_t rate_rank_of_row(int dy, int py) {
    const RowOrder o = row_order(py);
    const int d = dy - o.centre;
    if (o.lower_first) return static_cast<std::uint32_t>(d < 0 ? -2 * d - 1 : 2 * d);
    return static_cast<std::uint32_t>(d > 0 ? 2 * d - 1 : -2 * d);
}

__device__ __forceinline__ int rate_row_of_rank(int rank, int py) {
    const RowOrder o = row_order(py);
    const bool odd = (rank & 1) != 0;
    if (o.lower_first) return o.centre + (odd ? -((rank + 1) >> 1) : rank >> 1);
    return o.centre + (odd ? (rank + 1) >> 1 : -(rank >> 1));
}

// The fast kernel's row term of block `block` at row dy: (lambda * bits(4 dy - py)) << rank_bits | rank,
// or bit 31 alone outside the block's window (then J of a valid row stays below 2^31: fast_rate_fits).
__device__ __forceinline__ std::uint32_t rate_row_term(const SearchJob& job, int block, int dy,
                                                       int rank_bits) {
    const int x = (block % job.blocks_x) * job.block_size;
    const int y = (block / job.blocks_x) * job.block_size;
    const Window w = candidate_window(job, x, y);
    if (dy < w.low_y || dy > w.high_y) return 0x80000000u;
    const int py = temporal_predictor(job.rate, block).y;
    const auto bits = static_cast<std::uint32_t>(se_bits(4 * dy - py));
    return (static_cast<std::uint32_t>(job.rate.lambda) * bits) << rank_bits | rate_rank_of_row(dy, py);
}

__device__ __forceinline__ RateKey shfl_xor(const RateKey& k, int offset) {
    return {__shfl_xor_sync(0xffffffffu, k.cost, offset), __shfl_xor_sync(0xffffffffu, k.distance, offset),
            __shfl_xor_sync(0xffffffffu, k.y, offset), __shfl_xor_sync(0xffffffffu, k.x, offset)};
}

// The least key over a warp; every lane gets it.
__device__ __forceinline__ RateKey warp_min(RateKey key) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        const RateKey other = shfl_xor(key, offset);
        if (other < key) key = other;
    }
    return key;
}

// SPEC §8's wavefront (rate_search_block.cu, walk_search_kernel.cuh): rows_done[row] counts
// the blocks of that row that are final. One thread of the row's walker waits before block bx until the
// row above has finished its block above-right (or the row's last block).
__device__ __forceinline__ void wait_for_row_above(int* rows_done, int by, int bx, int blocks_x) {
    if (by == 0) return;
    const int needed = min(bx + 2, blocks_x);
    while (atomicAdd(rows_done + by - 1, 0) < needed) __nanosleep(64);
    __threadfence();
}

// Writes block (bx, by)'s final record and then, visibly after it, marks the block done.
__device__ __forceinline__ void publish_final(const SearchJob& job, int bx, int by,
                                              const MotionRecord& record) {
    job.records[by * job.blocks_x + bx] = record;
    __threadfence();
    atomicExch(job.rate.wavefront + by, bx + 1);
}

// The integer candidates of SPEC §2/§8 around centre c: the window c + [-R, R]^2 intersected with the
// restrict bounds (an empty rectangle when they miss each other; the zero vector is then the result).
__device__ __forceinline__ Window centred_window(const SearchJob& job, int x, int y, Vector c) {
    const int r = job.range;
    Window w{c.x - r, c.x + r, c.y - r, c.y + r};
    if (!job.restrict_border) return w;
    const int b = job.block_size;
    w.low_x = max(w.low_x, -x);
    w.high_x = min(w.high_x, job.layout.padded_width - b - x);
    w.low_y = max(w.low_y, -y);
    w.high_y = min(w.high_y, job.layout.padded_height - b - y);
    return w;
}

// Candidates a window holds (SPEC §7's count); an empty one counts the zero vector evaluated instead.
__device__ __forceinline__ std::uint32_t window_candidates(const Window& w) {
    if (w.low_x > w.high_x || w.low_y > w.high_y) return 1;
    return static_cast<std::uint32_t>(w.high_x - w.low_x + 1) *
           static_cast<std::uint32_t>(w.high_y - w.low_y + 1);
}

// The fast kernel's winner of `block` (rate_key.cuh's packed key) as a record: the vector in quarter
// units, J and the window's candidate count; {0, 0, 0, 0} where the block got no key. For
// rate_records_kernel and for the refinements that read the keys themselves (the quarter-pel pass).
__device__ __forceinline__ MotionRecord record_of_fast_key(const SearchJob& job, int block) {
    const std::uint64_t key = job.keys[block];
    if (key == no_fast_rate_key) return {0, 0, 0, 0};
    const int x = (block % job.blocks_x) * job.block_size;
    const int y = (block / job.blocks_x) * job.block_size;
    MotionRecord record = motion_of_fast_rate_key<MotionRecord>(key, job.range);
    record.candidates = window_candidates(candidate_window(job, x, y));
    return record;
}

}  // namespace xme::cuda
