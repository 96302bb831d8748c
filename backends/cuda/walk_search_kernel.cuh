// SPEC §11's fast searches on CUDA: one warp per image block. A fast search is a short, divergent walk
// (a few candidates per step, each step depending on the last), so the warp walks one block and spends
// its lanes inside each step (fast_walk.cuh): the block's words sit in the warp's slot of shared memory,
// a step's candidates are costed side by side, one lane group each. The walk is the reference's step for
// step, so vectors, costs and evaluated counts are identical. The refinement (§4 or §10) follows in the
// same warp. The spatial predictor and SPEC §8's predictor set (umh) turn the grid into a wavefront: one
// warp per row of blocks, two blocks behind the row above (rate_search_block.cu says why no deadlock). Each
// search's walk is searches/IDENTIFIER.cuh; CMake makes one .cu of each (XME_CUDA_SEARCH_LAUNCHER), so that
// they compile in parallel, and the table of search kernels (search_kernels.cpp) lists their launchers.
#pragma once

#include "fast_walk.cuh"
#include "hpel_common.cuh"
#include "qpel_refine.cuh"
#include "rate_fast.hpp"

namespace xme::cuda {
namespace walk_search {

constexpr int kWarps = 4;  // warps per CUDA block

// SPEC §4 in one warp, the lanes over the block's pixels.
template <int B>
__device__ MotionRecord warp_half_pel(const SearchJob& job, int lane, int x, int y, MotionRecord integer,
                                      Vector p) {
    const int cx = integer.mv_x / 4;
    const int cy = integer.mv_y / 4;
    std::uint32_t sums[9] = {};
    for (int k = lane; k < B * B; k += 32) {
        const int px = x + k % B;
        const int py = y + k / B;
        const int current4 = 4 * int{job.current[static_cast<std::ptrdiff_t>(py) * job.layout.pitch + px]};
        int s[3][3];
#pragma unroll
        for (int r = 0; r < 3; ++r) {
#pragma unroll
            for (int q = 0; q < 3; ++q) s[r][q] = reference_pel(job, px + cx + q - 1, py + cy + r - 1);
        }
        add_half_pel_costs(current4, s, sums);
    }
    qpel::DeviceWarp warp;
#pragma unroll
    for (int n = 0; n < 9; ++n) sums[n] = walk::group_sum(warp, sums[n], 32);
    return best_rate_position(job, x, y, cx, cy, sums, p, integer.candidates);
}

template <int B, Refinement R, class W>
__device__ MotionRecord search_block(const SearchJob& job, int lane, int bx, int by, Vector p,
                                     const PredictorSet& set) {
    const int x = bx * B;
    const int y = by * B;
    __shared__ std::uint32_t current[kWarps][32 * 32 / 4];
    std::uint32_t* words = current[threadIdx.x / 32];
    for (int k = lane; k < walk::BlockCost<B>::kWords; k += 32) {
        words[k] = *reinterpret_cast<const std::uint32_t*>(
            job.current + static_cast<std::ptrdiff_t>(y + k / (B / 4)) * job.layout.pitch + x +
            4 * (k % (B / 4)));
    }
    __syncwarp();
    qpel::DeviceWarp warp;
    const walk::BlockCost<B> cost{job, words, x, y};
    const Vector c = job.rate.centre_on_predictor ? Vector{round_quarter(p.x), round_quarter(p.y)} : Vector{};
    walk::Tracker<qpel::DeviceWarp, walk::BlockCost<B>> t{
        warp, cost, walk::block_bounds(job, x, y, c), job.rate.lambda, p, RateKey{}, Vector{}, 0};
    const std::uint32_t above = W::run(warp, t, job, x, y, set);  // ehds: the candidates of its levels 2, 1
    const MotionRecord integer{static_cast<std::int16_t>(4 * t.best_pel.x),
                               static_cast<std::int16_t>(4 * t.best_pel.y), t.best.cost, t.evaluated + above};
    if constexpr (R == Refinement::half) return warp_half_pel<B>(job, lane, x, y, integer, p);
    if constexpr (R == Refinement::quarter)
        return qpel::refine_qpel_warp<B, kWarps>(job, x, y, integer, p.x, p.y, job.rate.lambda);
    return integer;
}

// The refinement is a template argument: a chain without the quarter-pel refinement then has none of
// its registers or shared scratch (80 registers and 17 KB per CUDA block held hex to 37.5% occupancy).
template <int B, Refinement R, SearchMethod S>
__global__ void __launch_bounds__(32 * kWarps) walk_search_kernel(SearchJob job) {
    using W = walk::Walk<S>;
    const int lane = static_cast<int>(threadIdx.x) & 31;
    const int warp = static_cast<int>(threadIdx.x) / 32;
    if (!job.rate.wavefront_order) {  // then no predictor set either (RateTerm)
        const int block = static_cast<int>(blockIdx.x) * kWarps + warp;
        if (block >= job.blocks_x * job.blocks_y) return;  // the whole warp leaves together
        const MotionRecord record =
            search_block<B, R, W>(job, lane, block % job.blocks_x, block / job.blocks_x,
                                  temporal_predictor(job.rate, block), PredictorSet{});
        if (lane == 0) job.records[block] = record;
        return;
    }
    int by = 0;
    if (lane == 0) by = atomicAdd(job.rate.wavefront + job.blocks_y, 1);  // the row ticket
    by = __shfl_sync(0xffffffffu, by, 0);
    if (by >= job.blocks_y) return;
    for (int bx = 0; bx < job.blocks_x; ++bx) {
        if (lane == 0) wait_for_row_above(job.rate.wavefront, by, bx, job.blocks_x);
        __syncwarp();
        const Vector p = job.rate.spatial ? spatial_predictor(job.records, job.blocks_x, bx, by)
                                          : temporal_predictor(job.rate, by * job.blocks_x + bx);
        // Only the kernels of a search that reads the set (search_methods.def) carry its code and registers.
        PredictorSet set{};
        if constexpr (has(search_needs(S), Need::predictor_set))
            set = block_predictor_set(job.records, job.blocks_x, bx, by, job.rate.previous);
        const MotionRecord record = search_block<B, R, W>(job, lane, bx, by, p, set);
        if (lane == 0) publish_final(job, bx, by, record);
        __syncwarp();
    }
}

template <int B, SearchMethod S>
cudaError_t launch_sized(const SearchJob& job, Refinement refinement, unsigned grid, cudaStream_t stream) {
    switch (refinement) {
        case Refinement::none:
            walk_search_kernel<B, Refinement::none, S><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        case Refinement::half:
            walk_search_kernel<B, Refinement::half, S><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
        case Refinement::quarter:
            walk_search_kernel<B, Refinement::quarter, S><<<grid, 32 * kWarps, 0, stream>>>(job);
            break;
    }
    return cudaGetLastError();
}

// Every block size of search S's walk from its smallest (search_methods.def's min_block, which
// SearchParams::validate requires).
template <SearchMethod S>
cudaError_t launch_walk(const SearchJob& job, Refinement refinement, cudaStream_t stream) {
    const int units = job.rate.wavefront_order ? job.blocks_y : job.blocks_x * job.blocks_y;
    const auto grid = static_cast<unsigned>((units + kWarps - 1) / kWarps);
    switch (job.block_size) {
        case 4:
            if constexpr (min_block_size(S) > 4)
                return cudaErrorInvalidValue;
            else
                return launch_sized<4, S>(job, refinement, grid, stream);
        case 8:
            return launch_sized<8, S>(job, refinement, grid, stream);
        case 16:
            return launch_sized<16, S>(job, refinement, grid, stream);
        default:
            return launch_sized<32, S>(job, refinement, grid, stream);
    }
}

}  // namespace walk_search
}  // namespace xme::cuda

// The launcher of searches/IDENTIFIER.cuh's walk, which the table of search kernels lists
// (search_kernels.cpp); one generated .cu per search expands it.
#define XME_CUDA_SEARCH_LAUNCHER(identifier)                                                \
    namespace xme::cuda {                                                                   \
    cudaError_t launch_search_##identifier(const SearchJob& job, Refinement refinement,     \
                                           cudaStream_t stream) {                           \
        return walk_search::launch_walk<SearchMethod::identifier>(job, refinement, stream); \
    }                                                                                       \
    }
