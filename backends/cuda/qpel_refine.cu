// The standalone quarter-pel pass (SPEC §10): one warp per image block, refine_qpel_warp on the
// block's integer winner (its record, or the fast search's key), the result written to its record.
#include <cstdint>

#include "qpel_refine.cuh"
#include "qpel_refine.hpp"
#include "rate_common.cuh"
#include "xme/search_key.hpp"

namespace xme::cuda {
namespace {

constexpr int kWarps = qpel::kMaxWarpsPerBlock;
constexpr int kThreads = 32 * kWarps;

// Where a block's integer winner comes from: its record, or a fast search's key decoded here rather than
// by a keys-to-records kernel of its own (one launch less per frame): the rate kernel's (rate_common.cuh)
// or the plain kernel's (xme/search_key.hpp).
enum class Winner { record, rate_key, plain_key };

__device__ __forceinline__ MotionRecord record_of_plain_key(const SearchJob& job, int block) {
    const int x = (block % job.blocks_x) * job.block_size;
    const int y = (block / job.blocks_x) * job.block_size;
    MotionRecord record = motion_of_search_key<MotionRecord>(job.keys[block]);
    record.candidates = window_candidates(candidate_window(job, x, y));
    return record;
}

template <Winner W>
__device__ __forceinline__ MotionRecord integer_winner_of(const SearchJob& job, int block) {
    if constexpr (W == Winner::rate_key) return record_of_fast_key(job, block);
    if constexpr (W == Winner::plain_key) return record_of_plain_key(job, block);
    return job.records[block];
}

template <int B, Winner W>
__global__ void __launch_bounds__(kThreads) qpel_refine_kernel(SearchJob job) {
    const int block = static_cast<int>(blockIdx.x) * kWarps + static_cast<int>(threadIdx.x) / 32;
    if (block >= job.blocks_x * job.blocks_y) return;  // whole warps: the rest stay converged
    const int x = (block % job.blocks_x) * B;
    const int y = (block / job.blocks_x) * B;
    const MotionRecord integer = integer_winner_of<W>(job, block);
    const Vector p = temporal_predictor(job.rate, block);
    const MotionRecord refined = qpel::refine_qpel_warp<B>(job, x, y, integer, p.x, p.y, job.rate.lambda);
    if (threadIdx.x % 32 == 0) job.records[block] = refined;  // every lane read the record before the call
}

bool word_aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 4 == 0; }

template <Winner W>
cudaError_t launch(const SearchJob& job, cudaStream_t stream) {
    const FrameLayout& f = job.layout;
    if (job.rate.lambda < 0 || job.rate.lambda > qpel::kMaxLambda || !word_aligned(job.reference) ||
        !word_aligned(job.current) || f.pitch % 4 != 0 || f.margin_x % 4 != 0 || f.margin_x < 4 ||
        f.margin_y < 4) {
        return cudaErrorInvalidValue;
    }
    const int blocks = job.blocks_x * job.blocks_y;
    if (blocks == 0) return cudaSuccess;
    const unsigned grid = static_cast<unsigned>((blocks + kWarps - 1) / kWarps);
    switch (job.block_size) {
        case 4:
            qpel_refine_kernel<4, W><<<grid, kThreads, 0, stream>>>(job);
            break;
        case 8:
            qpel_refine_kernel<8, W><<<grid, kThreads, 0, stream>>>(job);
            break;
        case 16:
            qpel_refine_kernel<16, W><<<grid, kThreads, 0, stream>>>(job);
            break;
        case 32:
            qpel_refine_kernel<32, W><<<grid, kThreads, 0, stream>>>(job);
            break;
        default:
            return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_qpel_refine(const SearchJob& job, cudaStream_t stream) {
    return launch<Winner::record>(job, stream);
}

cudaError_t launch_qpel_refine_keys(const SearchJob& job, cudaStream_t stream) {
    return launch<Winner::rate_key>(job, stream);
}

cudaError_t launch_qpel_refine_plain_keys(const SearchJob& job, cudaStream_t stream) {
    return launch<Winner::plain_key>(job, stream);
}

}  // namespace xme::cuda
