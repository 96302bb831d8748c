// Variant "fast": the integer full search at the rate of the packed SAD instruction.
//
// Work item: one image block, D candidate columns dx0..dx0+D-1 (D = 3 for 4- and 8-pixel blocks, else 1)
// and a group of up to 4 chunks of K consecutive candidate rows (for 32-pixel blocks also one of 4
// slices of 8 columns, so that the block fits in registers). The item's current block lives in
// registers; per chunk, the thread streams the B+K-1 reference rows its candidates share from the
// expanded reference (word c of a row = bytes c..c+3, built once per frame by pad_frame.cu), so every
// unaligned 4-byte run is one aligned load and each loaded word feeds up to K vabsdiff4 instructions.
// The inner loop is nothing but loads and vabsdiff4 with accumulate; per candidate only a multiply-add
// and a min follow, on a 32-bit key SAD << 13 | rank(dy) (dx is fixed per column), whose bit 31 marks
// rows outside the block's window (SPEC §2).
//
// Items are numbered block-major over the whole frame, 128 per CUDA block, so the grid has no idle
// lanes whatever the window size. A warp's items belong to at most a few image blocks: the lanes
// holding each block's least SAD (found with a segmented warp min) publish their packed 64-bit key
// (xme/search_key.hpp) with atomicMin, which resolves ties exactly as SPEC §3 says.
#include <algorithm>

#include "rate_common.cuh"
#include "rate_fast.hpp"

namespace xme::cuda {
namespace {

constexpr int kThreads = 128;
constexpr int kRankBits = 13;  // 2 * max_search_range < 2^13

// n / d for n < 2^31 as a multiply-high (host-computed multiplier, exact for that range).
struct Divider {
    std::uint32_t multiplier = 1;
    std::uint32_t shift = 0;
};

Divider make_divider(std::uint32_t d) {
    std::uint32_t log = 0;
    while ((std::uint64_t{1} << log) < d) ++log;
    const std::uint32_t shift = 31 + log;
    const std::uint64_t power = std::uint64_t{1} << shift;
    return {static_cast<std::uint32_t>((power + d - 1) / d), shift};
}

__device__ __forceinline__ int divide(int n, Divider d) {
    return static_cast<int>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(n)) * d.multiplier) >>
                            d.shift);
}

// SPEC §8's rate term in the same loop (RateTerm active, centre 0, predictor none or temporal): the
// 32-bit key of a column becomes (SAD + lambda R) << rank_bits | rank, with the rate split into a
// column term (dx's bits, once per item) and a per-block row term that the CUDA block first tabulates
// in shared memory for its few image blocks (read instead of dy_ranks), so the inner loop is unchanged: one
// multiply-add and a min per candidate. The row's rank orders a column's candidates by (|4 dy - py|, dy)
// (SPEC §8's key with dx fixed). The winner is published as (J << 32 | tie), tie = (|mv - p|, dy, dx) packed.
struct FastRate {
    bool active = false;
    int rank_bits = kRankBits;
    int row_stride = 0;  // row terms per image block in shared memory
};

struct FastGrid {
    int window_x = 0;      // first candidate column (dx) searched
    int window_width = 0;  // candidate columns
    int window_y = 0;      // first candidate row (dy)
    int chunks = 0;        // chunks of K candidate rows covering the window's height
    int chunks_per_group = 0;
    int items_per_block = 0;
    int items_per_group = 0;
    int first_block = 0;  // this launch: image blocks first_block.. and item_count items
    int item_count = 0;
    Divider per_block;
    Divider per_group;
    Divider per_row;  // image block index -> block row
    FastRate rate;
};

template <int B, int K, int S, int D>
__global__ void __launch_bounds__(kThreads, 4) full_search_fast_kernel(SearchJob job, FastGrid g) {
    static_assert(S == 1 || D == 1, "slices are summed across lanes, columns within a lane");
    constexpr int words = B / 4 / S;  // words of one slice row
    constexpr std::uint32_t kInvalid = 0x80000000u;
    const int lane = static_cast<int>(threadIdx.x) & 31;
    int item = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
    const bool live = item < g.item_count;
    if (!live) item = g.item_count - 1;  // keeps the warp whole for the shuffles; publishes nothing

    const int block_offset = divide(item, g.per_block);
    const int in_block = item - block_offset * g.items_per_block;
    const int block = g.first_block + block_offset;
    const int group = divide(in_block, g.per_group);
    const int in_group = in_block - group * g.items_per_group;
    const int slice = in_group % S;
    const int dx0 = g.window_x + (in_group / S) * D;
    const int by = divide(block, g.per_row);
    const int x = (block - by * job.blocks_x) * B;
    const int y = by * B;
    const int pitch = job.layout.pitch;
    const Window w = candidate_window(job, x, y);

    std::uint32_t current[B][words];
    const std::uint8_t* c = job.current + static_cast<std::ptrdiff_t>(y) * pitch + x + slice * 4 * words;
#pragma unroll
    for (int j = 0; j < B; ++j) {
        const std::uint8_t* row = c + static_cast<std::ptrdiff_t>(j) * pitch;
        if constexpr (words == 4) {
            const uint4 v = __ldg(reinterpret_cast<const uint4*>(row));
            current[j][0] = v.x, current[j][1] = v.y, current[j][2] = v.z, current[j][3] = v.w;
        } else if constexpr (words == 2) {
            const uint2 v = __ldg(reinterpret_cast<const uint2*>(row));
            current[j][0] = v.x, current[j][1] = v.y;
        } else {
            current[j][0] = __ldg(reinterpret_cast<const std::uint32_t*>(row));
        }
    }

    // 32-bit indices from the expanded reference's origin: one multiply-add per row, and the word
    // offsets within a row become immediates of the loads.
    // The rate term's column part (dx's bits, scaled into the key) and the predictor, once per item.
    Vector p;
    std::uint32_t column_terms[D];
    if (g.rate.active) {
        p = temporal_predictor(job.rate, block);
#pragma unroll
        for (int d = 0; d < D; ++d) {
            const auto bits = static_cast<std::uint32_t>(se_bits(4 * (dx0 + d) - p.x));
            column_terms[d] = (static_cast<std::uint32_t>(job.rate.lambda) * bits) << g.rate.rank_bits;
        }
    }
    extern __shared__ std::uint32_t shared_rows[];  // [image block - first_shared][dy + range]
    const std::uint32_t* row_terms = nullptr;
    if (g.rate.active) {  // uniform per launch
        const int cta_item = static_cast<int>(blockIdx.x) * kThreads;
        const int first_shared = g.first_block + divide(cta_item, g.per_block);
        const int last_shared =
            g.first_block + divide(min(cta_item + kThreads, g.item_count) - 1, g.per_block);
        const int entries = (last_shared - first_shared + 1) * g.rate.row_stride;
        for (int i = static_cast<int>(threadIdx.x); i < entries; i += kThreads) {
            const int local = i / g.rate.row_stride;
            shared_rows[i] = rate_row_term(job, first_shared + local,
                                           i - local * g.rate.row_stride - job.range, g.rate.rank_bits);
        }
        __syncthreads();
        row_terms = shared_rows + (block - first_shared) * g.rate.row_stride + job.range;
    }
    const std::uint32_t scale = 1u << g.rate.rank_bits;

    const std::uint32_t* words_origin = job.reference_words;
    const int item_index = y * pitch + x + dx0 + slice * 4 * words;
    std::uint32_t best[D];
#pragma unroll
    for (int d = 0; d < D; ++d) best[d] = ~0u;
    const int first_chunk = group * g.chunks_per_group;
    const int end_chunk = min(first_chunk + g.chunks_per_group, g.chunks);
    for (int chunk = first_chunk; chunk < end_chunk; ++chunk) {
        const int dy0 = g.window_y + chunk * K;
        const int chunk_index = item_index + dy0 * pitch;
        std::uint32_t sums[D][K];
#pragma unroll
        for (int d = 0; d < D; ++d) {
#pragma unroll
            for (int k = 0; k < K; ++k) sums[d][k] = 0;
        }
#pragma unroll
        for (int r = 0; r < B + K - 1; ++r) {
            const int row = chunk_index + r * pitch;
            std::uint32_t ref[D][words];
#pragma unroll
            for (int d = 0; d < D; ++d) {
#pragma unroll
                for (int v = 0; v < words; ++v) ref[d][v] = __ldg(words_origin + row + d + 4 * v);
            }
#pragma unroll
            for (int k = 0; k < K; ++k) {
                const int j = r - k;  // the block row that reference row r meets for candidate dy0 + k
                if (j >= 0 && j < B) {
#pragma unroll
                    for (int d = 0; d < D; ++d) {
#pragma unroll
                        for (int v = 0; v < words; ++v)
                            sums[d][k] = sad4(current[j][v], ref[d][v], sums[d][k]);
                    }
                }
            }
        }
        if constexpr (S > 1) {
#pragma unroll
            for (int k = 0; k < K; ++k) {
                sums[0][k] += __shfl_xor_sync(0xffffffffu, sums[0][k], 1);
                sums[0][k] += __shfl_xor_sync(0xffffffffu, sums[0][k], 2);
            }
        }
        // rank(dy) = 2|dy| - (dy < 0) sorts -a before +a before -(a+1): with dx fixed per column,
        // (SAD, rank) orders a column's candidates as SPEC §3 does. Rows outside the window get bit 31.
        if (g.rate.active) {  // uniform per launch
#pragma unroll
            for (int d = 0; d < D; ++d) {
#pragma unroll
                for (int k = 0; k < K; ++k)
                    best[d] = min(best[d], sums[d][k] * scale + (column_terms[d] + row_terms[dy0 + k]));
            }
            continue;
        }
        std::uint32_t rank[K];
        if (dy0 >= w.low_y && dy0 + K - 1 <= w.high_y) {  // the usual case: a table, no arithmetic
#pragma unroll
            for (int k = 0; k < K; ++k) rank[k] = __ldg(job.dy_ranks + dy0 + k);
        } else {
#pragma unroll
            for (int k = 0; k < K; ++k) {
                const int dy = dy0 + k;
                const std::uint32_t r = static_cast<std::uint32_t>((2 * dy) ^ (dy >> 31));
                rank[k] = dy >= w.low_y && dy <= w.high_y ? r : r | kInvalid;
            }
        }
#pragma unroll
        for (int d = 0; d < D; ++d) {
#pragma unroll
            for (int k = 0; k < K; ++k) best[d] = min(best[d], sums[d][k] * (1u << kRankBits) + rank[k]);
        }
    }

    // The item's best over its columns as a full key; its SAD for the warp's segmented min.
    std::uint64_t key = ~std::uint64_t{0};
    std::uint32_t cost = ~0u;
#pragma unroll
    for (int d = 0; d < D; ++d) {
        const int dx = dx0 + d;
        if (!live || slice != 0 || best[d] >= kInvalid || dx < w.low_x || dx > w.high_x) continue;
        if (g.rate.active) {
            const std::uint32_t j = best[d] >> g.rate.rank_bits;
            const int dy = rate_row_of_rank(static_cast<int>(best[d] & (scale - 1)), p.y);
            const std::uint32_t distance = abs(4 * dx - p.x) + abs(4 * dy - p.y);
            const std::uint64_t candidate = pack_fast_rate_key(j, distance, dx, dy, job.range);
            if (candidate < key) key = candidate, cost = j;
            continue;
        }
        const int rank = static_cast<int>(best[d] & ((1u << kRankBits) - 1));
        const int dy = (rank & 1) != 0 ? -((rank + 1) >> 1) : rank >> 1;
        const std::uint64_t candidate = integer_key(best[d] >> kRankBits, dx, dy);
        if (candidate < key) key = candidate, cost = best[d] >> kRankBits;
    }

    // Segmented min of the SAD over the lanes of each image block (lanes of a block are contiguous):
    // after the scan, each block's first lane holds the least SAD of the block's lanes.
    const unsigned peers = __match_any_sync(0xffffffffu, block);
    std::uint32_t least = cost;
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const std::uint32_t other = __shfl_down_sync(0xffffffffu, least, offset);
        if (lane + offset < 32 && ((peers >> (lane + offset)) & 1u) != 0) least = min(least, other);
    }
    least = __shfl_sync(0xffffffffu, least, __ffs(static_cast<int>(peers)) - 1);
    if (cost != ~0u && cost == least) {
        atomicMin(reinterpret_cast<unsigned long long*>(job.keys + block),
                  static_cast<unsigned long long>(key));
    }
}

template <int B, int K, int S, int D>
cudaError_t launch_fast(const SearchJob& job, FastGrid g, cudaStream_t stream) {
    // Chunks of one column are split into groups of at most 4, so that huge ranges still spread
    // over many threads while the usual ones (3 chunks for R = 16) stay in one.
    const int groups = (g.chunks + 3) / 4;
    g.chunks_per_group = (g.chunks + groups - 1) / groups;
    g.items_per_group = (g.window_width + D - 1) / D * S;
    g.items_per_block = groups * g.items_per_group;
    g.per_block = make_divider(static_cast<std::uint32_t>(g.items_per_block));
    g.per_group = make_divider(static_cast<std::uint32_t>(g.items_per_group));
    g.per_row = make_divider(static_cast<std::uint32_t>(job.blocks_x));
    const int blocks = job.blocks_x * job.blocks_y;
    // At most 2^30 items per launch keeps item indices in 31 bits (huge ranges take several launches).
    const int blocks_per_launch = std::max(1, (1 << 30) / g.items_per_block);
    for (int first = 0; first < blocks; first += blocks_per_launch) {
        g.first_block = first;
        g.item_count = std::min(blocks - first, blocks_per_launch) * g.items_per_block;
        const unsigned grid = static_cast<unsigned>((g.item_count + kThreads - 1) / kThreads);
        // The rate term's row table: the image blocks a CUDA block's items touch (at most 7 KB).
        const int shared_blocks =
            g.rate.active ? (kThreads + g.items_per_block - 1) / g.items_per_block + 1 : 0;
        const auto shared_bytes = static_cast<std::size_t>(shared_blocks) *
                                  static_cast<std::size_t>(g.rate.row_stride) * sizeof(std::uint32_t);
        full_search_fast_kernel<B, K, S, D><<<grid, kThreads, shared_bytes, stream>>>(job, g);
        const cudaError_t error = cudaGetLastError();
        if (error != cudaSuccess) return error;
    }
    return cudaSuccess;
}

template <int K>
cudaError_t launch_sized(const SearchJob& job, const FastGrid& g, cudaStream_t stream) {
    switch (job.block_size) {
        case 4:
            return launch_fast<4, K, 1, 3>(job, g, stream);
        case 8:
            return launch_fast<8, K, 1, 3>(job, g, stream);
        case 16:
            return launch_fast<16, K, 1, 1>(job, g, stream);
        default:
            return launch_fast<32, K, 4, 1>(job, g, stream);
    }
}

}  // namespace

namespace {

cudaError_t launch_fast_grid(const SearchJob& job, FastRate rate, cudaStream_t stream) {
    // The union of all blocks' windows: [-R, R] in pad mode; restrict mode never needs more than the
    // displacements that keep some block inside Wp x Hp.
    const int r = job.range;
    const int b = job.block_size;
    int x0 = -r, x1 = r, y0 = -r, y1 = r;
    if (job.restrict_border) {
        x0 = std::max(-r, -(job.layout.padded_width - b));
        x1 = std::min(r, job.layout.padded_width - b);
        y0 = std::max(-r, -(job.layout.padded_height - b));
        y1 = std::min(r, job.layout.padded_height - b);
    }
    FastGrid g;
    g.rate = rate;
    g.window_x = x0;
    g.window_width = x1 - x0 + 1;
    g.window_y = y0;
    const int height = y1 - y0 + 1;
    // K = 11 fits 2R+1 = 33 exactly (R = 16); otherwise the K with the fewer padded rows.
    const int chunks11 = (height + 10) / 11;
    const int chunks8 = (height + 7) / 8;
    const bool eleven = chunks11 * 11 <= chunks8 * 8;
    g.chunks = eleven ? chunks11 : chunks8;
    return eleven ? launch_sized<11>(job, g, stream) : launch_sized<8>(job, g, stream);
}

}  // namespace

cudaError_t launch_full_search_fast(const SearchJob& job, cudaStream_t stream) {
    return launch_fast_grid(job, {}, stream);
}

cudaError_t launch_full_search_fast_rate(const SearchJob& job, const RateRows& rows, cudaStream_t stream) {
    return launch_fast_grid(job, FastRate{true, rows.rank_bits, rows.stride}, stream);
}

}  // namespace xme::cuda
