// The operation kernels with AVX-512BW: AVX2's set (operation_kernels_avx2.cpp) but for the quarter-pel
// refinement's two: the half-sample planes (below) and the SATD against a transformed current block, which
// the refinement calls up to 17 times a block. The SATD runs AVX2's scheme (a row broadcast into both
// halves of a 256-bit lane, one vpmaddubsw for the first horizontal butterfly, the rows' butterflies across
// registers, the last stage as a max) on two bands of 4 rows at once: each 512-bit register holds row j of
// band y in its low half and row j of band y + 4 in its high half, so a 16x16 block takes 8 transforms'
// registers where AVX2 takes 16. The 16x16 SAD of four candidates stays AVX2's: on 512-bit registers it
// was no faster, the candidates' row loads setting its pace (docs/cpu.md, "Tried and not kept").
// GCC 12's AVX-512 intrinsics pass an `_mm512_undefined` operand that -W(maybe-)uninitialized flags wherever
// they are inlined (GCC bug 105593, fixed in GCC 13); the operand is never read.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <cstdint>

#include "cpu_kernels.hpp"
#include "operation_kernels_simd.hpp"
#include "qpel_stages.hpp"

namespace xme::cpu {
namespace {

// vpmaddubsw weights: per 256-bit half, pair sums in the low 128 bits, pair differences in the high.
[[gnu::always_inline]] inline __m512i pair_sum_diff() {
    const __m256i half = _mm256_setr_epi8(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  //
                                          1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1);
    return _mm512_broadcast_i64x4(half);
}

// Row `upper` of one band in both quarters of the low half, row `lower` of the next in the high half.
[[gnu::always_inline]] inline __m512i two_rows(const std::uint8_t* upper, const std::uint8_t* lower) {
    const __m256i low = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(upper)));
    const __m256i high =
        _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lower)));
    return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
}

[[gnu::always_inline]] inline void butterflies(__m512i d[4]) {
    const __m512i s01 = _mm512_add_epi16(d[0], d[1]);
    const __m512i m01 = _mm512_sub_epi16(d[0], d[1]);
    const __m512i s23 = _mm512_add_epi16(d[2], d[3]);
    const __m512i m23 = _mm512_sub_epi16(d[2], d[3]);
    d[0] = _mm512_add_epi16(s01, s23);
    d[1] = _mm512_sub_epi16(s01, s23);
    d[2] = _mm512_add_epi16(m01, m23);
    d[3] = _mm512_sub_epi16(m01, m23);
}

// The transform, up to its last stage, of the 16 columns at p of rows 0..3 and 4..7 (two bands). `Averaged`
// averages two planes (H.264's quarter samples).
template <bool Averaged>
[[gnu::always_inline]] inline void transform_band_pair(const std::uint8_t* p, std::ptrdiff_t p_stride,
                                                       const std::uint8_t* q, std::ptrdiff_t q_stride,
                                                       __m512i d[4]) {
    for (int j = 0; j < 4; ++j) {
        __m512i samples = two_rows(p + j * p_stride, p + (j + 4) * p_stride);
        if constexpr (Averaged)
            samples = _mm512_avg_epu8(samples, two_rows(q + j * q_stride, q + (j + 4) * q_stride));
        d[j] = _mm512_maddubs_epi16(samples, pair_sum_diff());
    }
    butterflies(d);
}

// The last stage and the sum of magnitudes of T(current) - T(prediction), as 32-bit lanes.
[[gnu::always_inline]] inline __m512i magnitudes(const __m512i* current, const __m512i prediction[4]) {
    __m512i sum = _mm512_setzero_si512();
    for (int j = 0; j < 4; ++j) {
        const __m512i magnitude =
            _mm512_abs_epi16(_mm512_sub_epi16(_mm512_load_si512(current + j), prediction[j]));
        // Each 16-bit lane <= 8 * 255 after three stages; four of them fit.
        sum = _mm512_add_epi16(sum, _mm512_max_epi16(magnitude, _mm512_srli_epi32(magnitude, 16)));
    }
    return _mm512_madd_epi16(sum, _mm512_set1_epi32(1));  // the low 16 bits of each pair
}

// Pairs of bands top to bottom, 16-wide strips left to right, as transform_current_avx512 stored them.
template <bool Averaged>
[[gnu::always_inline]] inline std::uint32_t satd_band_pairs(const __m512i* current, const std::uint8_t* p,
                                                            std::ptrdiff_t p_stride, const std::uint8_t* q,
                                                            std::ptrdiff_t q_stride, int width, int height,
                                                            std::uint32_t limit) {
    __m512i total = _mm512_setzero_si512();
    // The limit is tested once, at half the rows, as AVX2's kernel does (docs/cpu.md, "Sub-pel refinement").
    for (int y = 0; y < height; y += 8) {
        if (2 * y == height && limit != satd_exact &&
            static_cast<std::uint32_t>(_mm512_reduce_add_epi32(total)) > limit) {
            break;
        }
        for (int x = 0; x < width; x += 16, current += 4) {
            __m512i d[4];
            transform_band_pair<Averaged>(p + y * p_stride + x, p_stride, q + y * q_stride + x, q_stride, d);
            total = _mm512_add_epi32(total, magnitudes(current, d));
        }
    }
    return static_cast<std::uint32_t>(_mm512_reduce_add_epi32(total));
}

// Widths that are multiples of 16, heights of 8: the rest is left to the direct SATD.
bool transform_current_avx512(const std::uint8_t* current, std::ptrdiff_t current_stride, int width,
                              int height, TransformedCurrent& out) {
    if (width % 16 != 0 || height % 8 != 0 || width * height > TransformedCurrent::max_samples) return false;
    auto* bands = reinterpret_cast<__m512i*>(out.words);
    for (int y = 0; y < height; y += 8) {
        for (int x = 0; x < width; x += 16, bands += 4) {
            const std::uint8_t* rows = current + y * current_stride + x;
            __m512i d[4];
            transform_band_pair<false>(rows, current_stride, rows, current_stride, d);
            for (int j = 0; j < 4; ++j) _mm512_store_si512(bands + j, d[j]);
        }
    }
    return true;
}

std::uint32_t satd_transformed_avx512(const TransformedCurrent& current, const std::uint8_t* p,
                                      std::ptrdiff_t p_stride, const std::uint8_t* q, std::ptrdiff_t q_stride,
                                      int width, int height, std::uint32_t limit) {
    const auto* bands = reinterpret_cast<const __m512i*>(current.words);
    const bool one_plane = p == q && p_stride == q_stride;  // a half-sample position: no average
    const auto pairs = [&](int w, int h) __attribute__((always_inline)) {
        if (one_plane) return satd_band_pairs<false>(bands, p, p_stride, q, q_stride, w, h, limit);
        return satd_band_pairs<true>(bands, p, p_stride, q, q_stride, w, h, limit);
    };
    // The refinements' usual size with its loops unrolled (constants in place of width and height).
    if (width == 16 && height == 16) return pairs(16, 16);
    return pairs(width, height);
}

// The refinement's 16x16 case around this set's SATD, inlined, every SATD whole: with two band pairs a
// 16x16 SATD, the early stop after the first lost more to mispredicted branches than it saved, on the Zen 5
// dev machine (xme_cpu_searches, docs/cpu.md, "Sub-pel refinement").
SubpelResult refine_qpel16_avx512(const IntegerBlock& block, MotionVector integer_pel,
                                  const QpelNeighbourhood& neighbourhood, const std::uint8_t* current,
                                  std::ptrdiff_t current_stride) {
    TransformedCurrent transformed;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
    transform_current_avx512(current, current_stride, 16, 16, transformed);
    const auto* bands = reinterpret_cast<const __m512i*>(transformed.words);
    return qpel_stages(
        block, integer_pel, neighbourhood,
        [bands](const QpelPrediction& r, std::uint32_t /*limit*/) __attribute__((always_inline)) {
            if (r.p == r.q && r.p_stride == r.q_stride)  // a half-sample position: no average
                return satd_band_pairs<false>(bands, r.p, r.p_stride, r.q, r.q_stride, 16, 16, satd_exact);
            return satd_band_pairs<true>(bands, r.p, r.p_stride, r.q, r.q_stride, 16, 16, satd_exact);
        });
}

// The 6-tap arithmetic of the half-sample planes, 32 outputs a register (AVX2's, operation_kernels_avx2.cpp,
// on twice the lanes), a strip's last width % 32 columns by masked loads and stores.
struct Avx512PlaneOps {
    // The first min(n, 32) lanes of 32.
    static __mmask32 first_lanes(int n) { return n >= 32 ? 0xFFFFFFFFu : (__mmask32{1} << n) - 1; }
    // 32 bytes widened to words; bytes past the mask read as 0 and are never stored.
    static __m512i widen32(const std::uint8_t* p, __mmask32 mask) {
        return _mm512_cvtepu8_epi16(_mm512_castsi512_si256(_mm512_maskz_loadu_epi8(__mmask64{mask}, p)));
    }
    static __m512i six_tap(__m512i e, __m512i f, __m512i g, __m512i h, __m512i i, __m512i j) {
        const __m512i outer = _mm512_add_epi16(e, j);
        const __m512i inner = _mm512_add_epi16(g, h);
        const __m512i side = _mm512_add_epi16(f, i);
        return _mm512_add_epi16(_mm512_sub_epi16(outer, _mm512_mullo_epi16(side, _mm512_set1_epi16(5))),
                                _mm512_mullo_epi16(inner, _mm512_set1_epi16(20)));
    }
    // clip255((v + 16) >> 5) of the words under the mask.
    static void store_rounded(__m512i v, __mmask32 mask, std::uint8_t* out) {
        const __m512i rounded = _mm512_srai_epi16(_mm512_add_epi16(v, _mm512_set1_epi16(16)), 5);
        _mm512_mask_cvtusepi16_storeu_epi8(out, mask, _mm512_max_epi16(rounded, _mm512_setzero_si512()));
    }
    // j from six b1 rows in 16-bit lanes, exactly as AVX2's six_tap_centre (its comment has the proof),
    // before the clip.
    static __m512i centre_words(const __m512i r[6]) {
        const __m512i a = _mm512_add_epi16(r[0], r[5]);
        const __m512i b = _mm512_add_epi16(r[1], r[4]);
        const __m512i c = _mm512_add_epi16(r[2], r[3]);
        const __m512i u = _mm512_sub_epi16(_mm512_srai_epi16(_mm512_sub_epi16(a, b), 2), b);
        const __m512i half_sum =
            _mm512_add_epi16(_mm512_add_epi16(_mm512_srai_epi16(u, 1), _mm512_srai_epi16(c, 1)),
                             _mm512_and_si512(_mm512_and_si512(u, c), _mm512_set1_epi16(1)));
        const __m512i w = _mm512_add_epi16(_mm512_srai_epi16(half_sum, 1), c);
        return _mm512_srai_epi16(_mm512_add_epi16(w, _mm512_set1_epi16(32)), 6);
    }
};

// The three planes a strip of 32 columns at a time, down all the rows: the six rows of b1 the centre
// filter reads and the six widened rows the vertical one reads stay in registers, each row filtered and
// widened once, where the row-at-a-time form filtered b1 rows into memory and widened each source row six
// times for the vertical taps (docs/cpu.md, "Sub-pel refinement"). Needs no scratch.
void half_pel_planes_avx512(const std::uint8_t* source, std::ptrdiff_t stride, int width, int rows,
                            std::uint8_t* horizontal, std::uint8_t* vertical, std::uint8_t* centre,
                            std::int32_t* /*scratch*/) {
    using Ops = Avx512PlaneOps;
    for (int x = 0; x < width; x += 32) {
        const __mmask32 mask = Ops::first_lanes(width - x);
        const std::uint8_t* strip = source + x;
        const auto b1_row = [&](int r) __attribute__((always_inline)) {
            const std::uint8_t* s = strip + r * stride;
            return Ops::six_tap(Ops::widen32(s - 2, mask), Ops::widen32(s - 1, mask), Ops::widen32(s, mask),
                                Ops::widen32(s + 1, mask), Ops::widen32(s + 2, mask),
                                Ops::widen32(s + 3, mask));
        };
        // Slots 0 .. 5: rows y - 2 .. y + 3 once the row loop has moved them down.
        __m512i b1[6];
        __m512i samples[6];
        for (int k = 1; k < 6; ++k) {
            b1[k] = b1_row(k - 3);
            samples[k] = Ops::widen32(strip + (k - 3) * stride, mask);
        }
        for (int y = 0; y < rows; ++y) {
            for (int k = 0; k < 5; ++k) {
                b1[k] = b1[k + 1];
                samples[k] = samples[k + 1];
            }
            b1[5] = b1_row(y + 3);
            samples[5] = Ops::widen32(strip + (y + 3) * stride, mask);
            const std::ptrdiff_t out = static_cast<std::ptrdiff_t>(y) * width + x;
            Ops::store_rounded(b1[2], mask, horizontal + out);
            Ops::store_rounded(
                Ops::six_tap(samples[0], samples[1], samples[2], samples[3], samples[4], samples[5]), mask,
                vertical + out);
            _mm512_mask_cvtusepi16_storeu_epi8(
                centre + out, mask, _mm512_max_epi16(Ops::centre_words(b1), _mm512_setzero_si512()));
        }
    }
}

}  // namespace

OperationKernels avx512bw_operation_kernels() {
    OperationKernels kernels = avx2_operation_kernels();
    kernels.half_pel_planes = &half_pel_planes_avx512;
    kernels.transform_current = &transform_current_avx512;
    kernels.satd_transformed = &satd_transformed_avx512;
    kernels.refine_qpel16 = &refine_qpel16_avx512;
    return kernels;
}

}  // namespace xme::cpu
