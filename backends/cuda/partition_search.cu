// SPEC §9's kernels (the per-thread work is in partition_search.cuh): one CUDA block per macroblock.
//
// fast: each thread's 41 least keys are reduced by a warp min per partition (one redux.sync on sm_80+),
// which lane 0 of its one warp stores (with more warps, a shared atomicMin per warp); positions: a binary
// reduction over the threads in shared memory. Then the threads decode the 41 partitions (a partition
// each, 2 passes for one warp) and thread 0 takes the mode decision. With +qpel a second
// kernel refines the 41 partitions (4 warps per macroblock, partition_qpel.cuh) and decides again.
#include "partition_decide.cuh"
#include "partition_qpel.cuh"
#include "partition_search.hpp"
#include "rate_common.cuh"

namespace xme::cuda {
namespace {

// The fast design: one warp a CTA and 16 CTAs per SM (128 registers a thread), since a candidate's cells
// are kept half by half; the centred kernel, which clamps every read, takes 168 registers and 12 CTAs.
// A CTA of one warp waits at no barrier for another warp's last units (docs/cuda.md, "Partitions").
constexpr int kFastThreads = 32;
constexpr int fast_blocks_per_sm(bool centred) { return centred ? 12 : 16; }
constexpr int kPositionsThreads = 128;
constexpr int kQpelWarps = 4;
// The spatial row walk keeps one CUDA block per row of macroblocks busy (68 at 1080p), so each takes
// more threads: the fast design's 168 registers fit 384 per SM, and 8 refining warps' scratch 48 KB.
constexpr int kSpatialFastThreads = 384;
constexpr int kSpatialQpelWarps = 8;

__device__ __forceinline__ std::uint32_t warp_min32(std::uint32_t key) {
#if __CUDA_ARCH__ >= 800
    return __reduce_min_sync(0xFFFFFFFFu, key);
#else
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) key = min(key, __shfl_xor_sync(0xFFFFFFFFu, key, offset));
    return key;
#endif
}

// The reduced keys to the macroblock's record (bests[41] in shared memory, complete), by a CUDA block of
// kThreads.
template <int kThreads>
__device__ __forceinline__ void finish(const SearchJob& job, const p41::Tables& t, int mb,
                                       const std::uint32_t* bests, p41::PartitionRecord* records) {
    __shared__ p41::PartitionRecord record;
    const int i = static_cast<int>(threadIdx.x);
    // Unrolled passes (one from 41 threads up): as a strided loop, ptxas spilled in the fast kernel.
#pragma unroll
    for (int pass = 0; pass < (p41::kPartitions + kThreads - 1) / kThreads; ++pass) {
        const int k = i + pass * kThreads;
        if (k < p41::kPartitions) record.partitions[k] = p41::partition_record(job, t, mb, bests[k]);
    }
    __syncthreads();
    if (i == 0) {
        p41::decide_mode(record);
        records[mb].modes = record.modes;
        records[mb].unused = 0;
        records[mb].cost = record.cost;
    }
#pragma unroll 1
    for (int k = i; k < p41::kPartitions; k += kThreads) records[mb].partitions[k] = record.partitions[k];
}

// Macroblock mb's 41 least keys into bests (shared, complete after it returns), fast design. kCentred:
// the window centred on the predictor (reads clamped to the margins, maybe empty).
template <bool kCentred, int kThreads>
__device__ __forceinline__ void fast_bests(const SearchJob& job, const p41::Tables& t, int mb,
                                           std::uint32_t* bests) {
    __shared__ __align__(16) std::uint32_t current_rows[64];
    // One warp stores its mins; more merge theirs with shared atomicMin into cleared keys.
    constexpr bool kOneWarp = kThreads == 32;
    if constexpr (!kOneWarp) {
        if (threadIdx.x < p41::kPartitions) bests[threadIdx.x] = p41::kNoBest;
    }
#pragma unroll
    for (int word = static_cast<int>(threadIdx.x); word < 64; word += kThreads)
        p41::current_word(job, mb, word, current_rows);
    __syncthreads();
    std::uint32_t best[p41::kPartitions];
    p41::fast_thread_bests<kCentred>(job, t, mb, static_cast<int>(threadIdx.x), kThreads, current_rows, best);
#pragma unroll
    for (int i = 0; i < p41::kPartitions; ++i) {
        const std::uint32_t least = warp_min32(best[i]);
        if constexpr (kOneWarp) {
            if (threadIdx.x == 0) bests[i] = least;
        } else if (threadIdx.x % 32 == 0) {
            atomicMin(bests + i, least);
        }
    }
    __syncthreads();
}

// The same in the positions design: a binary reduction over the threads in shared memory.
template <bool kCentred>
__device__ __forceinline__ void positions_bests(const SearchJob& job, const p41::Tables& t, int mb,
                                                std::uint32_t* bests) {
    __shared__ std::uint32_t keys[p41::kPartitions][kPositionsThreads];
    const int thread = static_cast<int>(threadIdx.x);
    std::uint32_t best[p41::kPartitions];
    p41::positions_thread_bests<kCentred>(job, t, mb, thread, kPositionsThreads, best);
#pragma unroll
    for (int i = 0; i < p41::kPartitions; ++i) keys[i][thread] = best[i];
    __syncthreads();
    for (int half = kPositionsThreads / 2; half > 0; half >>= 1) {
        if (thread < half) {
#pragma unroll
            for (int i = 0; i < p41::kPartitions; ++i)
                keys[i][thread] = min(keys[i][thread], keys[i][thread + half]);
        }
        __syncthreads();
    }
    if (thread < p41::kPartitions) bests[thread] = keys[thread][0];
    __syncthreads();
}

// kThreads: the CUDA block's (positions design: kPositionsThreads).
template <bool kCentred, bool kPositions, int kThreads>
__device__ __forceinline__ void search_macroblock(const SearchJob& job, const p41::Tables& t, int mb,
                                                  p41::PartitionRecord* records) {
    __shared__ std::uint32_t bests[p41::kPartitions];
    if constexpr (kPositions) {
        static_assert(kThreads == kPositionsThreads);
        positions_bests<kCentred>(job, t, mb, bests);
    } else {
        fast_bests<kCentred, kThreads>(job, t, mb, bests);
    }
    finish<kThreads>(job, t, mb, bests, records);
}

template <bool kCentred>
__global__ void __launch_bounds__(kFastThreads, fast_blocks_per_sm(kCentred))
    partitions_fast_kernel(SearchJob job, p41::Tables t, p41::PartitionRecord* records) {
    search_macroblock<kCentred, false, kFastThreads>(job, t, static_cast<int>(blockIdx.x), records);
}

template <bool kCentred>
__global__ void __launch_bounds__(kPositionsThreads)
    partitions_positions_kernel(SearchJob job, p41::Tables t, p41::PartitionRecord* records) {
    search_macroblock<kCentred, true, kPositionsThreads>(job, t, static_cast<int>(blockIdx.x), records);
}

// SPEC §10 on macroblock mb's 41 integer records (written by this CUDA block or an earlier kernel), then
// the mode decision again: one warp per partition, the first kWarps warps.
template <int kWarps>
__device__ __forceinline__ void refine_macroblock(const SearchJob& job, const p41::Tables& t, int lambda,
                                                  int mb, p41::PartitionRecord* records) {
    __shared__ p41::QpelScratch scratch[kWarps];
    __shared__ p41::PartitionRecord record;
    const int w = static_cast<int>(threadIdx.x) / 32;
    qpel::DeviceWarp warp;
    int px, py;
    p41::predictor_of(t, mb, px, py);
    if (w < kWarps) {  // a larger CUDA block's other warps only wait
        for (int i = w; i < p41::kPartitions; i += kWarps) {
            // Every lane reads it before lane 0 writes.
            const MotionRecord integer = records[mb].partitions[i];
            const MotionRecord refined =
                p41::refine_partition(warp, scratch[w], job, mb, i, integer, px, py, lambda);
            if (warp.lane() == 0) record.partitions[i] = refined;
        }
    }
    __syncthreads();
    const int i = static_cast<int>(threadIdx.x);
    if (i < p41::kPartitions) records[mb].partitions[i] = record.partitions[i];
    if (i == 0) {
        p41::decide_mode(record);
        records[mb].modes = record.modes;
        records[mb].cost = record.cost;
    }
}

__global__ void __launch_bounds__(32 * kQpelWarps)
    partitions_qpel_kernel(SearchJob job, p41::Tables t, int lambda, p41::PartitionRecord* records) {
    refine_macroblock<kQpelWarps>(job, t, lambda, static_cast<int>(blockIdx.x), records);
}

// The spatial predictor (SPEC §8): a macroblock's p is the median of its left, top and top-right
// neighbours' final 16x16 vectors, so one CUDA block per row of macroblocks walks its row left to right,
// each macroblock once the row above has finished the one above-right (rate_search_block.cu's wavefront:
// rows handed out by a ticket in launch order, so a row waits only for rows already running), and
// refines it (+qpel) before it tells the next row, since the final vector is the refined one.
// rows_done: blocks_y + 1 zeroed counters (rate_common.cuh's wait_for_row_above), t.spatial = records.
template <bool kCentred, bool kPositions, int kThreads, int kRefineWarps>
__global__ void __launch_bounds__(kThreads)
    partitions_spatial_kernel(SearchJob job, p41::Tables t, int lambda, bool quarter_pel,
                              p41::PartitionRecord* records, int* rows_done) {
    static_assert(kThreads >= 32 * kRefineWarps);
    __shared__ int row;
    if (threadIdx.x == 0) row = atomicAdd(rows_done + job.blocks_y, 1);
    __syncthreads();
    const int by = row;
    for (int bx = 0; bx < job.blocks_x; ++bx) {
        if (threadIdx.x == 0) wait_for_row_above(rows_done, by, bx, job.blocks_x);
        __syncthreads();
        const int mb = by * job.blocks_x + bx;
        search_macroblock<kCentred, kPositions, kThreads>(job, t, mb, records);
        if (quarter_pel) {
            __syncthreads();  // the integer records are written
            refine_macroblock<kRefineWarps>(job, t, lambda, mb, records);
        }
        __threadfence();  // every thread's part of the record, visibly before the row counter moves
        __syncthreads();
        if (threadIdx.x == 0) atomicExch(rows_done + by, bx + 1);
    }
}

bool usable(const SearchJob& job) {
    return job.block_size == 16 && job.reference_words != nullptr && job.blocks_x > 0 && job.blocks_y > 0;
}

// What SPEC §10's refinement needs: the rate table's lambdas and margins whole words wide.
bool refinable(const SearchJob& job, int lambda) {
    const FrameLayout& f = job.layout;
    return lambda >= 0 && lambda <= qpel::kMaxLambda && f.margin_x % 4 == 0 && f.margin_x >= 4 &&
           f.margin_y >= 4;
}

template <bool kCentred>
void launch_spatial(const SearchJob& job, const p41::Tables& tables, int lambda, bool quarter_pel,
                    bool positions_design, p41::PartitionRecord* records, int* rows_done,
                    cudaStream_t stream) {
    const auto grid = static_cast<unsigned>(job.blocks_y);
    if (positions_design) {
        partitions_spatial_kernel<kCentred, true, kPositionsThreads, kQpelWarps>
            <<<grid, kPositionsThreads, 0, stream>>>(job, tables, lambda, quarter_pel, records, rows_done);
    } else {
        partitions_spatial_kernel<kCentred, false, kSpatialFastThreads, kSpatialQpelWarps>
            <<<grid, kSpatialFastThreads, 0, stream>>>(job, tables, lambda, quarter_pel, records, rows_done);
    }
}

}  // namespace

cudaError_t launch_partitions_fast(const SearchJob& job, const p41::Tables& tables,
                                   p41::PartitionRecord* records, cudaStream_t stream) {
    if (!usable(job)) return cudaErrorInvalidValue;
    const auto grid = static_cast<unsigned>(job.blocks_x * job.blocks_y);
    if (tables.centred) {
        partitions_fast_kernel<true><<<grid, kFastThreads, 0, stream>>>(job, tables, records);
    } else {
        partitions_fast_kernel<false><<<grid, kFastThreads, 0, stream>>>(job, tables, records);
    }
    return cudaGetLastError();
}

cudaError_t launch_partitions_positions(const SearchJob& job, const p41::Tables& tables,
                                  p41::PartitionRecord* records, cudaStream_t stream) {
    if (!usable(job)) return cudaErrorInvalidValue;
    const auto grid = static_cast<unsigned>(job.blocks_x * job.blocks_y);
    if (tables.centred) {
        partitions_positions_kernel<true><<<grid, kPositionsThreads, 0, stream>>>(job, tables, records);
    } else {
        partitions_positions_kernel<false><<<grid, kPositionsThreads, 0, stream>>>(job, tables, records);
    }
    return cudaGetLastError();
}

cudaError_t launch_partitions_qpel(const SearchJob& job, const p41::Tables& tables, int lambda,
                                   p41::PartitionRecord* records, cudaStream_t stream) {
    if (!usable(job) || !refinable(job, lambda)) return cudaErrorInvalidValue;
    partitions_qpel_kernel<<<static_cast<unsigned>(job.blocks_x * job.blocks_y), 32 * kQpelWarps, 0,
                             stream>>>(job, tables, lambda, records);
    return cudaGetLastError();
}

cudaError_t launch_partitions_spatial(const SearchJob& job, const p41::Tables& tables, int lambda,
                                      bool quarter_pel, bool positions_design, p41::PartitionRecord* records,
                                      int* rows_done, cudaStream_t stream) {
    if (!usable(job) || tables.spatial == nullptr || rows_done == nullptr ||
        (quarter_pel && !refinable(job, lambda)))
        return cudaErrorInvalidValue;
    if (tables.centred) {
        launch_spatial<true>(job, tables, lambda, quarter_pel, positions_design, records, rows_done, stream);
    } else {
        launch_spatial<false>(job, tables, lambda, quarter_pel, positions_design, records, rows_done, stream);
    }
    return cudaGetLastError();
}

}  // namespace xme::cuda
