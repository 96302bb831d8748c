// The arithmetic of SPEC §10's quarter-pel refinement on packed bytes: H.264's 6-tap filter and the 4x4
// Hadamard transform as dp4a dot products, the rounded-up average of 4 samples at once, and SPEC §8's
// rate term and key. Every function is __host__ __device__ so that qpel_emulation_test.cpp can check
// it on a machine without a GPU against the reference (the device versions use the instructions, the
// host versions spell out what those instructions compute).
//
// Byte i of a 32-bit word is pixel i of a run of 4 (little-endian loads of consecutive pixels).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#define XME_QPEL_HD __host__ __device__ __forceinline__
// #pragma unroll for the device pass only (the host compiler would warn about an unknown pragma).
#if defined(__CUDA_ARCH__)
#define XME_QPEL_UNROLL _Pragma("unroll")
#define XME_QPEL_NO_UNROLL _Pragma("unroll 1")
#define XME_QPEL_UNROLL_BY_4 _Pragma("unroll 4")
#else
#define XME_QPEL_UNROLL_BY_4
#define XME_QPEL_UNROLL
#define XME_QPEL_NO_UNROLL
#endif

namespace xme::cuda::qpel {

// sum of |a_i - b_i| over the 4 bytes, plus c: one VABSDIFF4 on the device.
XME_QPEL_HD std::uint32_t absdiff4(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
#if defined(__CUDA_ARCH__)
    std::uint32_t d;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    for (int i = 0; i < 4; ++i) {
        const int x = static_cast<int>((a >> (8 * i)) & 0xFFu);
        const int y = static_cast<int>((b >> (8 * i)) & 0xFFu);
        c += static_cast<std::uint32_t>(x > y ? x - y : y - x);
    }
    return c;
#endif
}

// A word the kernel only reads: through the read-only data cache on the device.
XME_QPEL_HD std::uint32_t read_only(const std::uint32_t* p) {
#if defined(__CUDA_ARCH__)
    return __ldg(p);
#else
    return *p;
#endif
}

// c + sum over i of byte i of a (unsigned) times byte i of b (signed): one dp4a.u32.s32 (sm_61+).
XME_QPEL_HD int dot4(std::uint32_t a, std::uint32_t b, int c) {
#if defined(__CUDA_ARCH__)
    int d;
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#else
    for (int i = 0; i < 4; ++i) {
        const int unsigned_byte = static_cast<int>((a >> (8 * i)) & 0xFFu);
        const int signed_byte = static_cast<int>((b >> (8 * i)) & 0xFFu);
        c += unsigned_byte * (signed_byte < 128 ? signed_byte : signed_byte - 256);
    }
    return c;
#endif
}

// Bytes s/8 .. s/8 + 3 of the 8 bytes hi:lo (s in {0, 8, 16, 24}): an unaligned run from two aligned words.
XME_QPEL_HD std::uint32_t funnel_right(std::uint32_t lo, std::uint32_t hi, int shift) {
#if defined(__CUDA_ARCH__)
    return __funnelshift_r(lo, hi, static_cast<unsigned>(shift));
#else
    return shift == 0 ? lo : (lo >> shift) | (hi << (32 - shift));
#endif
}

// Byte n of the result is byte ((s >> 4n) & 7) of the 8 bytes y:x (x bytes 0-3): CUDA's __byte_perm.
XME_QPEL_HD std::uint32_t byte_perm(std::uint32_t x, std::uint32_t y, std::uint32_t s) {
#if defined(__CUDA_ARCH__)
    return __byte_perm(x, y, s);
#else
    const std::uint64_t bytes = (static_cast<std::uint64_t>(y) << 32) | x;
    std::uint32_t r = 0;
    for (int n = 0; n < 4; ++n) {
        const unsigned index = (s >> (4 * n)) & 7u;
        r |= static_cast<std::uint32_t>((bytes >> (8 * index)) & 0xFFu) << (8 * n);
    }
    return r;
#endif
}

// floor(log2(v)) + 1 for v >= 1 (std::bit_width, which device code in C++17 lacks).
XME_QPEL_HD int bit_width(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
    return 32 - __clz(static_cast<int>(v));
#else
    int width = 0;
    while (v != 0) {
        ++width;
        v >>= 1;
    }
    return width;
#endif
}

// SPEC §10's quarter sample (P + Q + 1) >> 1 of 4 byte pairs at once: per byte, a + b = 2(a & b) + (a ^ b),
// so ceil((a + b) / 2) = (a | b) - floor((a ^ b) / 2). The shift moves bit 0 of each byte into bit 7 of the
// byte below; the mask drops it. No byte borrows from its neighbour: (a | b) >= (a ^ b) / 2 per byte.
XME_QPEL_HD std::uint32_t average_up4(std::uint32_t a, std::uint32_t b) {
    return (a | b) - (((a ^ b) >> 1) & 0x7F7F7F7Fu);
}

XME_QPEL_HD int absolute(int v) { return v < 0 ? -v : v; }
XME_QPEL_HD int maximum(int a, int b) { return a > b ? a : b; }
XME_QPEL_HD int min_int(int a, int b) { return a < b ? a : b; }

// clip(v) to 0..255 of 4 values, packed into one word (v0 in byte 0).
XME_QPEL_HD std::uint32_t clip_pack4(int v0, int v1, int v2, int v3) {
    const auto c = [](int v) { return static_cast<std::uint32_t>(v < 0 ? 0 : (v > 255 ? 255 : v)); };
    return byte_perm(byte_perm(c(v0), c(v1), 0x0040u), byte_perm(c(v2), c(v3), 0x0040u), 0x5410u);
}

// Rows r0..r3 (byte i = column i) to columns: word i of the result holds column i, byte r = row r.
struct Columns4 {
    std::uint32_t c[4];
};
XME_QPEL_HD Columns4 transpose4(std::uint32_t r0, std::uint32_t r1, std::uint32_t r2, std::uint32_t r3) {
    const std::uint32_t a = byte_perm(r0, r1, 0x5140u);  // r0.0 r1.0 r0.1 r1.1
    const std::uint32_t b = byte_perm(r0, r1, 0x7362u);  // r0.2 r1.2 r0.3 r1.3
    const std::uint32_t c = byte_perm(r2, r3, 0x5140u);
    const std::uint32_t d = byte_perm(r2, r3, 0x7362u);
    return {{byte_perm(a, c, 0x5410u), byte_perm(a, c, 0x7632u), byte_perm(b, d, 0x5410u),
             byte_perm(b, d, 0x7632u)}};
}

// --- H.264's 6-tap filter t(E,F,G,H,I,J) = E - 5F + 20G + 20H - 5I + J as dp4a coefficient words ---
// (Functions, not tables: device code may not index a host constexpr array at run time. Every call below
// has constant arguments once its loop is unrolled, so each folds to an immediate.)

XME_QPEL_HD constexpr int six_tap_weight(int t) {
    return t == 0 || t == 5 ? 1 : (t == 1 || t == 4 ? -5 : (t == 2 || t == 3 ? 20 : 0));
}

// A window of 12 bytes, words 0..2, and an output whose first tap is byte `first + k`: tap t weighs byte
// first + k + t, so byte i of word w has tap index 4w + i - first - k. Packed as signed bytes for dot4.
XME_QPEL_HD constexpr std::uint32_t tap_word(int w, int k, int first) {
    std::uint32_t word = 0;
    for (int i = 0; i < 4; ++i) {
        word |= (static_cast<std::uint32_t>(six_tap_weight(4 * w + i - first - k)) & 0xFFu) << (8 * i);
    }
    return word;
}
// Horizontal: output k of aligned word m of a row (byte 4 + k of the window m-1, m, m+1) starts 2 left.
XME_QPEL_HD constexpr std::uint32_t row_tap(int w, int k) { return tap_word(w, k, 2); }
// Vertical, on column words (transpose4) of a window whose byte 0 is 2 rows above output row 0 of a group
// of 4: output row q reads window bytes q..q+5.
XME_QPEL_HD constexpr std::uint32_t column_tap(int w, int q) { return tap_word(w, q, 0); }

// 4 horizontal 6-tap sums (unrounded b1 of H.264) plus `bias`, for the 4 pixels of aligned word `mid`
// of a row whose neighbouring words are `left` and `right`.
struct Four {
    int v[4];
};
XME_QPEL_HD Four six_tap_row(std::uint32_t left, std::uint32_t mid, std::uint32_t right, int bias) {
    const std::uint32_t words[3] = {left, mid, right};
    Four out;
    XME_QPEL_UNROLL
    for (int k = 0; k < 4; ++k) {
        int sum = bias;
        XME_QPEL_UNROLL
        for (int w = 0; w < 3; ++w) {
            if (row_tap(w, k) != 0) sum = dot4(words[w], row_tap(w, k), sum);  // a zero word folds away
        }
        out.v[k] = sum;
    }
    return out;
}

// t applied to six ints (the vertical filter of the unrounded b1, for j).
XME_QPEL_HD int six_tap(int e, int f, int g, int h, int i, int j) {
    return (e + j) - 5 * (f + i) + 20 * (g + h);
}

// --- SATD (SPEC §10) of one 4x4 tile ---
// With Y = D H^T (rows transformed) and S = Y0 + Y1, T = Y2 + Y3, U = Y0 - Y1, V = Y2 - Y3 per column k,
// the coefficients of H D H^T in column k are S + T, S - T, U - V, U + V; since |a + b| + |a - b| =
// 2 max(|a|, |b|), the sum of their magnitudes is 2 (max(|S|,|T|) + max(|U|,|V|)). So SPEC's
// (sum |H D H^T|) >> 1 is exactly sum over k of max(|S|,|T|) + max(|U|,|V|): the sum is even, no bit lost.
// Y's rows are dp4a dot products of a row of 4 pixels with a row of H (signed bytes; byte i = column i).
// Rows of H: (1 1 1 1), (1 1 -1 -1), (1 -1 -1 1), (1 -1 1 -1), and their negations.
XME_QPEL_HD constexpr std::uint32_t hadamard(int k) {
    return k == 0 ? 0x01010101u : (k == 1 ? 0xFFFF0101u : (k == 2 ? 0x01FFFF01u : 0xFF01FF01u));
}
XME_QPEL_HD constexpr std::uint32_t hadamard_neg(int k) {
    return k == 0 ? 0xFFFFFFFFu : (k == 1 ? 0x0101FFFFu : (k == 2 ? 0xFF0101FFu : 0x01FF01FFu));
}

// The current tile's share of S, T, U, V (linear in the difference current - prediction): computed once
// per block, so that a candidate costs only the prediction's dot products.
struct TileCurrent {
    int s[4], t[4], u[4], v[4];
};
XME_QPEL_HD TileCurrent tile_current(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3) {
    TileCurrent tc;
    XME_QPEL_UNROLL
    for (int k = 0; k < 4; ++k) {
        tc.s[k] = dot4(c1, hadamard(k), dot4(c0, hadamard(k), 0));
        tc.u[k] = dot4(c1, hadamard_neg(k), dot4(c0, hadamard(k), 0));
        tc.t[k] = dot4(c3, hadamard(k), dot4(c2, hadamard(k), 0));
        tc.v[k] = dot4(c3, hadamard_neg(k), dot4(c2, hadamard(k), 0));
    }
    return tc;
}

// satd4 of current - prediction, the prediction's rows p0..p3.
XME_QPEL_HD std::uint32_t tile_satd(const TileCurrent& tc, std::uint32_t p0, std::uint32_t p1,
                                    std::uint32_t p2, std::uint32_t p3) {
    int sum = 0;
    XME_QPEL_UNROLL
    for (int k = 0; k < 4; ++k) {
        const int s = dot4(p1, hadamard_neg(k), dot4(p0, hadamard_neg(k), tc.s[k]));
        const int u = dot4(p1, hadamard(k), dot4(p0, hadamard_neg(k), tc.u[k]));
        const int t = dot4(p3, hadamard_neg(k), dot4(p2, hadamard_neg(k), tc.t[k]));
        const int v = dot4(p3, hadamard(k), dot4(p2, hadamard_neg(k), tc.v[k]));
        sum += maximum(absolute(s), absolute(t)) + maximum(absolute(u), absolute(v));
    }
    return static_cast<std::uint32_t>(sum);
}

// --- SPEC §8: rate and key ---

// Length of se(v): k = 2v - 1 for v > 0, -2v otherwise; 2 floor(log2(k + 1)) + 1. |v| < 2^18 here.
XME_QPEL_HD int se_bits(int v) {
    const int k = v > 0 ? 2 * v - 1 : -2 * v;
    return 2 * (bit_width(static_cast<std::uint32_t>(k + 1)) - 1) + 1;
}

// J = SATD + lambda * R(mv - p) fits 32 bits: SATD <= 64 tiles * 16 * 4080 / 2 < 2^21 for B = 32; a
// refined component lies in int16 +- 3 and the predictor in int16, so |mv - p| < 2^17, se_bits <= 35
// and R <= 70; lambda <= 65535 (SPEC §8) gives lambda * R < 2^23.
inline constexpr int kMaxLambda = 65535;
inline constexpr std::uint64_t kMaxJ = 64ull * 16 * 4080 / 2 + 65535ull * 70;
static_assert(kMaxJ < (1ull << 32), "J must fit 32 bits");

// SPEC §8's key (J, |mv - p|_1, mv.y, mv.x) for the candidates of one stage, in 32 bits so that the
// warp picks the least with one `redux.sync.min` (sm_80+) rather than a 64-bit shuffle ladder. A stage's
// candidates lie at most 2 from its centre per component, so their |mv - p|_1 is within 4 of the
// centre's: stored as distance - (centre's - 4), 0..8, in 4 bits; J < 2^23 (kMaxJ) above it, then
// sy + 1 and sx + 1 in 2 bits each (the candidates share the centre: mv.y, mv.x order as sy, sx do).
// `base` is the centre's distance minus 4; both stages and the quarter stage's centre use one base each.
static_assert(kMaxJ < (1ull << 23), "J << 8 must fit 31 bits");
XME_QPEL_HD std::uint32_t stage_key(std::uint32_t j, int distance, int base, int sx, int sy) {
    return (j << 8) | (static_cast<std::uint32_t>(distance - base) << 4) |
           static_cast<std::uint32_t>(((sy + 1) << 2) | (sx + 1));
}
inline constexpr std::uint32_t kNoKey = ~0u;  // above every key: J << 8 < 2^31
XME_QPEL_HD std::uint32_t key_j(std::uint32_t key) { return key >> 8; }
XME_QPEL_HD int key_sx(std::uint32_t key) { return static_cast<int>(key & 3u) - 1; }
XME_QPEL_HD int key_sy(std::uint32_t key) { return static_cast<int>((key >> 2) & 3u) - 1; }

}  // namespace xme::cuda::qpel
