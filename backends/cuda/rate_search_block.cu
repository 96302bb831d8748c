// The block kernel of the rate-constrained full search (see rate_fast.hpp): one CUDA block of 256
// threads per image block, the threads over the window's candidates (c + [-R, R]^2 with SPEC §2's
// restrict bounds), then the half-pel refinement with the threads over the block's pixels, or It runs
// every fs chain SPEC §8 defines: any predictor, a window centred on it, any lambda; the quarter-pel
// refinement (SPEC §10) by its first warp (qpel_refine.cuh).
//
// The spatial predictor needs the final vectors of the left, top and top-right blocks: one CUDA block
// per row of image blocks walks its row left to right and waits until the row above has finished the
// block above-right (004's wavefront, with rows instead of one launch per anti-diagonal: every row
// works at once, two blocks behind the row above). Rows are handed out by a ticket in launch order,
// so a row only waits for rows already running: no deadlock whatever the number of resident blocks.
#include "hpel_common.cuh"
#include "qpel_refine.cuh"
#include "rate_fast.hpp"

namespace xme::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

template <int B>
struct Shared {
    std::uint32_t current[32 * 32 / 4];  // the block's rows as words (B * B / 4 used)
    RateKey warp_best[kWarps];
    std::uint32_t warp_sums[kWarps][9];
    qpel::Scratch<B> quarter;  // SPEC §10, refined by warp 0
    MotionRecord refined;
    int row;  // spatial: the row this CUDA block walks
};

template <int B>
__device__ std::uint32_t candidate_sad(const SearchJob& job, const Shared<B>& sh, const Stored& s, int x,
                                       int y, int dx, int dy) {
    constexpr int words = B / 4;
    const int left = x + dx;
    const int top = y + dy;
    std::uint32_t sad = 0;
    if (s.holds(left, top, B)) {
        // Word c of an expanded row holds bytes c..c+3: an unaligned run of 4 in one load.
        const std::uint32_t* ref =
            job.reference_words + static_cast<std::ptrdiff_t>(top) * job.layout.pitch + left;
        for (int j = 0; j < B; ++j) {
#pragma unroll
            for (int v = 0; v < words; ++v) sad = sad4(sh.current[j * words + v], __ldg(ref + 4 * v), sad);
            ref += job.layout.pitch;
        }
        return sad;
    }
    for (int j = 0; j < B; ++j) {  // a window centred far outside the frame: clamp every sample
        for (int i = 0; i < B; ++i) {
            const int c = static_cast<int>((sh.current[j * words + i / 4] >> (8 * (i % 4))) & 0xFFu);
            sad += static_cast<std::uint32_t>(abs(c - reference_pel(job, left + i, top + j)));
        }
    }
    return sad;
}

// The least key of the CUDA block; every thread gets it.
template <int B>
__device__ RateKey block_min(Shared<B>& sh, RateKey key) {
    key = warp_min(key);
    const int warp = static_cast<int>(threadIdx.x) / 32;
    if ((threadIdx.x & 31) == 0) sh.warp_best[warp] = key;
    __syncthreads();
    RateKey best = sh.warp_best[0];
#pragma unroll
    for (int w = 1; w < kWarps; ++w) {
        if (sh.warp_best[w] < best) best = sh.warp_best[w];
    }
    __syncthreads();  // warp_best is free again
    return best;
}

// SPEC §4's nine cost4 sums around (cx, cy), the threads over the block's pixels; every thread gets them.
template <int B>
__device__ void half_pel_sums(const SearchJob& job, Shared<B>& sh, int x, int y, int cx, int cy,
                              std::uint32_t* sums) {
#pragma unroll
    for (int n = 0; n < 9; ++n) sums[n] = 0;
    for (int p = static_cast<int>(threadIdx.x); p < B * B; p += kThreads) {
        const int i = p % B;
        const int j = p / B;
        const int current4 = 4 * static_cast<int>((sh.current[j * (B / 4) + i / 4] >> (8 * (i % 4))) & 0xFFu);
        int window[3][3];
#pragma unroll
        for (int r = 0; r < 3; ++r) {
#pragma unroll
            for (int c = 0; c < 3; ++c)
                window[r][c] = reference_pel(job, x + i + cx + c - 1, y + j + cy + r - 1);
        }
        add_half_pel_costs(current4, window, sums);
    }
    const int warp = static_cast<int>(threadIdx.x) / 32;
#pragma unroll
    for (int n = 0; n < 9; ++n) {
#pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1)
            sums[n] += __shfl_xor_sync(0xffffffffu, sums[n], offset);
        if ((threadIdx.x & 31) == 0) sh.warp_sums[warp][n] = sums[n];
    }
    __syncthreads();
#pragma unroll
    for (int n = 0; n < 9; ++n) {
        sums[n] = 0;
#pragma unroll
        for (int w = 0; w < kWarps; ++w) sums[n] += sh.warp_sums[w][n];
    }
    __syncthreads();
}

// One image block: the integer search around its centre and the refinement; returns its record.
template <int B>
__device__ MotionRecord search_one(const SearchJob& job, Shared<B>& sh, int bx, int by, Vector p,
                                   Refinement refinement) {
    const int x = bx * B;
    const int y = by * B;
    const Stored s = stored_region(job.layout);
    constexpr int words = B / 4;
    for (int k = static_cast<int>(threadIdx.x); k < B * words; k += kThreads) {
        const int j = k / words;
        sh.current[k] = *reinterpret_cast<const std::uint32_t*>(
            job.current + static_cast<std::ptrdiff_t>(y + j) * job.layout.pitch + x + 4 * (k % words));
    }
    __syncthreads();

    const Vector c = job.rate.centre_on_predictor ? Vector{round_quarter(p.x), round_quarter(p.y)} : Vector{};
    const Window w = centred_window(job, x, y, c);
    const std::uint32_t candidates = window_candidates(w);
    RateKey best;
    if (w.low_x > w.high_x || w.low_y > w.high_y) {
        // No valid candidate in the window: SPEC §8 takes the zero vector, evaluated.
        if (threadIdx.x == 0)
            best = rate_key(candidate_sad<B>(job, sh, s, x, y, 0, 0), job.rate.lambda, 0, 0, p);
    } else {
        const int across = w.high_x - w.low_x + 1;
        for (int k = static_cast<int>(threadIdx.x); k < static_cast<int>(candidates); k += kThreads) {
            const int dx = w.low_x + k % across;
            const int dy = w.low_y + k / across;
            const RateKey key =
                rate_key(candidate_sad<B>(job, sh, s, x, y, dx, dy), job.rate.lambda, 4 * dx, 4 * dy, p);
            if (key < best) best = key;
        }
    }
    best = block_min(sh, best);
    MotionRecord record{static_cast<std::int16_t>(best.x), static_cast<std::int16_t>(best.y), best.cost,
                        candidates};
    if (refinement == Refinement::half) {
        std::uint32_t sums[9];
        half_pel_sums<B>(job, sh, x, y, best.x / 4, best.y / 4, sums);
        record = best_rate_position(job, x, y, best.x / 4, best.y / 4, sums, p, candidates);
    } else if (refinement == Refinement::quarter) {
        if (threadIdx.x < 32) {
            const MotionRecord refined =
                qpel::refine_qpel_warp<B>(sh.quarter, job, x, y, record, p.x, p.y, job.rate.lambda);
            if (threadIdx.x == 0) sh.refined = refined;
        }
        __syncthreads();
        record = sh.refined;
        __syncthreads();  // sh.refined and the scratch are free again
    }
    return record;
}

template <int B>
__global__ void __launch_bounds__(kThreads) full_search_block_kernel(SearchJob job, Refinement refinement) {
    __shared__ Shared<B> sh;
    if (!job.rate.wavefront_order) {
        const int block = static_cast<int>(blockIdx.x);
        const MotionRecord record = search_one<B>(job, sh, block % job.blocks_x, block / job.blocks_x,
                                                  temporal_predictor(job.rate, block), refinement);
        if (threadIdx.x == 0) job.records[block] = record;
        return;
    }
    if (threadIdx.x == 0) sh.row = atomicAdd(job.rate.wavefront + job.blocks_y, 1);  // the row ticket
    __syncthreads();
    const int by = sh.row;
    for (int bx = 0; bx < job.blocks_x; ++bx) {
        if (threadIdx.x == 0) wait_for_row_above(job.rate.wavefront, by, bx, job.blocks_x);
        __syncthreads();
        const Vector p = job.rate.spatial ? spatial_predictor(job.records, job.blocks_x, bx, by)
                                          : temporal_predictor(job.rate, by * job.blocks_x + bx);
        const MotionRecord record = search_one<B>(job, sh, bx, by, p, refinement);
        if (threadIdx.x == 0) publish_final(job, bx, by, record);
        __syncthreads();
    }
}

}  // namespace

cudaError_t launch_full_search_block(const SearchJob& job, Refinement refinement, cudaStream_t stream) {
    const unsigned grid =
        static_cast<unsigned>(job.rate.wavefront_order ? job.blocks_y : job.blocks_x * job.blocks_y);
    switch (job.block_size) {
        case 4:
            full_search_block_kernel<4><<<grid, kThreads, 0, stream>>>(job, refinement);
            break;
        case 8:
            full_search_block_kernel<8><<<grid, kThreads, 0, stream>>>(job, refinement);
            break;
        case 16:
            full_search_block_kernel<16><<<grid, kThreads, 0, stream>>>(job, refinement);
            break;
        default:
            full_search_block_kernel<32><<<grid, kThreads, 0, stream>>>(job, refinement);
            break;
    }
    return cudaGetLastError();
}

}  // namespace xme::cuda
