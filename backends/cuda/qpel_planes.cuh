// SPEC §10's reference samples around one block, built once per block in the warp's shared scratch:
// the integer samples G (staged from the padded reference) and H.264's half-sample planes b, h and j.
// Every candidate of both stages then reads its prediction from these planes (one plane at half and
// integer positions, the rounded average of two at quarter positions), never from global memory.
//
// Coordinates: the integer winner v = 4 (ix, iy) and X0 = x + ix, Y0 = y + iy. Local (u, r) is reference
// pixel (X0 - 1 + u, Y0 - 1 + r). A candidate v + d, -3 <= d <= 3 (quarter units), reads for pixel (i, j)
// of the block the samples at floor position u = i + 1 + (d.x >> 2) (0 .. B) and their right/lower
// neighbours, so the planes need: G at 0..B+1 both ways, b at u 0..B and r 0..B+1 (s is b one row down),
// h at u 0..B+1 (m is h one column right) and r 0..B, j at 0..B both ways. The filters reach 2 samples
// before and 3 after: G is staged for -2..B+3.
//
// Rows of the scratch are words. Byte e of a row is local column u = e - 6 - a, where a = (X0 - 3) & 3:
// a staged row starts at the aligned word 4 bytes left of the word that holds u = -2, so that every
// 4-sample output word m (bytes 4m..4m+3) of a plane has its filter taps in words m-1..m+1 of the row.
// The planes' words 1..B/4+2 cover u = 0..B+1 for every a; the scratch reads only those.
#pragma once

#include "kernels.hpp"
#include "qpel_arith.cuh"

namespace xme::cuda::qpel {

template <int B>
struct Geometry {
    static_assert(B == 4 || B == 8 || B == 16 || B == 32, "SPEC §1's block sizes");
    static constexpr int kWords = B / 4 + 4;  // staged words per row: local u = -6 - a .. B + 9 - a
    // Words per scratch row, >= kWords: 4 rows down (one tile) moves 8 or 24 banks, so that the lanes of
    // one candidate, which read the same row of tiles 4 rows apart, never share a bank (B = 8, 16, 32).
    static constexpr int kPitch = B == 4 ? 5 : (B == 8 ? 6 : (B == 16 ? 10 : 14));
    static constexpr int kRawRows = B + 6;    // local r = -2 .. B + 3
    static constexpr int kPlaneRows = B + 2;  // local r = 0 .. B + 1
    static constexpr int kRaw = 0;            // word offsets of the four arrays
    static constexpr int kB = kRawRows * kPitch;
    static constexpr int kH = kB + kPlaneRows * kPitch;
    static constexpr int kJ = kH + kPlaneRows * kPitch;
    static constexpr int kTotal = kJ + kPlaneRows * kPitch;
    // Plane work items: 4 rows x 4 columns of outputs; rows 0..B+3 (4 more than needed at most, not
    // stored), words 1..B/4+2.
    static constexpr int kItemColumns = B / 4 + 2;
    static constexpr int kItems = (B / 4 + 1) * kItemColumns;
};

// Where the 4 samples of row 0 of tile (0, 0) of a candidate's prediction start in one plane: word
// `base` of the scratch, shifted right by `shift` bits (with the next word); tile (tx, ty) row j is
// kPitch * (4 ty + j) + tx words further. A candidate averages two such runs, P and Q (qpel_refine.cuh).
struct PlaneRun {
    int base;
    int shift;
};
struct CandidateRuns {
    PlaneRun p, q;
};

// One warp's shared memory: the staged reference, the planes, the current stage's candidates' runs, and
// the SATD of each candidate (the half stage's 9, then the quarter stage's 8).
template <int B>
struct Scratch {
    std::uint32_t words[Geometry<B>::kTotal];
    CandidateRuns runs[9];
    std::uint32_t satd[17];
};

XME_QPEL_HD std::uint32_t load_word(const std::uint8_t* p) {
#if defined(__CUDA_ARCH__)
    return __ldg(reinterpret_cast<const unsigned int*>(p));
#else
    return *reinterpret_cast<const std::uint32_t*>(p);
#endif
}

XME_QPEL_HD int clamp_int(int v, int low, int high) { return v < low ? low : (v > high ? high : v); }

// Stages reference rows Y0 - 3 .. Y0 + B + 2 (local -2 .. B + 3), words from the one holding X0 - 7 - a on,
// and returns a. A sample further out than the padded frame's margin reads the margin's edge word:
// inside [-margin, padded + margin) the frame repeats its edge (FrameLayout), so SPEC §1's clamp(x, 0,
// W-1) equals clamping first to that region, and words never straddle its bounds (margin_x and Wp are
// multiples of 4): a word outside it is 4 copies of the edge sample, as is the word clamped to.
template <int B>
XME_QPEL_HD int stage_reference(Scratch<B>& s, const SearchJob& job, int x0, int y0, int lane) {
    using G = Geometry<B>;
    constexpr int kStaged = G::kRawRows * G::kWords;
    constexpr int kPerLane = (kStaged + 31) / 32;  // 6 for B = 16
    const FrameLayout& f = job.layout;
    const int left = x0 - 3;
    const int a = left & 3;
    const int first_column = left - a - 4;
    // All of a lane's loads are issued before any is stored, so the warp waits for global memory once,
    // not once per load (a loop with a store after each load serialised them: ~3 waits per warp).
    std::uint32_t staged[kPerLane] = {};  // all set where read; {} for the host compiler's warning
    XME_QPEL_UNROLL
    for (int i = 0; i < kPerLane; ++i) {
        const int k = lane + 32 * i;
        if (kStaged % 32 != 0 && k >= kStaged) break;
        const int row = k / G::kWords;
        const int word = k - row * G::kWords;
        const int gy = clamp_int(y0 - 3 + row, -f.margin_y, f.padded_height + f.margin_y - 1);
        const int gx = clamp_int(first_column + 4 * word, -f.margin_x, f.padded_width + f.margin_x - 4);
        staged[i] = load_word(job.reference + static_cast<std::ptrdiff_t>(gy) * f.pitch + gx);
    }
    XME_QPEL_UNROLL
    for (int i = 0; i < kPerLane; ++i) {
        const int k = lane + 32 * i;
        if (kStaged % 32 != 0 && k >= kStaged) break;
        const int row = k / G::kWords;
        s.words[G::kRaw + row * G::kPitch + (k - row * G::kWords)] = staged[i];
    }
    return a;
}

// b and j for output rows 4n..4n+3, word m: the unrounded b1 of rows 4n-2..4n+6 (staged rows 4n..4n+8),
// biased by 16 so that b = b1' >> 5 and j1 + 512 = t(b1') (the taps sum to 32), then SPEC §10's clip.
// Staged rows past the last (only for outputs that are not stored) are read from the last.
template <int B>
XME_QPEL_HD void build_b_and_j(Scratch<B>& s, int lane) {
    using G = Geometry<B>;
    for (int item = lane; item < G::kItems; item += 32) {
        const int n = item / G::kItemColumns;
        const int m = 1 + item % G::kItemColumns;
        Four b1[9];
        XME_QPEL_UNROLL
        for (int r = 0; r < 9; ++r) {
            const std::uint32_t* row = s.words + G::kRaw + min_int(4 * n + r, G::kRawRows - 1) * G::kPitch;
            b1[r] = six_tap_row(row[m - 1], row[m], row[m + 1], 16);
        }
        XME_QPEL_UNROLL
        for (int q = 0; q < 4; ++q) {
            const int r = 4 * n + q;  // local row of the outputs
            if (r <= B + 1) {
                const Four& c = b1[q + 2];
                s.words[G::kB + r * G::kPitch + m] =
                    clip_pack4(c.v[0] >> 5, c.v[1] >> 5, c.v[2] >> 5, c.v[3] >> 5);
            }
            if (r <= B) {
                int j[4];
                XME_QPEL_UNROLL
                for (int k = 0; k < 4; ++k) {
                    j[k] = six_tap(b1[q].v[k], b1[q + 1].v[k], b1[q + 2].v[k], b1[q + 3].v[k], b1[q + 4].v[k],
                                   b1[q + 5].v[k]) >>
                           10;
                }
                s.words[G::kJ + r * G::kPitch + m] = clip_pack4(j[0], j[1], j[2], j[3]);
            }
        }
    }
}

// h for output rows 4n..4n+3, word m: the vertical filter as dp4a on column words (staged rows 4n..4n+7
// transposed); the sixth tap of the last row reads staged row 4n+8 directly, byte k of it for column k.
template <int B>
XME_QPEL_HD void build_h(Scratch<B>& s, int lane) {
    using G = Geometry<B>;
    for (int item = lane; item < G::kItems; item += 32) {
        const int n = item / G::kItemColumns;
        const int m = 1 + item % G::kItemColumns;
        std::uint32_t rows[9];
        XME_QPEL_UNROLL
        for (int r = 0; r < 9; ++r)
            rows[r] = s.words[G::kRaw + min_int(4 * n + r, G::kRawRows - 1) * G::kPitch + m];
        const Columns4 upper = transpose4(rows[0], rows[1], rows[2], rows[3]);
        const Columns4 lower = transpose4(rows[4], rows[5], rows[6], rows[7]);
        XME_QPEL_UNROLL
        for (int q = 0; q < 4; ++q) {
            const int r = 4 * n + q;
            if (r > B) continue;
            int h[4];
            XME_QPEL_UNROLL
            for (int k = 0; k < 4; ++k) {
                int sum = 16;  // h = (h1 + 16) >> 5
                if (column_tap(0, q) != 0) sum = dot4(upper.c[k], column_tap(0, q), sum);
                if (column_tap(1, q) != 0) sum = dot4(lower.c[k], column_tap(1, q), sum);
                if (column_tap(2, q) != 0) sum = dot4(rows[8], (column_tap(2, q) & 0xFFu) << (8 * k), sum);
                h[k] = sum >> 5;
            }
            s.words[G::kH + r * G::kPitch + m] = clip_pack4(h[0], h[1], h[2], h[3]);
        }
    }
}

}  // namespace xme::cuda::qpel
