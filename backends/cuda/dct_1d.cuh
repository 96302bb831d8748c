// SPEC §13's 1-D 8-point transforms on the device, ported statement by statement from the reference
// (engine/src/reference/dct_matrix.cpp, dct_loeffler.cpp), whose comments define the arithmetic.
// Bit-identity with the reference rests on three things, all kept here:
// - every operation is one IEEE single-precision operation rounded to nearest: __fadd_rn, __fsub_rn and
//   __fmul_rn are never contracted into a fused multiply-add (the reference is compiled with
//   -ffp-contract=off; nvcc would otherwise fuse `a + k * b`, whose single rounding differs);
// - the operations come in the reference's order and grouping (float addition is not associative);
// - the constants are the reference's float literals, digit for digit.
// Each functor maps in[0..7] to out[0..7]; `inverse` says which epilogue the 2-D kernel applies.
#pragma once

namespace xme::cuda::dct {

__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }

// ---- Variant `matrix`: out = S in (forward) or S^T in (inverse), 8 products summed in index order.

// sqrt(2) cos(k pi / 16) for k = 1..7 (k = 4 exactly 1): dct_matrix.cpp's table. k = 0 and 8 never
// occur in the basis ((2x + 1) u is odd times u < 8).
__host__ __device__ constexpr float sqrt2_cos(int k) {
    switch (k) {
        case 1:
            return 0x1.63150cp+0f;  // 1.3870399f
        case 2:
            return 0x1.4e7aeap+0f;  // 1.30656302f
        case 3:
            return 0x1.2d062ep+0f;  // 1.17587554f
        case 4:
            return 1.0f;
        case 5:
            return 0x1.92469cp-1f;  // 0.785694957f
        case 6:
            return 0x1.1517a8p-1f;  // 0.541196108f
        case 7:
            return 0x1.1a855ep-2f;  // 0.27589938f
        default:
            return 0.0f;
    }
}

// S[u][x] = 1 for u = 0, else sqrt(2) cos((2x + 1) u pi / 16), the sign by the angle's quadrant
// (negation is exact). Called with constant arguments only (unrolled loops): it folds to an immediate
// operand of the multiplication, so the basis costs neither registers nor memory traffic.
__host__ __device__ constexpr float basis(int u, int x) {
    if (u == 0) return 1.0f;
    const int m = (2 * x + 1) * u % 32;
    if (m <= 8) return sqrt2_cos(m);
    if (m <= 16) return -sqrt2_cos(16 - m);
    if (m <= 24) return -sqrt2_cos(m - 16);
    return sqrt2_cos(32 - m);
}

// out[u] = sum over x ascending of S[u][x] * in[x], from +0.0f.
struct MatrixForward {
    static constexpr bool inverse = false;
    __device__ __forceinline__ void operator()(const float (&in)[8], float (&out)[8]) const {
#pragma unroll
        for (int u = 0; u < 8; ++u) {
            float acc = 0.0f;
#pragma unroll
            for (int x = 0; x < 8; ++x) acc = add(acc, mul(basis(u, x), in[x]));
            out[u] = acc;
        }
    }
};

// out[x] = sum over u ascending of S[u][x] * in[u], from +0.0f.
struct MatrixInverse {
    static constexpr bool inverse = true;
    __device__ __forceinline__ void operator()(const float (&in)[8], float (&out)[8]) const {
#pragma unroll
        for (int x = 0; x < 8; ++x) {
            float acc = 0.0f;
#pragma unroll
            for (int u = 0; u < 8; ++u) acc = add(acc, mul(basis(u, x), in[u]));
            out[x] = acc;
        }
    }
};

// ---- Variant `loeffler`: 11 multiplications and 29 additions, dct_loeffler.cpp's flow graph.

// With ck = cos(k pi / 16), sk = sin(k pi / 16): dct_loeffler.cpp's constants.
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

// loeffler_forward_1d: Y = sqrt(8) DCT-II(x).
struct LoefflerForward {
    static constexpr bool inverse = false;
    __device__ __forceinline__ void operator()(const float (&x)[8], float (&y)[8]) const {
        // Stage 1: butterflies.
        const float a0 = add(x[0], x[7]);
        const float a7 = sub(x[0], x[7]);
        const float a1 = add(x[1], x[6]);
        const float a6 = sub(x[1], x[6]);
        const float a2 = add(x[2], x[5]);
        const float a5 = sub(x[2], x[5]);
        const float a3 = add(x[3], x[4]);
        const float a4 = sub(x[3], x[4]);
        // Even part.
        const float b0 = add(a0, a3);
        const float b3 = sub(a0, a3);
        const float b1 = add(a1, a2);
        const float b2 = sub(a1, a2);
        y[0] = add(b0, b1);
        y[4] = sub(b0, b1);
        const float even = mul(sqrt2_c6, add(b2, b3));
        y[2] = add(even, mul(sqrt2_c2_minus_c6, b3));
        y[6] = sub(even, mul(sqrt2_c2_plus_c6, b2));
        // Odd part: the rotations by c3 of (a4, a7) and by c1 of (a5, a6).
        const float odd3 = mul(c3, add(a4, a7));
        const float u4 = add(odd3, mul(s3_minus_c3, a7));
        const float u7 = sub(odd3, mul(c3_plus_s3, a4));
        const float odd1 = mul(c1, add(a5, a6));
        const float u5 = add(odd1, mul(s1_minus_c1, a6));
        const float u6 = sub(odd1, mul(c1_plus_s1, a5));
        // Stage 3: butterflies.
        const float v4 = add(u4, u6);
        const float v6 = sub(u4, u6);
        const float v7 = add(u7, u5);
        const float v5 = sub(u7, u5);
        // Stage 4.
        y[1] = add(v7, v4);
        y[7] = sub(v7, v4);
        y[3] = mul(sqrt2, v5);
        y[5] = mul(sqrt2, v6);
    }
};

// loeffler_inverse_1d: x = sqrt(8) DCT-II^T(Y), the forward graph transposed.
struct LoefflerInverse {
    static constexpr bool inverse = true;
    __device__ __forceinline__ void operator()(const float (&y)[8], float (&x)[8]) const {
        // Stage 4 transposed.
        const float v7 = add(y[1], y[7]);
        const float v4 = sub(y[1], y[7]);
        const float v5 = mul(sqrt2, y[3]);
        const float v6 = mul(sqrt2, y[5]);
        // Stage 3 transposed.
        const float u4 = add(v4, v6);
        const float u6 = sub(v4, v6);
        const float u7 = add(v7, v5);
        const float u5 = sub(v7, v5);
        // Rotations transposed.
        const float odd3 = mul(c3, add(u4, u7));
        const float a4 = sub(odd3, mul(c3_plus_s3, u7));
        const float a7 = add(odd3, mul(s3_minus_c3, u4));
        const float odd1 = mul(c1, add(u5, u6));
        const float a5 = sub(odd1, mul(c1_plus_s1, u6));
        const float a6 = add(odd1, mul(s1_minus_c1, u5));
        // Even part transposed.
        const float b0 = add(y[0], y[4]);
        const float b1 = sub(y[0], y[4]);
        const float even = mul(sqrt2_c6, add(y[2], y[6]));
        const float b2 = sub(even, mul(sqrt2_c2_plus_c6, y[6]));
        const float b3 = add(even, mul(sqrt2_c2_minus_c6, y[2]));
        const float a0 = add(b0, b3);
        const float a3 = sub(b0, b3);
        const float a1 = add(b1, b2);
        const float a2 = sub(b1, b2);
        // Stage 1 transposed.
        x[0] = add(a0, a7);
        x[7] = sub(a0, a7);
        x[1] = add(a1, a6);
        x[6] = sub(a1, a6);
        x[2] = add(a2, a5);
        x[5] = sub(a2, a5);
        x[3] = add(a3, a4);
        x[4] = sub(a3, a4);
    }
};

}  // namespace xme::cuda::dct
