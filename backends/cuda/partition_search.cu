// SPEC §9's kernels (the per-thread work is in partition_search.cuh): one CUDA block per macroblock.
//
// fast: each thread's 41 least keys are reduced by a warp min per partition (one redux.sync on sm_80+)
// and a shared atomicMin per warp; 002: 002's binary reduction over the threads in shared memory.
// Then 41 threads decode one partition each and thread 0 takes the mode decision. With +qpel a second
// kernel refines the 41 partitions (4 warps per macroblock, partition_qpel.cuh) and decides again.
#include "partition_decide.cuh"
#include "partition_qpel.cuh"
#include "partition_search.hpp"

namespace xme::cuda {
namespace {

constexpr int kFastThreads = 128;
constexpr int kPositionsThreads = 128;
constexpr int kQpelWarps = 4;

__device__ __forceinline__ std::uint32_t warp_min32(std::uint32_t key) {
#if __CUDA_ARCH__ >= 800
    return __reduce_min_sync(0xFFFFFFFFu, key);
#else
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) key = min(key, __shfl_xor_sync(0xFFFFFFFFu, key, offset));
    return key;
#endif
}

// The reduced keys to the macroblock's record (bests[41] in shared memory, complete).
__device__ __forceinline__ void finish(const SearchJob& job, const p41::Tables& t, int mb,
                                       const std::uint32_t* bests, p41::PartitionRecord* records) {
    __shared__ p41::PartitionRecord record;
    const int i = static_cast<int>(threadIdx.x);
    if (i < p41::kPartitions) record.partitions[i] = p41::partition_record(job, t, mb, bests[i]);
    __syncthreads();
    if (i == 0) {
        p41::decide_mode(record);
        records[mb].modes = record.modes;
        records[mb].unused = 0;
        records[mb].cost = record.cost;
    }
    if (i < p41::kPartitions) records[mb].partitions[i] = record.partitions[i];
}

// kCentred: the window centred on the predictor (reads clamped to the margins, maybe empty).
template <bool kCentred>
__global__ void __launch_bounds__(kFastThreads)
    partitions_fast_kernel(SearchJob job, p41::Tables t, p41::PartitionRecord* records) {
    __shared__ std::uint32_t bests[p41::kPartitions];
    const int mb = static_cast<int>(blockIdx.x);
    if (threadIdx.x < p41::kPartitions) bests[threadIdx.x] = p41::kNoBest;
    __syncthreads();
    std::uint32_t best[p41::kPartitions];
    p41::fast_thread_bests<kCentred>(job, t, mb, static_cast<int>(threadIdx.x), kFastThreads, best);
#pragma unroll
    for (int i = 0; i < p41::kPartitions; ++i) {
        const std::uint32_t least = warp_min32(best[i]);
        if (threadIdx.x % 32 == 0) atomicMin(bests + i, least);
    }
    __syncthreads();
    finish(job, t, mb, bests, records);
}

template <bool kCentred>
__global__ void __launch_bounds__(kPositionsThreads)
    partitions_002_kernel(SearchJob job, p41::Tables t, p41::PartitionRecord* records) {
    __shared__ std::uint32_t keys[p41::kPartitions][kPositionsThreads];
    const int mb = static_cast<int>(blockIdx.x);
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
    __shared__ std::uint32_t bests[p41::kPartitions];
    if (thread < p41::kPartitions) bests[thread] = keys[thread][0];
    __syncthreads();
    finish(job, t, mb, bests, records);
}

__global__ void __launch_bounds__(32 * kQpelWarps)
    partitions_qpel_kernel(SearchJob job, p41::Tables t, int lambda, p41::PartitionRecord* records) {
    __shared__ p41::QpelScratch scratch[kQpelWarps];
    __shared__ p41::PartitionRecord record;
    const int mb = static_cast<int>(blockIdx.x);
    const int w = static_cast<int>(threadIdx.x) / 32;
    qpel::DeviceWarp warp;
    int px, py;
    p41::predictor_of(t, mb, px, py);
    for (int i = w; i < p41::kPartitions; i += kQpelWarps) {
        const MotionRecord integer = records[mb].partitions[i];  // every lane reads it before lane 0 writes
        const MotionRecord refined =
            p41::refine_partition(warp, scratch[w], job, mb, i, integer, px, py, lambda);
        if (warp.lane() == 0) record.partitions[i] = refined;
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

bool usable(const SearchJob& job) {
    return job.block_size == 16 && job.reference_words != nullptr && job.blocks_x > 0 && job.blocks_y > 0;
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

cudaError_t launch_partitions_002(const SearchJob& job, const p41::Tables& tables,
                                  p41::PartitionRecord* records, cudaStream_t stream) {
    if (!usable(job)) return cudaErrorInvalidValue;
    const auto grid = static_cast<unsigned>(job.blocks_x * job.blocks_y);
    if (tables.centred) {
        partitions_002_kernel<true><<<grid, kPositionsThreads, 0, stream>>>(job, tables, records);
    } else {
        partitions_002_kernel<false><<<grid, kPositionsThreads, 0, stream>>>(job, tables, records);
    }
    return cudaGetLastError();
}

cudaError_t launch_partitions_qpel(const SearchJob& job, const p41::Tables& tables, int lambda,
                                   p41::PartitionRecord* records, cudaStream_t stream) {
    const FrameLayout& f = job.layout;
    if (!usable(job) || lambda < 0 || lambda > qpel::kMaxLambda || f.margin_x % 4 != 0 || f.margin_x < 4 ||
        f.margin_y < 4) {
        return cudaErrorInvalidValue;
    }
    partitions_qpel_kernel<<<static_cast<unsigned>(job.blocks_x * job.blocks_y), 32 * kQpelWarps, 0,
                             stream>>>(job, tables, lambda, records);
    return cudaGetLastError();
}

}  // namespace xme::cuda
