// SPEC §11's `dia` and `hex` on CUDA: one warp per image block. A fast search is a short, divergent
// walk (a few candidates per step, each step depending on the last), so the warp walks one block and
// spends its lanes inside each candidate: the block's words are spread over the lanes (held in
// registers for the whole walk), each candidate's SAD is one word or a few per lane and a warp sum.
// The walk is the reference's (engine/src/reference/*_search.cpp, integer_candidates.cpp) step for
// step, with the same candidate tracker, so vectors, costs and evaluated counts are identical. The
// refinement (§4 or §10) follows in the same warp. The spatial predictor turns the grid into a
// wavefront: one warp per row of blocks, two blocks behind the row above (rate_search_block.cu says
// why no deadlock).
#include "hpel_common.cuh"
#include "qpel_refine.cuh"
#include "rate_fast.hpp"

namespace xme::cuda {
namespace {

constexpr int kWarps = 4;  // warps per CUDA block

// The block's words (4 pixels each, row-major), in the warp's slot of shared memory: every lane group
// reads all of them.
template <int B>
struct WarpBlock {
    static constexpr int kWords = B * B / 4;
    const std::uint32_t* current;
};

__device__ __forceinline__ std::uint32_t warp_sum(std::uint32_t v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// The reference's 4 bytes at (x .. x+3, y), SPEC §1's replication beyond the stored margin.
__device__ __forceinline__ std::uint32_t clamped_word(const SearchJob& job, int x, int y) {
    std::uint32_t word = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) word |= static_cast<std::uint32_t>(reference_pel(job, x + i, y)) << (8 * i);
    return word;
}

// The SAD of displacement (dx, dy) by a group of `lanes` lanes (a power of two; `sub` the lane's place in
// it): each lane sums every lanes-th word, then the group adds its lanes.
template <int B>
__device__ std::uint32_t group_sad(const SearchJob& job, const WarpBlock<B>& block, int sub, int lanes, int x,
                                   int y, int dx, int dy) {
    constexpr int words = B / 4;
    const FrameLayout& f = job.layout;
    const int left = x + dx;
    const int top = y + dy;
    const bool stored = stored_region(f).holds(left, top, B);
    std::uint32_t sad = 0;
    for (int k = sub; k < WarpBlock<B>::kWords; k += lanes) {
        const int j = k / words;
        const int column = left + 4 * (k % words);
        const std::uint32_t ref =
            stored ? __ldg(job.reference_words + static_cast<std::ptrdiff_t>(top + j) * f.pitch + column)
                   : clamped_word(job, column, top + j);
        sad = sad4(block.current[k], ref, sad);
    }
    for (int offset = lanes / 2; offset > 0; offset >>= 1) sad += __shfl_xor_sync(0xffffffffu, sad, offset);
    return sad;
}

// The reference's IntegerCandidateTracker, warp-uniform: every lane holds the same state. A step's
// candidates are costed side by side, one lane group each; the step then keeps the least key, which is
// what considering them one after another gives (keys are unique, "better" is strictly smaller), and
// counts every candidate it evaluated.
template <int B>
struct Tracker {
    const SearchJob& job;
    const WarpBlock<B>& block;
    int lane, x, y;
    Vector p, c;
    RateKey best;
    Vector best_pel;
    std::uint32_t evaluated = 0;

    __device__ bool inside(Vector pel) const {
        if (abs(pel.x - c.x) > job.range || abs(pel.y - c.y) > job.range) return false;
        if ((pel.x == 0 && pel.y == 0) || !job.restrict_border) return true;
        const int b = job.block_size;
        return x + pel.x >= 0 && x + pel.x <= job.layout.padded_width - b && y + pel.y >= 0 &&
               y + pel.y <= job.layout.padded_height - b;
    }

    // Considers centre + offsets[0..count) (count <= 8; checked = false: evaluates them unchecked, the
    // zero-vector fallback); returns whether the best moved.
    __device__ bool step(Vector centre, const int (*offsets)[2], int count, bool checked = true) {
        const int lanes = count <= 2 ? 16 : count <= 4 ? 8 : 4;
        const int group = lane / lanes;
        const int g = min(group, count - 1);  // idle groups repeat the last candidate, uncounted
        const Vector pel{centre.x + offsets[g][0], centre.y + offsets[g][1]};
        const bool valid = !checked || inside(pel);
        const std::uint32_t sad = group_sad<B>(job, block, lane % lanes, lanes, x, y, pel.x, pel.y);
        const bool counts = valid && group < count && lane % lanes == 0;
        evaluated += static_cast<std::uint32_t>(__popc(__ballot_sync(0xffffffffu, counts)));
        const RateKey key = valid ? rate_key(sad, job.rate.lambda, 4 * pel.x, 4 * pel.y, p) : RateKey{};
        const RateKey least = warp_min(key);
        if (!(least < best)) return false;
        best = least;
        best_pel = {least.x / 4, least.y / 4};
        return true;
    }
};

template <int B>
__device__ void walk(Tracker<B>& t, bool hexagon) {
    // SPEC §11's start: round(p / 4), then 0; the zero vector evaluated anyway when neither counts.
    constexpr int kOrigin[1][2] = {{0, 0}};
    const std::uint32_t before = t.evaluated;
    t.step({round_quarter(t.p.x), round_quarter(t.p.y)}, kOrigin, 1);
    t.step({0, 0}, kOrigin, 1);
    if (t.evaluated == before) t.step({0, 0}, kOrigin, 1, false);
    constexpr int kDiamond[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    constexpr int kHexagon[6][2] = {{2, 0}, {-2, 0}, {1, 2}, {-1, 2}, {1, -2}, {-1, -2}};
    constexpr int kSquare[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    for (int moves = 0; moves < t.job.range; ++moves) {
        const bool moved = hexagon ? t.step(t.best_pel, kHexagon, 6) : t.step(t.best_pel, kDiamond, 4);
        if (!moved) break;
    }
    if (hexagon) t.step(t.best_pel, kSquare, 8);  // hex ends with the 8 neighbours of its best, once
}

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
#pragma unroll
    for (int n = 0; n < 9; ++n) sums[n] = warp_sum(sums[n]);
    return best_rate_position(job, x, y, cx, cy, sums, p, integer.candidates);
}

template <int B, Refinement R>
__device__ MotionRecord search_block(const SearchJob& job, int lane, int bx, int by, Vector p, bool hexagon) {
    const int x = bx * B;
    const int y = by * B;
    __shared__ std::uint32_t current[kWarps][32 * 32 / 4];
    std::uint32_t* words = current[threadIdx.x / 32];
    for (int k = lane; k < WarpBlock<B>::kWords; k += 32) {
        words[k] = *reinterpret_cast<const std::uint32_t*>(
            job.current + static_cast<std::ptrdiff_t>(y + k / (B / 4)) * job.layout.pitch + x +
            4 * (k % (B / 4)));
    }
    __syncwarp();
    const WarpBlock<B> block{words};
    Tracker<B> t{job,
                 block,
                 lane,
                 x,
                 y,
                 p,
                 job.rate.centre_on_predictor ? Vector{round_quarter(p.x), round_quarter(p.y)} : Vector{}};
    walk(t, hexagon);
    const MotionRecord integer{static_cast<std::int16_t>(4 * t.best_pel.x),
                               static_cast<std::int16_t>(4 * t.best_pel.y), t.best.cost, t.evaluated};
    if constexpr (R == Refinement::half) return warp_half_pel<B>(job, lane, x, y, integer, p);
    if constexpr (R == Refinement::quarter)
        return qpel::refine_qpel_warp<B, kWarps>(job, x, y, integer, p.x, p.y, job.rate.lambda);
    return integer;
}

// The refinement is a template argument: a chain without the quarter-pel refinement then has none of
// its registers or shared scratch (80 registers and 17 KB per CUDA block held hex to 37.5% occupancy).
template <int B, Refinement R>
__global__ void __launch_bounds__(32 * kWarps) fast_search_kernel(SearchJob job, bool hexagon) {
    const int lane = static_cast<int>(threadIdx.x) & 31;
    const int warp = static_cast<int>(threadIdx.x) / 32;
    if (!job.rate.spatial) {
        const int block = static_cast<int>(blockIdx.x) * kWarps + warp;
        if (block >= job.blocks_x * job.blocks_y) return;  // the whole warp leaves together
        const MotionRecord record = search_block<B, R>(job, lane, block % job.blocks_x, block / job.blocks_x,
                                                       temporal_predictor(job.rate, block), hexagon);
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
        const Vector p = spatial_predictor(job.records, job.blocks_x, bx, by);
        const MotionRecord record = search_block<B, R>(job, lane, bx, by, p, hexagon);
        if (lane == 0) publish_final(job, bx, by, record);
        __syncwarp();
    }
}

template <int B>
cudaError_t launch_sized(const SearchJob& job, bool hexagon, Refinement refinement, unsigned grid,
                         cudaStream_t stream) {
    switch (refinement) {
        case Refinement::none:
            fast_search_kernel<B, Refinement::none><<<grid, 32 * kWarps, 0, stream>>>(job, hexagon);
            break;
        case Refinement::half:
            fast_search_kernel<B, Refinement::half><<<grid, 32 * kWarps, 0, stream>>>(job, hexagon);
            break;
        case Refinement::quarter:
            fast_search_kernel<B, Refinement::quarter><<<grid, 32 * kWarps, 0, stream>>>(job, hexagon);
            break;
    }
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_fast_search(const SearchJob& job, bool hexagon, Refinement refinement,
                               cudaStream_t stream) {
    const int units = job.rate.spatial ? job.blocks_y : job.blocks_x * job.blocks_y;
    const auto grid = static_cast<unsigned>((units + kWarps - 1) / kWarps);
    switch (job.block_size) {
        case 4:
            return launch_sized<4>(job, hexagon, refinement, grid, stream);
        case 8:
            return launch_sized<8>(job, hexagon, refinement, grid, stream);
        case 16:
            return launch_sized<16>(job, hexagon, refinement, grid, stream);
        default:
            return launch_sized<32>(job, hexagon, refinement, grid, stream);
    }
}

}  // namespace xme::cuda
