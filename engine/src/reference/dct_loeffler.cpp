// SPEC §13, variant `loeffler`: Loeffler, Ligtenberg and Moschytz's 1-D 8-point DCT (ICASSP 1989), 11
// multiplications and 29 additions, applied to the rows then the columns, in IEEE single precision.
// Its arithmetic, which every backend reproduces bit for bit:
// - Each statement of loeffler_forward_1d / loeffler_inverse_1d below is one or two float operations,
//   each rounded to nearest, evaluated exactly as parenthesised: `k * (p + q)` adds first, then
//   multiplies; `t + k * q` multiplies, then adds. No fused multiply-add (this file is compiled with
//   -ffp-contract=off; CUDA: __fmul_rn/__fadd_rn or -fmad=false; GLSL/SPIR-V: `precise`), no
//   reassociation, no wider intermediates (FLT_EVAL_METHOD 0). Constants are the double values rounded
//   to nearest float, written out below.
// - The 1-D flow graph computes sqrt(8) times the orthonormal DCT (outputs Y0 = x0 + ... + x7), so the
//   two passes give 8 times it: each 2-D result is multiplied by 0.125f (exact, a power of two), then
//   rounded halves away from zero (the inverse's also clipped to -256..255).
// - Forward: pass 1 transforms each row y (inputs f[y][0..7]) into t[y][0..7]; pass 2 each column u
//   (inputs t[0..7][u]) into G[0..7][u]; F = 0.125f * G.
// - Inverse: the transposed flow graph (same constants, same counts). Pass 1 each row v of
//   coefficients (inputs F[v][0..7]) into t[v][0..7]; pass 2 each column x into g[0..7][x];
//   f = 0.125f * g.
// The rotations use three multiplications: for o1 = k1 p + k2 q, o2 = k1 q - k2 p,
// t = k1 * (p + q), o1 = t + (k2 - k1) * q, o2 = t - (k1 + k2) * p; transposed, for
// p = k1 o1 - k2 o2, q = k2 o1 + k1 o2: t = k1 * (o1 + o2), p = t - (k1 + k2) * o2,
// q = t + (k2 - k1) * o1.
#include <array>

#include "dct_rounding.hpp"

namespace xme::reference {
namespace {

// With ck = cos(k pi / 16), sk = sin(k pi / 16):
constexpr float sqrt2 = 0x1.6a09e6p+0f;              // 1.41421354f
constexpr float sqrt2_c6 = 0x1.1517a8p-1f;           // sqrt(2) c6 = 0.541196108f
constexpr float sqrt2_c2_minus_c6 = 0x1.87de2ap-1f;  // sqrt(2) (c2 - c6) = 0.765366852f
constexpr float sqrt2_c2_plus_c6 = 0x1.d906bcp+0f;   // sqrt(2) (c2 + c6) = 1.84775901f
constexpr float c3 = 0x1.a9b662p-1f;                 // 0.831469595f
constexpr float s3_minus_c3 = -0x1.1a855ep-2f;       // -0.27589938f
constexpr float c3_plus_s3 = 0x1.63150cp+0f;         // 1.3870399f
constexpr float c1 = 0x1.f6297cp-1f;                 // 0.980785251f
constexpr float s1_minus_c1 = -0x1.92469cp-1f;       // -0.785694957f
constexpr float c1_plus_s1 = 0x1.2d062ep+0f;         // 1.17587554f
constexpr float two_d_scale = 0.125f;

using Row = std::array<float, 8>;

// Y = sqrt(8) * DCT-II(x): 11 multiplications, 29 additions.
Row loeffler_forward_1d(const Row& x) {
    // Stage 1: butterflies.
    const float a0 = x[0] + x[7];
    const float a7 = x[0] - x[7];
    const float a1 = x[1] + x[6];
    const float a6 = x[1] - x[6];
    const float a2 = x[2] + x[5];
    const float a5 = x[2] - x[5];
    const float a3 = x[3] + x[4];
    const float a4 = x[3] - x[4];
    Row y{};
    // Even part: Y0, Y4 by butterflies; Y2 = sqrt2 (c6 b2 + c2 b3), Y6 = sqrt2 (c6 b3 - c2 b2).
    const float b0 = a0 + a3;
    const float b3 = a0 - a3;
    const float b1 = a1 + a2;
    const float b2 = a1 - a2;
    y[0] = b0 + b1;
    y[4] = b0 - b1;
    const float even = sqrt2_c6 * (b2 + b3);
    y[2] = even + sqrt2_c2_minus_c6 * b3;
    y[6] = even - sqrt2_c2_plus_c6 * b2;
    // Odd part: rotation by c3 of (a4, a7): u4 = c3 a4 + s3 a7, u7 = c3 a7 - s3 a4.
    const float odd3 = c3 * (a4 + a7);
    const float u4 = odd3 + s3_minus_c3 * a7;
    const float u7 = odd3 - c3_plus_s3 * a4;
    // Rotation by c1 of (a5, a6): u5 = c1 a5 + s1 a6, u6 = c1 a6 - s1 a5.
    const float odd1 = c1 * (a5 + a6);
    const float u5 = odd1 + s1_minus_c1 * a6;
    const float u6 = odd1 - c1_plus_s1 * a5;
    // Stage 3: butterflies.
    const float v4 = u4 + u6;
    const float v6 = u4 - u6;
    const float v7 = u7 + u5;
    const float v5 = u7 - u5;
    // Stage 4.
    y[1] = v7 + v4;
    y[7] = v7 - v4;
    y[3] = sqrt2 * v5;
    y[5] = sqrt2 * v6;
    return y;
}

// x = sqrt(8) * DCT-II^T(Y): loeffler_forward_1d's flow graph transposed, statement by statement in
// reverse.
Row loeffler_inverse_1d(const Row& y) {
    // Stage 4 transposed.
    const float v7 = y[1] + y[7];
    const float v4 = y[1] - y[7];
    const float v5 = sqrt2 * y[3];
    const float v6 = sqrt2 * y[5];
    // Stage 3 transposed.
    const float u4 = v4 + v6;
    const float u6 = v4 - v6;
    const float u7 = v7 + v5;
    const float u5 = v7 - v5;
    // Rotations transposed: a4 = c3 u4 - s3 u7, a7 = s3 u4 + c3 u7; a5 = c1 u5 - s1 u6, a6 = s1 u5 + c1 u6.
    const float odd3 = c3 * (u4 + u7);
    const float a4 = odd3 - c3_plus_s3 * u7;
    const float a7 = odd3 + s3_minus_c3 * u4;
    const float odd1 = c1 * (u5 + u6);
    const float a5 = odd1 - c1_plus_s1 * u6;
    const float a6 = odd1 + s1_minus_c1 * u5;
    // Even part transposed: b2 = sqrt2 (c6 Y2 - c2 Y6), b3 = sqrt2 (c2 Y2 + c6 Y6).
    const float b0 = y[0] + y[4];
    const float b1 = y[0] - y[4];
    const float even = sqrt2_c6 * (y[2] + y[6]);
    const float b2 = even - sqrt2_c2_plus_c6 * y[6];
    const float b3 = even + sqrt2_c2_minus_c6 * y[2];
    const float a0 = b0 + b3;
    const float a3 = b0 - b3;
    const float a1 = b1 + b2;
    const float a2 = b1 - b2;
    // Stage 1 transposed.
    Row x{};
    x[0] = a0 + a7;
    x[7] = a0 - a7;
    x[1] = a1 + a6;
    x[6] = a1 - a6;
    x[2] = a2 + a5;
    x[5] = a2 - a5;
    x[3] = a3 + a4;
    x[4] = a3 - a4;
    return x;
}

// Rows, then columns, of a row-major block; returns the unscaled float result [row][column].
template <class OneD>
std::array<Row, 8> rows_then_columns(const Block8x8& block, OneD one_d) {
    std::array<Row, 8> pass1{};
    for (std::size_t r = 0; r < 8; ++r) {
        Row row{};
        for (std::size_t c = 0; c < 8; ++c) row[c] = static_cast<float>(block[8 * r + c]);
        pass1[r] = one_d(row);
    }
    std::array<Row, 8> pass2{};
    for (std::size_t c = 0; c < 8; ++c) {
        Row column{};
        for (std::size_t r = 0; r < 8; ++r) column[r] = pass1[r][c];
        const Row transformed = one_d(column);
        for (std::size_t r = 0; r < 8; ++r) pass2[r][c] = transformed[r];
    }
    return pass2;
}

}  // namespace

Block8x8 forward_dct_loeffler(const Block8x8& samples) {
    detail::require_dct_input(samples);
    const std::array<Row, 8> scaled = rows_then_columns(samples, loeffler_forward_1d);
    Block8x8 coefficients{};
    for (std::size_t v = 0; v < 8; ++v) {
        for (std::size_t u = 0; u < 8; ++u)
            coefficients[8 * v + u] = detail::round_coefficient(two_d_scale * scaled[v][u]);
    }
    return coefficients;
}

Block8x8 inverse_dct_loeffler(const Block8x8& coefficients) {
    const std::array<Row, 8> scaled = rows_then_columns(coefficients, loeffler_inverse_1d);
    Block8x8 samples{};
    for (std::size_t y = 0; y < 8; ++y) {
        for (std::size_t x = 0; x < 8; ++x)
            samples[8 * y + x] = detail::round_and_clip_sample(two_d_scale * scaled[y][x]);
    }
    return samples;
}

}  // namespace xme::reference
