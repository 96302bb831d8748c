// SPEC §10's quarter-pel refinement of one block by one warp, callable from any kernel:
//
//   template <int B>
//   __device__ MotionRecord qpel::refine_qpel_warp(const SearchJob& job, int x, int y,
//                                                  MotionRecord integer, int px, int py, int lambda);
//
// All 32 lanes of a warp call it together (converged, same arguments) and all get the result: the
// half stage (the integer winner v and v + 2(sx, sy)) then the quarter stage (the half winner w and
// w + (sx, sy)), each candidate costed J = SATD + lambda * R(mv - p), each stage keeping the least key
// (J, |mv - p|_1, mv.y, mv.x) as the reference's subpel_stage does; the centre is always costed, an
// invalid neighbour (restrict) never. Returns {mv, J, integer.candidates}. refine_qpel_core's optional Area
// refines part of the block (SPEC §9's partitions: some of its 4x4 tiles, the macroblock's restrict test).
//
// Work: the samples around the block are staged once into the warp's shared scratch and filtered into
// H.264's half-sample planes (qpel_planes.cuh); then each stage spreads (candidate, 4x4 tile) pairs over
// the lanes (a lane keeps the same tile, or two for B = 32, through the whole refinement, with the
// current tile's part of the Hadamard transform in registers), sums each candidate's tiles with
// shuffles and picks the winner with one 32-bit warp min (stage_key).
//
// The caller guarantees (the launcher in qpel_refine.cu checks what it can on the host):
// - integer.mv is a multiple of 4 with components in [-32764, 32764] (so that the refined vector, at most 3
//   further, fits int16; the reference would refuse a result that does not). It need not be valid in
//   restrict mode: the centre is costed regardless, as in the reference;
// - 0 <= lambda <= 65535 (SPEC §8; then J < 2^23, see kMaxJ);
// - job.reference and job.current are 4-byte aligned at pixel (0, 0), layout.pitch and layout.margin_x
//   are multiples of 4, margin_x and margin_y >= 4 (FrameLayout's padded frames are);
// - shared memory: the overload without a scratch argument holds kWarps (default kMaxWarpsPerBlock = 4)
//   Scratch<B> in static shared memory, 3.2 KB each for B = 16 and 8.0 KB for B = 32, and the calling
//   warp's index in its CUDA block must be below kWarps; the other overload takes the caller's scratch.
#pragma once

#include "kernels.hpp"
#include "qpel_arith.cuh"
#include "qpel_planes.cuh"

namespace xme::cuda::qpel {

// --- Which samples a quarter-pel position averages (SPEC §10) ---
// A sample in 4 bits: its plane (0 = G, 1 = b, 2 = h, 3 = j), plus kRight for the plane one column right
// (H of G, m of h) and kDown for one row down (M of G, s of b).
inline constexpr std::uint32_t kRight = 4;
inline constexpr std::uint32_t kDown = 8;
constexpr std::uint32_t taps(std::uint32_t p, std::uint32_t q) { return p | (q << 4); }
// Per fraction fy * 4 + fx, the two samples P, Q of (P + Q + 1) >> 1 (a single sample is averaged with
// itself), in H.264's letters, exactly the cases of the reference's h264_sample.
constexpr std::uint32_t position_taps_of(int fraction) {
    constexpr std::uint32_t G = 0, b = 1, h = 2, j = 3;
    constexpr std::uint32_t H = G | kRight, M = G | kDown, m = h | kRight, s = b | kDown;
    // clang-format off
    constexpr std::uint32_t table[16] = {
        taps(G, G), taps(G, b), taps(b, b), taps(H, b),   // G a b c
        taps(G, h), taps(b, h), taps(b, j), taps(b, m),   // d e f g
        taps(h, h), taps(h, j), taps(j, j), taps(j, m),   // h i j k
        taps(M, h), taps(h, s), taps(j, s), taps(m, s)};  // n p q r
    // clang-format on
    return table[fraction];
}
constexpr std::uint64_t pack_taps(int first) {
    std::uint64_t packed = 0;
    for (int f = 0; f < 8; ++f) packed |= static_cast<std::uint64_t>(position_taps_of(first + f)) << (8 * f);
    return packed;
}
// As two 64-bit scalars, which device code may use (it may not index a host array).
inline constexpr std::uint64_t kPositionTapsLow = pack_taps(0);
inline constexpr std::uint64_t kPositionTapsHigh = pack_taps(8);

XME_QPEL_HD std::uint32_t position_taps(int fraction) {
    return static_cast<std::uint32_t>(
        ((fraction < 8 ? kPositionTapsLow : kPositionTapsHigh) >> (8 * (fraction & 7))) & 0xFFu);
}

// `tap`: a plane reference; (ox, oy) in {-1, 0}: floor(d / 4) of the candidate's offset d from v.
template <int B>
XME_QPEL_HD PlaneRun plane_run(std::uint32_t tap, int align, int ox, int oy) {
    using G = Geometry<B>;
    const int plane = static_cast<int>(tap & 3u);
    const int column = 7 + align + ox + ((tap & kRight) != 0 ? 1 : 0);  // byte of u = 1 + ox (+1)
    const int row = 1 + oy + ((tap & kDown) != 0 ? 1 : 0);              // local r of the tile's row 0
    const int origin =
        plane == 0 ? G::kRaw + 2 * G::kPitch : G::kB + (plane - 1) * (G::kPlaneRows * G::kPitch);
    return {origin + row * G::kPitch + (column >> 2), 8 * (column & 3)};
}

// The samples of the candidate at offset (dx, dy) from v (quarter units, -3..3): the runs of P and Q.
template <int B>
XME_QPEL_HD CandidateRuns candidate_runs(int align, int dx, int dy) {
    const std::uint32_t pair = position_taps((dy & 3) * 4 + (dx & 3));
    return {plane_run<B>(pair & 15u, align, dx >> 2, dy >> 2),
            plane_run<B>(pair >> 4, align, dx >> 2, dy >> 2)};
}

XME_QPEL_HD std::uint32_t fetch(const std::uint32_t* words, PlaneRun run, int offset) {
    return funnel_right(words[run.base + offset], words[run.base + offset + 1], run.shift);
}

// --- The lanes' share of the work ---
template <int B>
struct Lanes {
    static constexpr int kTilesAcross = B / 4;
    static constexpr int kTiles = kTilesAcross * kTilesAcross;
    static constexpr int kPerCandidate = kTiles < 32 ? kTiles : 32;  // lanes that sum one candidate
    static constexpr int kCandidatesPerRound = 32 / kPerCandidate;
    static constexpr int kTilesPerLane = kTiles / kPerCandidate;  // 2 for B = 32, else 1
};

// A lane's tiles (lane % kPerCandidate, + 32): the current block's part of S, T, U, V, the word
// offset of the tile's first row within a plane, and bit i set when tile i is costed (Area::tiles).
template <int B>
struct LaneTiles {
    TileCurrent current[Lanes<B>::kTilesPerLane];
    int offset[Lanes<B>::kTilesPerLane];
    std::uint32_t costed;
};

// What a refinement costs and where its candidates are valid. By default the whole B x B block, valid
// by SPEC §2 for itself; SPEC §9's partitions refine a w x h part of a block (the tiles, bit ty * B/4 + tx)
// whose `restrict` test is its macroblock's (the box_size block at box_x, box_y).
struct Area {
    std::uint32_t tiles = ~0u;
    int box_x = 0, box_y = 0;
    int box_size = 0;  // 0: the refined block itself
};

template <int B>
XME_QPEL_HD LaneTiles<B> load_lane_tiles(const SearchJob& job, int x, int y, int lane, std::uint32_t costed) {
    using L = Lanes<B>;
    LaneTiles<B> tiles;
    tiles.costed = 0;
    const int pitch = job.layout.pitch;
    XME_QPEL_UNROLL
    for (int i = 0; i < L::kTilesPerLane; ++i) {
        const int tile = lane % L::kPerCandidate + 32 * i;
        const int tx = tile % L::kTilesAcross;
        const int ty = tile / L::kTilesAcross;
        const std::uint8_t* row = job.current + static_cast<std::ptrdiff_t>(y + 4 * ty) * pitch + x + 4 * tx;
        tiles.current[i] = tile_current(load_word(row), load_word(row + pitch), load_word(row + 2 * pitch),
                                        load_word(row + 3 * pitch));
        tiles.offset[i] = 4 * ty * Geometry<B>::kPitch + tx;
        if (tile >= 32 || ((costed >> tile) & 1u) != 0) tiles.costed |= 1u << i;  // B = 32: every tile
    }
    return tiles;
}

// SATD of a candidate, summed over the lane's tiles. The half stage's offsets are even: every sample is
// one plane's (G, b, h or j; P = Q), no average.
template <int B, bool kAverage>
XME_QPEL_HD std::uint32_t candidate_satd(const Scratch<B>& s, const LaneTiles<B>& tiles, CandidateRuns runs) {
    constexpr int kPitch = Geometry<B>::kPitch;
    std::uint32_t sum = 0;
    XME_QPEL_UNROLL
    for (int i = 0; i < Lanes<B>::kTilesPerLane; ++i) {
        std::uint32_t rows[4];
        XME_QPEL_UNROLL
        for (int j = 0; j < 4; ++j) {
            const int offset = tiles.offset[i] + j * kPitch;
            rows[j] = fetch(s.words, runs.p, offset);
            if (kAverage) rows[j] = average_up4(rows[j], fetch(s.words, runs.q, offset));
        }
        if (((tiles.costed >> i) & 1u) != 0)
            sum += tile_satd(tiles.current[i], rows[0], rows[1], rows[2], rows[3]);
    }
    return sum;
}

// What a stage needs besides the planes. Vectors in quarter units; (cx, cy) is the stage's centre as an
// offset from the integer vector (ix, iy) * 4.
struct StageInput {
    int align;
    int mvx, mvy;  // the integer vector
    int cx, cy;
    int px, py;
    int lambda;
    bool restrict_border;
    int low_x, high_x, low_y, high_y;  // restrict: the valid vectors (SPEC §10's floor/ceil rule as a box)
};

// Step (sx, sy) of candidate c: the half stage's 9 in raster order (4 is the centre), the quarter
// stage's 8 neighbours.
template <bool kQuarter>
XME_QPEL_HD void candidate_step(int c, int& sx, int& sy) {
    const int n = kQuarter && c >= 4 ? c + 1 : c;
    sx = n % 3 - 1;
    sy = n / 3 - 1;
}

// |mv - p|_1 of the stage's centre, less 4: the base of its keys (stage_key).
XME_QPEL_HD int key_base(const StageInput& in) {
    return absolute(in.mvx + in.cx - in.px) + absolute(in.mvy + in.cy - in.py) - 4;
}

// One stage: every lane returns the least key of the stage's candidates (SPEC §8), kNoKey where none
// is valid.
template <int B, bool kQuarter, class Warp>
XME_QPEL_HD std::uint32_t best_of_stage(Warp& warp, Scratch<B>& s, const LaneTiles<B>& tiles,
                                        const StageInput& in) {
    using L = Lanes<B>;
    constexpr int kCandidates = kQuarter ? 8 : 9;
    constexpr int kStep = kQuarter ? 1 : 2;
    constexpr int kRounds = (kCandidates + L::kCandidatesPerRound - 1) / L::kCandidatesPerRound;
    std::uint32_t* satd = s.satd + (kQuarter ? 9 : 0);
    const int lane = warp.lane();
    // Where each candidate's samples lie, worked out once (by lane c) rather than in every round.
    if (lane < kCandidates) {
        int sx, sy;
        candidate_step<kQuarter>(lane, sx, sy);
        s.runs[lane] = candidate_runs<B>(in.align, in.cx + kStep * sx, in.cy + kStep * sy);
    }
    warp.sync();
    // Round r: candidate r * kCandidatesPerRound + lane / kPerCandidate; its lanes sum their tiles.
    XME_QPEL_NO_UNROLL
    for (int round = 0; round < kRounds; ++round) {
        const int c = round * L::kCandidatesPerRound + lane / L::kPerCandidate;
        std::uint32_t sum = 0;
        if (c < kCandidates) sum = candidate_satd<B, kQuarter>(s, tiles, s.runs[c]);
        XME_QPEL_UNROLL
        for (int offset = L::kPerCandidate / 2; offset > 0; offset /= 2) sum += warp.shfl_xor(sum, offset);
        if (c < kCandidates && lane % L::kPerCandidate == 0) satd[c] = sum;
    }
    warp.sync();
    std::uint32_t key = kNoKey;
    if (lane < kCandidates) {
        int sx, sy;
        candidate_step<kQuarter>(lane, sx, sy);
        const int mvx = in.mvx + in.cx + kStep * sx;
        const int mvy = in.mvy + in.cy + kStep * sy;
        const bool centre = sx == 0 && sy == 0;
        const bool valid = centre || !in.restrict_border ||
                           (mvx >= in.low_x && mvx <= in.high_x && mvy >= in.low_y && mvy <= in.high_y);
        if (valid) {
            const int dx = mvx - in.px;
            const int dy = mvy - in.py;
            const std::uint32_t rate = static_cast<std::uint32_t>(se_bits(dx) + se_bits(dy));
            const std::uint32_t j = satd[lane] + static_cast<std::uint32_t>(in.lambda) * rate;
            key = stage_key(j, absolute(dx) + absolute(dy), key_base(in), sx, sy);
        }
    }
    return warp.min(key);
}

// The refinement on an explicit scratch and warp (qpel_emulation_test.cpp runs it on host threads).
template <int B, class Warp>
XME_QPEL_HD MotionRecord refine_qpel_core(Warp& warp, Scratch<B>& s, const SearchJob& job, int x, int y,
                                          MotionRecord integer, int px, int py, int lambda,
                                          const Area& area = {}) {
    warp.sync();  // the previous call's reads of s are done
    const int lane = warp.lane();
    const int ix = integer.mv_x / 4;
    const int iy = integer.mv_y / 4;
    const LaneTiles<B> tiles = load_lane_tiles<B>(job, x, y, lane, area.tiles);
    StageInput in;
    in.align = stage_reference<B>(s, job, x + ix, y + iy, lane);
    warp.sync();
    build_b_and_j<B>(s, lane);
    build_h<B>(s, lane);
    warp.sync();

    in.mvx = integer.mv_x;
    in.mvy = integer.mv_y;
    in.cx = 0;
    in.cy = 0;
    in.px = px;
    in.py = py;
    in.lambda = lambda;
    in.restrict_border = job.restrict_border;
    const int box_x = area.box_size > 0 ? area.box_x : x;
    const int box_y = area.box_size > 0 ? area.box_y : y;
    const int box_size = area.box_size > 0 ? area.box_size : B;
    in.low_x = -4 * box_x;
    in.high_x = 4 * (job.layout.padded_width - box_size - box_x);
    in.low_y = -4 * box_y;
    in.high_y = 4 * (job.layout.padded_height - box_size - box_y);
    const std::uint32_t half = best_of_stage<B, false>(warp, s, tiles, in);
    in.cx = 2 * key_sx(half);
    in.cy = 2 * key_sy(half);
    // The half winner is the quarter stage's centre, with its J (the reference costs it again: same key),
    // keyed again on the quarter stage's base.
    const std::uint32_t neighbours = best_of_stage<B, true>(warp, s, tiles, in);
    const std::uint32_t centre = stage_key(key_j(half), key_base(in) + 4, key_base(in), 0, 0);
    const std::uint32_t quarter = neighbours < centre ? neighbours : centre;
    MotionRecord result;
    result.mv_x = static_cast<std::int16_t>(in.mvx + in.cx + key_sx(quarter));
    result.mv_y = static_cast<std::int16_t>(in.mvy + in.cy + key_sy(quarter));
    result.cost = key_j(quarter);
    result.candidates = integer.candidates;
    return result;
}

#if defined(__CUDACC__)
// The warp of the calling thread, for refine_qpel_core. The members are __host__ __device__ only so that
// the core (which is) may call them; they run on the device only.
struct DeviceWarp {
    XME_QPEL_HD int lane() const {
#if defined(__CUDA_ARCH__)
        unsigned id;
        asm("mov.u32 %0, %%laneid;" : "=r"(id));
        return static_cast<int>(id);
#else
        return 0;
#endif
    }
    XME_QPEL_HD void sync() const {
#if defined(__CUDA_ARCH__)
        __syncwarp();
#endif
    }
    XME_QPEL_HD std::uint32_t shfl_xor(std::uint32_t v, int offset) const {
#if defined(__CUDA_ARCH__)
        return __shfl_xor_sync(0xFFFFFFFFu, v, offset);
#else
        (void)offset;
        return v;
#endif
    }
    // How many lanes pass `predicate` (the fast searches' count of candidates evaluated).
    XME_QPEL_HD std::uint32_t count(bool predicate) const {
#if defined(__CUDA_ARCH__)
        return static_cast<std::uint32_t>(__popc(__ballot_sync(0xFFFFFFFFu, predicate)));
#else
        return predicate ? 1u : 0u;
#endif
    }
    XME_QPEL_HD std::uint32_t min(std::uint32_t key) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        return __reduce_min_sync(0xFFFFFFFFu, key);  // one redux.sync
#elif defined(__CUDA_ARCH__)
        XME_QPEL_UNROLL
        for (int offset = 16; offset > 0; offset >>= 1) {
            const std::uint32_t other = __shfl_xor_sync(0xFFFFFFFFu, key, offset);
            key = other < key ? other : key;
        }
        return key;
#else
        return key;
#endif
    }
};

inline constexpr int kMaxWarpsPerBlock = 4;

// With the caller's scratch (one per warp that calls it at the same time, in shared memory): for a
// kernel with more warps per CUDA block than kMaxWarpsPerBlock, or that has scratch to share.
template <int B>
__device__ __forceinline__ MotionRecord refine_qpel_warp(Scratch<B>& scratch, const SearchJob& job, int x,
                                                         int y, MotionRecord integer, int px, int py,
                                                         int lambda) {
    DeviceWarp warp;
    return refine_qpel_core<B>(warp, scratch, job, x, y, integer, px, py, lambda);
}

// With a scratch of its own: static shared memory for kWarps warps, indexed by the calling warp's place
// in its CUDA block, which must be below kWarps (a CUDA block of at most 32 * kWarps threads).
template <int B, int kWarps = kMaxWarpsPerBlock>
__device__ __forceinline__ MotionRecord refine_qpel_warp(const SearchJob& job, int x, int y,
                                                         MotionRecord integer, int px, int py, int lambda) {
    __shared__ Scratch<B> scratch[kWarps];
    const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    return refine_qpel_warp<B>(scratch[thread / 32], job, x, y, integer, px, py, lambda);
}
#endif

}  // namespace xme::cuda::qpel
