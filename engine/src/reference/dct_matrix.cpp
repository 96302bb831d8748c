// SPEC §13, variant `matrix`: the 2-D DCT as two passes of 8 multiply-adds per coefficient, in IEEE
// single precision. Its arithmetic, which every backend reproduces bit for bit:
// - The basis is scaled by sqrt(8) so that its rows 0 and 4 are exactly 1 and +-1:
//   S[u][x] = sqrt(8) * s(u) * cos((2x + 1) u pi / 16), s(0) = 1/sqrt(8), s(u) = 1/2, i.e. S[0][x] = 1
//   and S[u][x] = sqrt(2) cos((2x + 1) u pi / 16): the float constants below (each the double value
//   rounded to nearest float), with a sign by the angle's quadrant. The two passes give 8 times the
//   orthonormal DCT, so the result is multiplied by 0.125f (exact, a power of two). Why: with integer
//   samples F(0,0) = sum / 8 is a half exactly once in 8 blocks; computed exactly it rounds as SPEC says
//   (away from zero), where the float 1/sqrt(8) squared (below 1/8) would round every such half toward
//   zero: an error at DC in one block of 8, a mean squared error near 0.125 there, past IEEE 1180's 0.06.
// - Every sum is acc = +0.0f, then acc = acc + (S * value) for the index ascending 0..7: one float
//   multiplication rounded, then one float addition rounded, in that order. No fused multiply-add
//   (this file is compiled with -ffp-contract=off; CUDA: __fmul_rn/__fadd_rn or -fmad=false; GLSL/SPIR-V:
//   `precise`/NoContraction), no reassociation, no wider intermediates (FLT_EVAL_METHOD 0).
// - Forward: pass 1 over rows, t[y][u] = sum_x S[u][x] * f[y][x]; pass 2 over columns,
//   G[v][u] = sum_y S[v][y] * t[y][u]; F = 0.125f * G, rounded (halves away from zero) to int16.
// - Inverse: pass 1 over rows, t[v][x] = sum_u S[u][x] * F[v][u]; pass 2 over columns,
//   g[y][x] = sum_v S[v][y] * t[v][x]; f = 0.125f * g, rounded (halves away from zero), clipped to
//   -256..255.
#include <array>

#include "dct_rounding.hpp"

namespace xme::reference {
namespace {

// sqrt2_cos[k] = sqrt(2) cos(k pi / 16) for k = 0..8; k = 0 and 8 never occur in S ((2x + 1) u is odd
// times u < 8), k = 4 is exactly 1.
constexpr std::array<float, 9> sqrt2_cos = {
    0x1.6a09e6p+0f,  // 1.41421354f (unused)
    0x1.63150cp+0f,  // 1.3870399f
    0x1.4e7aeap+0f,  // 1.30656302f
    0x1.2d062ep+0f,  // 1.17587554f
    1.0f,
    0x1.92469cp-1f,  // 0.785694957f
    0x1.1517a8p-1f,  // 0.541196108f
    0x1.1a855ep-2f,  // 0.27589938f
    0.0f,
};
constexpr float two_d_scale = 0.125f;

// sqrt(2) cos(m pi / 16) for any m >= 0, from the first quadrant's table (negation is exact).
constexpr float sqrt2_cos_of(int m) {
    m %= 32;
    if (m <= 8) return sqrt2_cos[static_cast<std::size_t>(m)];
    if (m <= 16) return -sqrt2_cos[static_cast<std::size_t>(16 - m)];
    if (m <= 24) return -sqrt2_cos[static_cast<std::size_t>(m - 16)];
    return sqrt2_cos[static_cast<std::size_t>(32 - m)];
}

constexpr std::array<std::array<float, 8>, 8> make_basis() {
    std::array<std::array<float, 8>, 8> basis{};
    for (int u = 0; u < 8; ++u) {
        for (int x = 0; x < 8; ++x) {
            basis[static_cast<std::size_t>(u)][static_cast<std::size_t>(x)] =
                u == 0 ? 1.0f : sqrt2_cos_of((2 * x + 1) * u);
        }
    }
    return basis;
}

// basis[u][x] = S[u][x].
constexpr std::array<std::array<float, 8>, 8> basis = make_basis();

using FloatBlock = std::array<std::array<float, 8>, 8>;  // [row][column]

FloatBlock to_float(const Block8x8& block) {
    FloatBlock values{};
    for (std::size_t r = 0; r < 8; ++r) {
        for (std::size_t c = 0; c < 8; ++c) values[r][c] = static_cast<float>(block[8 * r + c]);
    }
    return values;
}

}  // namespace

Block8x8 forward_dct_matrix(const Block8x8& samples) {
    detail::require_dct_input(samples);
    const FloatBlock f = to_float(samples);  // f[y][x]
    FloatBlock t{};                          // t[y][u]
    for (std::size_t y = 0; y < 8; ++y) {
        for (std::size_t u = 0; u < 8; ++u) {
            float acc = 0.0f;
            for (std::size_t x = 0; x < 8; ++x) acc = acc + basis[u][x] * f[y][x];
            t[y][u] = acc;
        }
    }
    Block8x8 coefficients{};
    for (std::size_t v = 0; v < 8; ++v) {
        for (std::size_t u = 0; u < 8; ++u) {
            float acc = 0.0f;
            for (std::size_t y = 0; y < 8; ++y) acc = acc + basis[v][y] * t[y][u];
            coefficients[8 * v + u] = detail::round_coefficient(two_d_scale * acc);
        }
    }
    return coefficients;
}

Block8x8 inverse_dct_matrix(const Block8x8& coefficients) {
    const FloatBlock F = to_float(coefficients);  // F[v][u]
    FloatBlock t{};                               // t[v][x]
    for (std::size_t v = 0; v < 8; ++v) {
        for (std::size_t x = 0; x < 8; ++x) {
            float acc = 0.0f;
            for (std::size_t u = 0; u < 8; ++u) acc = acc + basis[u][x] * F[v][u];
            t[v][x] = acc;
        }
    }
    Block8x8 samples{};
    for (std::size_t y = 0; y < 8; ++y) {
        for (std::size_t x = 0; x < 8; ++x) {
            float acc = 0.0f;
            for (std::size_t v = 0; v < 8; ++v) acc = acc + basis[v][y] * t[v][x];
            samples[8 * y + x] = detail::round_and_clip_sample(two_d_scale * acc);
        }
    }
    return samples;
}

}  // namespace xme::reference
