// The 128-bit operations of the SIMD operation kernels (SSE2), included by operation_kernels_sse2.cpp and
// operation_kernels_avx2.cpp so that each gets its own copy compiled with its own flags.
#pragma once

#include <emmintrin.h>

#include <cstdint>
#include <cstring>

namespace xme::cpu {
namespace {  // NOLINT(cert-dcl59-cpp,google-build-namespaces)

inline std::uint8_t clip_byte(int value) {
    return static_cast<std::uint8_t>(value < 0 ? 0 : value > 255 ? 255 : value);
}

struct X86Common {
    using Bytes16 = __m128i;

    static __m128i zero() { return _mm_setzero_si128(); }
    static __m128i load16(const std::uint8_t* p) {
        return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    }
    static __m128i load8(const std::uint8_t* p) {
        return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    }
    static __m128i load4(const std::uint8_t* p) {
        std::int32_t word = 0;
        std::memcpy(&word, p, 4);
        return _mm_cvtsi32_si128(word);
    }
    static __m128i sad(__m128i a, __m128i b) { return _mm_sad_epu8(a, b); }
    static __m128i add64(__m128i a, __m128i b) { return _mm_add_epi64(a, b); }
    static std::uint32_t sum_lanes(__m128i v) {
        return static_cast<std::uint32_t>(_mm_cvtsi128_si32(v) + _mm_cvtsi128_si32(_mm_srli_si128(v, 8)));
    }

    static __m128i widen8(const std::uint8_t* p) { return _mm_unpacklo_epi8(load8(p), _mm_setzero_si128()); }
    static __m128i abs16(__m128i v) { return _mm_max_epi16(v, _mm_sub_epi16(_mm_setzero_si128(), v)); }

    // Two 4x4 tiles side by side (or one, when only 4 columns remain: the zero columns add nothing).
    static std::uint32_t hadamard_tiles8(const std::uint8_t* current, std::ptrdiff_t current_stride,
                                         const std::uint8_t* p, std::ptrdiff_t p_stride,
                                         const std::uint8_t* q, std::ptrdiff_t q_stride, int columns) {
        __m128i d[4];
        for (int j = 0; j < 4; ++j) {
            const std::uint8_t* c = current + j * current_stride;
            const std::uint8_t* a = p + j * p_stride;
            const std::uint8_t* b = q + j * q_stride;
            const __m128i cv = columns >= 8 ? load8(c) : load4(c);
            const __m128i pv =
                columns >= 8 ? _mm_avg_epu8(load8(a), load8(b)) : _mm_avg_epu8(load4(a), load4(b));
            d[j] = _mm_sub_epi16(_mm_unpacklo_epi8(cv, _mm_setzero_si128()),
                                 _mm_unpacklo_epi8(pv, _mm_setzero_si128()));
        }
        return sum_abs_transformed128(d);
    }

    // Butterflies across d[0..3], in place.
    static void butterflies(__m128i* d) {
        const __m128i s01 = _mm_add_epi16(d[0], d[1]);
        const __m128i m01 = _mm_sub_epi16(d[0], d[1]);
        const __m128i s23 = _mm_add_epi16(d[2], d[3]);
        const __m128i m23 = _mm_sub_epi16(d[2], d[3]);
        d[0] = _mm_add_epi16(s01, s23);
        d[1] = _mm_sub_epi16(s01, s23);
        d[2] = _mm_add_epi16(m01, m23);
        d[3] = _mm_sub_epi16(m01, m23);
    }

    // d[j] holds row j of two tiles; transform the columns, transpose each tile, transform again.
    static std::uint32_t sum_abs_transformed128(__m128i* d) {
        butterflies(d);
        const __m128i t0 = _mm_unpacklo_epi16(d[0], d[1]);
        const __m128i t1 = _mm_unpacklo_epi16(d[2], d[3]);
        const __m128i t2 = _mm_unpackhi_epi16(d[0], d[1]);
        const __m128i t3 = _mm_unpackhi_epi16(d[2], d[3]);
        const __m128i u0 = _mm_unpacklo_epi32(t0, t1);
        const __m128i u1 = _mm_unpackhi_epi32(t0, t1);
        const __m128i u2 = _mm_unpacklo_epi32(t2, t3);
        const __m128i u3 = _mm_unpackhi_epi32(t2, t3);
        d[0] = _mm_unpacklo_epi64(u0, u2);
        d[1] = _mm_unpackhi_epi64(u0, u2);
        d[2] = _mm_unpacklo_epi64(u1, u3);
        d[3] = _mm_unpackhi_epi64(u1, u3);
        butterflies(d);
        // Each |coefficient| <= 16 * 255, so four of them still fit in 16 bits.
        const __m128i sum16 =
            _mm_add_epi16(_mm_add_epi16(abs16(d[0]), abs16(d[1])), _mm_add_epi16(abs16(d[2]), abs16(d[3])));
        __m128i sum32 = _mm_madd_epi16(sum16, _mm_set1_epi16(1));
        sum32 = _mm_add_epi32(sum32, _mm_shuffle_epi32(sum32, 0x4E));
        sum32 = _mm_add_epi32(sum32, _mm_shuffle_epi32(sum32, 0xB1));
        return static_cast<std::uint32_t>(_mm_cvtsi128_si32(sum32));
    }

    // e - 5f + 20g + 20h - 5i + j on 16-bit lanes (exact: every result fits, and wrapping intermediates
    // cancel in two's complement).
    static __m128i six_tap16(__m128i e, __m128i f, __m128i g, __m128i h, __m128i i, __m128i j) {
        const __m128i outer = _mm_add_epi16(e, j);
        const __m128i inner = _mm_add_epi16(g, h);
        const __m128i side = _mm_add_epi16(f, i);
        return _mm_add_epi16(_mm_sub_epi16(outer, _mm_mullo_epi16(side, _mm_set1_epi16(5))),
                             _mm_mullo_epi16(inner, _mm_set1_epi16(20)));
    }

    // Unrounded horizontal 6-tap of n outputs: out[x] from s[x - 2 .. x + 3].
    static void six_tap_row(const std::uint8_t* s, int /*unused*/, int n, std::int16_t* out) {
        int x = 0;
        for (; x + 8 <= n; x += 8) {
            const __m128i v = six_tap16(widen8(s + x - 2), widen8(s + x - 1), widen8(s + x),
                                        widen8(s + x + 1), widen8(s + x + 2), widen8(s + x + 3));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + x), v);
        }
        for (; x < n; ++x) {
            out[x] = static_cast<std::int16_t>(s[x - 2] - 5 * s[x - 1] + 20 * s[x] + 20 * s[x + 1] -
                                               5 * s[x + 2] + s[x + 3]);
        }
    }

    // clip255((v + 16) >> 5) of n values.
    static void round_row(const std::int16_t* v, int n, std::uint8_t* out) {
        int x = 0;
        for (; x + 8 <= n; x += 8) {
            const __m128i r = _mm_srai_epi16(
                _mm_add_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + x)), _mm_set1_epi16(16)),
                5);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(out + x), _mm_packus_epi16(r, r));
        }
        for (; x < n; ++x) out[x] = clip_byte((v[x] + 16) >> 5);
    }

    // clip255((vertical 6-tap + 16) >> 5) of n columns, rows s - 2 stride .. s + 3 stride.
    static void six_tap_column_rounded(const std::uint8_t* s, std::ptrdiff_t stride, int n,
                                       std::uint8_t* out) {
        int x = 0;
        for (; x + 8 <= n; x += 8) {
            const __m128i v =
                six_tap16(widen8(s + x - 2 * stride), widen8(s + x - stride), widen8(s + x),
                          widen8(s + x + stride), widen8(s + x + 2 * stride), widen8(s + x + 3 * stride));
            const __m128i r = _mm_srai_epi16(_mm_add_epi16(v, _mm_set1_epi16(16)), 5);
            _mm_storel_epi64(reinterpret_cast<__m128i*>(out + x), _mm_packus_epi16(r, r));
        }
        for (; x < n; ++x) {
            const std::uint8_t* c = s + x;
            out[x] = clip_byte((c[-2 * stride] - 5 * c[-stride] + 20 * c[0] + 20 * c[stride] -
                                5 * c[2 * stride] + c[3 * stride] + 16) >>
                               5);
        }
    }

    // clip255((6-tap over rows b1, b1 + n, ..., b1 + 5n) + 512) >> 10): 32-bit sums by pairwise madd.
    static void six_tap_centre(const std::int16_t* const* b1, int n, std::uint8_t* out) {
        int x = 0;
        const __m128i taps01 = _mm_setr_epi16(1, -5, 1, -5, 1, -5, 1, -5);
        const __m128i taps23 = _mm_set1_epi16(20);
        const __m128i taps45 = _mm_setr_epi16(-5, 1, -5, 1, -5, 1, -5, 1);
        for (; x + 8 <= n; x += 8) {
            __m128i r[6];
            for (int k = 0; k < 6; ++k) r[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b1[k] + x));
            const auto half = [&](auto unpack) {
                return _mm_add_epi32(_mm_add_epi32(_mm_madd_epi16(unpack(r[0], r[1]), taps01),
                                                   _mm_madd_epi16(unpack(r[2], r[3]), taps23)),
                                     _mm_madd_epi16(unpack(r[4], r[5]), taps45));
            };
            const __m128i low = half([](__m128i a, __m128i b) { return _mm_unpacklo_epi16(a, b); });
            const __m128i high = half([](__m128i a, __m128i b) { return _mm_unpackhi_epi16(a, b); });
            const __m128i bias = _mm_set1_epi32(512);
            const __m128i packed = _mm_packs_epi32(_mm_srai_epi32(_mm_add_epi32(low, bias), 10),
                                                   _mm_srai_epi32(_mm_add_epi32(high, bias), 10));
            _mm_storel_epi64(reinterpret_cast<__m128i*>(out + x), _mm_packus_epi16(packed, packed));
        }
        for (; x < n; ++x) {
            out[x] = clip_byte(
                (b1[0][x] - 5 * b1[1][x] + 20 * b1[2][x] + 20 * b1[3][x] - 5 * b1[4][x] + b1[5][x] + 512) >>
                10);
        }
    }
};

}  // namespace
}  // namespace xme::cpu
