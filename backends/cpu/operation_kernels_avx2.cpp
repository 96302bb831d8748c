// The operation kernels with AVX2: SATD over four 4x4 tiles per 256-bit register (the SSE2 transpose
// runs in each 128-bit lane); SAD of 16-wide blocks two rows per register; the 6-tap filter 16 samples
// per register; the other SAD sizes and the filter's last columns as SSE2 (AVX2's VEX encoding).
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "operation_kernels_simd.hpp"
#include "operation_kernels_x86.hpp"
#include "qpel_stages.hpp"
#include "tz_search_impl.hpp"

namespace xme::cpu {
namespace {

// The sum of the eight 32-bit lanes.
std::uint32_t horizontal_sum(__m256i lanes) {
    __m128i t = _mm_add_epi32(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0x4E));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0xB1));
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(t));
}

struct Avx2OperationOps : X86Common {
    static constexpr int tile_columns = 16;

    // The 6-tap filter 16 outputs per register (the whole frame's planes are filtered in long rows); the
    // last n % 16 as SSE2.
    static __m256i widen16(const std::uint8_t* p) { return _mm256_cvtepu8_epi16(load16(p)); }
    static __m256i six_tap256(__m256i e, __m256i f, __m256i g, __m256i h, __m256i i, __m256i j) {
        const __m256i outer = _mm256_add_epi16(e, j);
        const __m256i inner = _mm256_add_epi16(g, h);
        const __m256i side = _mm256_add_epi16(f, i);
        return _mm256_add_epi16(_mm256_sub_epi16(outer, _mm256_mullo_epi16(side, _mm256_set1_epi16(5))),
                                _mm256_mullo_epi16(inner, _mm256_set1_epi16(20)));
    }
    // 16 words to 16 bytes, clipped.
    static void store_clipped(__m256i v, std::uint8_t* out) {
        const __m128i packed = _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), packed);
    }
    static void six_tap_row(const std::uint8_t* s, int unused, int n, std::int16_t* out) {
        int x = 0;
        for (; x + 16 <= n; x += 16) {
            const __m256i v = six_tap256(widen16(s + x - 2), widen16(s + x - 1), widen16(s + x),
                                         widen16(s + x + 1), widen16(s + x + 2), widen16(s + x + 3));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + x), v);
        }
        X86Common::six_tap_row(s + x, unused, n - x, out + x);
    }
    static void round_row(const std::int16_t* v, int n, std::uint8_t* out) {
        int x = 0;
        for (; x + 16 <= n; x += 16) {
            const __m256i words = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + x));
            store_clipped(_mm256_srai_epi16(_mm256_add_epi16(words, _mm256_set1_epi16(16)), 5), out + x);
        }
        X86Common::round_row(v + x, n - x, out + x);
    }
    static void six_tap_column_rounded(const std::uint8_t* s, std::ptrdiff_t stride, int n,
                                       std::uint8_t* out) {
        int x = 0;
        for (; x + 16 <= n; x += 16) {
            const __m256i v =
                six_tap256(widen16(s + x - 2 * stride), widen16(s + x - stride), widen16(s + x),
                           widen16(s + x + stride), widen16(s + x + 2 * stride), widen16(s + x + 3 * stride));
            store_clipped(_mm256_srai_epi16(_mm256_add_epi16(v, _mm256_set1_epi16(16)), 5), out + x);
        }
        X86Common::six_tap_column_rounded(s + x, stride, n - x, out + x);
    }
    // j = clip((X + 512) >> 10), X = a - 5b + 20c over the b1 column (a = r0 + r5, b = r1 + r4, c = r2 + r3,
    // each within [-5100, 21420]), in 16-bit lanes without widening: with t = floor((a - b) / 4) and
    // w = floor((t - b + c) / 4) + c, 16 w = X - e for some e in 0..15 (the two shifts' remainders), so
    // w = floor(X / 16) and j = (w + 32) >> 6. t - b + c can pass 32767 (0/255 stripes), so its quarter is
    // taken as the floor of the half of (u >> 1) + (c >> 1) + (u & c & 1), u = t - b; every value stays
    // within int16. The same 16 outputs per register as the planes' other filters, where 32-bit sums took
    // two registers and three vpmaddwd each (`xme_cpu_kernels`: the planes of a 64x16 band 475 -> 400 ns).
    // j's words from six b1 rows, before the clip (the proof of the 16-bit form above).
    static __m256i centre_words(const __m256i r[6]) {
        const __m256i a = _mm256_add_epi16(r[0], r[5]);
        const __m256i b = _mm256_add_epi16(r[1], r[4]);
        const __m256i c = _mm256_add_epi16(r[2], r[3]);
        const __m256i u = _mm256_sub_epi16(_mm256_srai_epi16(_mm256_sub_epi16(a, b), 2), b);
        const __m256i half_sum =
            _mm256_add_epi16(_mm256_add_epi16(_mm256_srai_epi16(u, 1), _mm256_srai_epi16(c, 1)),
                             _mm256_and_si256(_mm256_and_si256(u, c), _mm256_set1_epi16(1)));
        const __m256i w = _mm256_add_epi16(_mm256_srai_epi16(half_sum, 1), c);
        return _mm256_srai_epi16(_mm256_add_epi16(w, _mm256_set1_epi16(32)), 6);
    }
    static void six_tap_centre(const std::int16_t* const* b1, int n, std::uint8_t* out) {
        int x = 0;
        for (; x + 16 <= n; x += 16) {
            __m256i r[6];
            for (int k = 0; k < 6; ++k)
                r[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b1[k] + x));
            store_clipped(centre_words(r), out + x);
        }
        const std::int16_t* const tail[6] = {b1[0] + x, b1[1] + x, b1[2] + x,
                                             b1[3] + x, b1[4] + x, b1[5] + x};
        X86Common::six_tap_centre(tail, n - x, out + x);
    }

    static void butterflies256(__m256i* d) {
        const __m256i s01 = _mm256_add_epi16(d[0], d[1]);
        const __m256i m01 = _mm256_sub_epi16(d[0], d[1]);
        const __m256i s23 = _mm256_add_epi16(d[2], d[3]);
        const __m256i m23 = _mm256_sub_epi16(d[2], d[3]);
        d[0] = _mm256_add_epi16(s01, s23);
        d[1] = _mm256_sub_epi16(s01, s23);
        d[2] = _mm256_add_epi16(m01, m23);
        d[3] = _mm256_sub_epi16(m01, m23);
    }

    static std::uint32_t hadamard_tiles(const std::uint8_t* current, std::ptrdiff_t current_stride,
                                        const std::uint8_t* p, std::ptrdiff_t p_stride, const std::uint8_t* q,
                                        std::ptrdiff_t q_stride) {
        __m256i d[4];
        for (int j = 0; j < 4; ++j) {
            const __m256i c = _mm256_cvtepu8_epi16(load16(current + j * current_stride));
            const __m128i average = _mm_avg_epu8(load16(p + j * p_stride), load16(q + j * q_stride));
            d[j] = _mm256_sub_epi16(c, _mm256_cvtepu8_epi16(average));
        }
        butterflies256(d);
        const __m256i t0 = _mm256_unpacklo_epi16(d[0], d[1]);
        const __m256i t1 = _mm256_unpacklo_epi16(d[2], d[3]);
        const __m256i t2 = _mm256_unpackhi_epi16(d[0], d[1]);
        const __m256i t3 = _mm256_unpackhi_epi16(d[2], d[3]);
        const __m256i u0 = _mm256_unpacklo_epi32(t0, t1);
        const __m256i u1 = _mm256_unpackhi_epi32(t0, t1);
        const __m256i u2 = _mm256_unpacklo_epi32(t2, t3);
        const __m256i u3 = _mm256_unpackhi_epi32(t2, t3);
        d[0] = _mm256_unpacklo_epi64(u0, u2);
        d[1] = _mm256_unpackhi_epi64(u0, u2);
        d[2] = _mm256_unpacklo_epi64(u1, u3);
        d[3] = _mm256_unpackhi_epi64(u1, u3);
        butterflies256(d);
        const __m256i sum16 =
            _mm256_add_epi16(_mm256_add_epi16(_mm256_abs_epi16(d[0]), _mm256_abs_epi16(d[1])),
                             _mm256_add_epi16(_mm256_abs_epi16(d[2]), _mm256_abs_epi16(d[3])));
        return horizontal_sum(_mm256_madd_epi16(sum16, _mm256_set1_epi16(1)));
    }
};

// Two rows of 16 bytes, `row` apart, as one register.
__m256i load_row_pair(const std::uint8_t* p, std::ptrdiff_t row) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(X86Common::load16(p)), X86Common::load16(p + row),
                                   1);
}

// The four candidates' SADs from their accumulators of 64-bit lanes. Each lane holds less than 2^16:
// candidates 0 and 1 (2 and 3) share lanes as 32-bit halves.
[[gnu::always_inline]] inline void store_four_sads(const __m256i acc[4], std::uint32_t sads[4]) {
    const __m256i sums01 = _mm256_or_si256(acc[0], _mm256_slli_epi64(acc[1], 32));
    const __m256i sums23 = _mm256_or_si256(acc[2], _mm256_slli_epi64(acc[3], 32));
    const __m128i halves01 =
        _mm_add_epi32(_mm256_castsi256_si128(sums01), _mm256_extracti128_si256(sums01, 1));
    const __m128i halves23 =
        _mm_add_epi32(_mm256_castsi256_si128(sums23), _mm256_extracti128_si256(sums23, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(sads), _mm_add_epi32(_mm_unpacklo_epi64(halves01, halves23),
                                                                     _mm_unpackhi_epi64(halves01, halves23)));
}

// 16x16 against four candidates, two rows per vpsadbw: a third fewer instructions than one row per
// psadbw, which is most of the scattered searches' (tz, dia, hex) time once their bookkeeping is small.
void sad_x4_16(const std::uint8_t* current, std::ptrdiff_t current_stride, const std::uint8_t* const refs[4],
               std::ptrdiff_t reference_stride, std::uint32_t sads[4]) {
    __m256i acc[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                      _mm256_setzero_si256()};
#pragma GCC unroll 2
    for (int j = 0; j < 16; j += 2) {
        const __m256i c = load_row_pair(current + j * current_stride, current_stride);
        const std::ptrdiff_t r = j * reference_stride;
        for (int k = 0; k < 4; ++k) {
            acc[k] =
                _mm256_add_epi64(acc[k], _mm256_sad_epu8(c, load_row_pair(refs[k] + r, reference_stride)));
        }
    }
    store_four_sads(acc, sads);
}

void sad_x4_avx2(const std::uint8_t* current, std::ptrdiff_t current_stride,
                 const std::uint8_t* const refs[4], std::ptrdiff_t reference_stride, int size,
                 std::uint32_t sads[4]) {
    if (size == 16) return sad_x4_16(current, current_stride, refs, reference_stride, sads);
    sad_x4_simd<Avx2OperationOps>(current, current_stride, refs, reference_stride, size, sads);
}

// A 16-byte row in both halves of a register.
__m256i broadcast_row(const std::uint8_t* p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// vpmaddubsw weights: pair sums in the low half, pair differences in the high half.
__m256i pair_sum_diff() {
    return _mm256_setr_epi8(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  //
                            1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1);
}

// The transform of 4 rows x 16 columns up to the last stage: rows' first butterfly by vpmaddubsw, then the
// butterflies across rows. `Averaged` averages two planes (H.264's quarter samples).
template <bool Averaged>
void transform_band(const std::uint8_t* p, std::ptrdiff_t p_stride, const std::uint8_t* q,
                    std::ptrdiff_t q_stride, __m256i d[4]) {
    for (int j = 0; j < 4; ++j) {
        __m256i samples = broadcast_row(p + j * p_stride);
        if constexpr (Averaged) samples = _mm256_avg_epu8(samples, broadcast_row(q + j * q_stride));
        d[j] = _mm256_maddubs_epi16(samples, pair_sum_diff());
    }
    Avx2OperationOps::butterflies256(d);
}

// The last stage and the sum of magnitudes of T(current) - T(prediction), as 32-bit lanes.
__m256i band_magnitudes(const __m256i current[4], const __m256i prediction[4]) {
    const __m256i low_lanes = _mm256_set1_epi32(1);  // vpmaddwd weights (1, 0): the low 16 bits of each pair
    __m256i sum = _mm256_setzero_si256();
    for (int j = 0; j < 4; ++j) {
        const __m256i magnitude = _mm256_abs_epi16(_mm256_sub_epi16(current[j], prediction[j]));
        // Each 16-bit lane <= 8 * 255 after three stages; four of them fit.
        sum = _mm256_add_epi16(sum, _mm256_max_epi16(magnitude, _mm256_srli_epi32(magnitude, 16)));
    }
    return _mm256_madd_epi16(sum, low_lanes);
}

// The current block's bands as satd_strips16 reads them, left to right and top to bottom: transformed once
// per block by transform_current_avx2 (a refinement's up to 17 candidates), or per call.
struct TransformedBands {
    const __m256i* next;
    void band(int /*y*/, int /*x*/, __m256i c[4]) {
        for (int j = 0; j < 4; ++j) c[j] = _mm256_load_si256(next + j);
        next += 4;
    }
};
struct SampleBands {
    const std::uint8_t* current;
    std::ptrdiff_t stride;
    void band(int y, int x, __m256i c[4]) const {
        const std::uint8_t* rows = current + y * stride + x;
        transform_band<false>(rows, stride, rows, stride, c);
    }
};

// SATD of 16-wide strips without a transpose (x264's layout): vbroadcasti128 puts a row in both halves
// of a register and one vpmaddubsw with (1, 1) pairs in the low half and (1, -1) in the high half does
// the first horizontal butterfly while widening; by linearity the prediction's transform is subtracted
// from the current block's. The rows' two butterflies are adds across registers. The last stage (columns
// two apart: neighbouring 16-bit lanes) is not computed: |a + b| + |a - b| = 2 max(|a|, |b|), and SATD
// halves the sum of magnitudes anyway, so each pair adds max(|a|, |b|). No shuffle in the loop.
template <bool Averaged, class CurrentBands>
[[gnu::always_inline]] inline std::uint32_t satd_strips16(CurrentBands bands, const std::uint8_t* p,
                                                          std::ptrdiff_t p_stride, const std::uint8_t* q,
                                                          std::ptrdiff_t q_stride, int width, int height,
                                                          std::uint32_t limit) {
    __m256i total = _mm256_setzero_si256();
    // Bands of 4 rows across the width; the limit is tested once, at half the rows. Testing after every
    // band stopped more neighbours on vtest.avi but cost tree.avi more than it saved, where fewer stop
    // early and each test (a horizontal sum and a hard-to-predict branch) is paid by every neighbour
    // (docs/cpu.md, "Tried and not kept").
    for (int y = 0; y < height; y += 4) {
        if (2 * y == height && limit != satd_exact && horizontal_sum(total) > limit) break;
        for (int x = 0; x < width; x += 16) {
            __m256i c[4];
            bands.band(y, x, c);
            __m256i d[4];
            transform_band<Averaged>(p + y * p_stride + x, p_stride, q + y * q_stride + x, q_stride, d);
            total = _mm256_add_epi32(total, band_magnitudes(c, d));
        }
    }
    return horizontal_sum(total);
}

// Half-sample positions predict from one plane (p == q): no average to take.
template <class CurrentBands>
std::uint32_t satd_of_strips(CurrentBands bands, const std::uint8_t* p, std::ptrdiff_t p_stride,
                             const std::uint8_t* q, std::ptrdiff_t q_stride, int width, int height,
                             std::uint32_t limit) {
    const bool one_plane = p == q && p_stride == q_stride;
    const auto strips = [&](int w, int h) __attribute__((always_inline)) {
        if (one_plane) return satd_strips16<false>(bands, p, p_stride, q, q_stride, w, h, limit);
        return satd_strips16<true>(bands, p, p_stride, q, q_stride, w, h, limit);
    };
    // The refinements' usual size with its loops unrolled: no loop counters or width tests between the
    // bands (docs/cpu.md, "Sub-pel refinement").
    if (width == 16 && height == 16) return strips(16, 16);
    return strips(width, height);
}

bool transform_current_avx2(const std::uint8_t* current, std::ptrdiff_t current_stride, int width, int height,
                            TransformedCurrent& out) {
    if (width % 16 != 0 || width * height > TransformedCurrent::max_samples) return false;
    auto* bands = reinterpret_cast<__m256i*>(out.words);
    const SampleBands samples{current, current_stride};
    for (int y = 0; y < height; y += 4) {
        for (int x = 0; x < width; x += 16, bands += 4) samples.band(y, x, bands);
    }
    return true;
}

std::uint32_t satd_transformed_avx2(const TransformedCurrent& current, const std::uint8_t* p,
                                    std::ptrdiff_t p_stride, const std::uint8_t* q, std::ptrdiff_t q_stride,
                                    int width, int height, std::uint32_t limit) {
    const TransformedBands bands{reinterpret_cast<const __m256i*>(current.words)};
    return satd_of_strips(bands, p, p_stride, q, q_stride, width, height, limit);
}

std::uint32_t satd_avx2(const std::uint8_t* current, std::ptrdiff_t current_stride, const std::uint8_t* p,
                        std::ptrdiff_t p_stride, const std::uint8_t* q, std::ptrdiff_t q_stride, int width,
                        int height, std::uint32_t limit) {
    if (width % 16 != 0) {
        return satd_simd<Avx2OperationOps>(current, current_stride, p, p_stride, q, q_stride, width, height,
                                           limit);
    }
    return satd_of_strips(SampleBands{current, current_stride}, p, p_stride, q, q_stride, width, height,
                          limit);
}

// The refinement's 16x16 case around this set's SATD, inlined. With four bands of 4 rows a 16x16 SATD,
// the early stop after half of them saves more than its branches cost, unlike the 512-bit set's
// (xme_cpu_searches, docs/cpu.md, "Sub-pel refinement").
SubpelResult refine_qpel16_avx2(const IntegerBlock& block, MotionVector integer_pel,
                                const QpelNeighbourhood& neighbourhood, const std::uint8_t* current,
                                std::ptrdiff_t current_stride) {
    TransformedCurrent transformed;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
    transform_current_avx2(current, current_stride, 16, 16, transformed);
    const TransformedBands bands{reinterpret_cast<const __m256i*>(transformed.words)};
    return qpel_stages(
        block, integer_pel,
        neighbourhood, [bands](const QpelPrediction& r, std::uint32_t limit) __attribute__((always_inline)) {
            if (r.p == r.q && r.p_stride == r.q_stride)  // a half-sample position: no average
                return satd_strips16<false>(bands, r.p, r.p_stride, r.q, r.q_stride, 16, 16, limit);
            return satd_strips16<true>(bands, r.p, r.p_stride, r.q, r.q_stride, 16, 16, limit);
        });
}

// The 16x16 SAD of four candidates as sad_x4_16 computes it, the current block's 8 row pairs loaded once
// when a block's search starts rather than on every call (16 of a call's 80 loads), inlined into the search.
class Avx2SadX4Of16 {
public:
    explicit Avx2SadX4Of16(const IntegerBlock& block) : reference_stride_(block.reference->stride()) {
        const std::uint8_t* current = block.current->block(block.x, block.y, 16, 16);
        const std::ptrdiff_t stride = block.current->stride();
        for (int j = 0; j < 8; ++j) rows_[j] = load_row_pair(current + 2 * j * stride, stride);
        // A block that starts a 64-byte column asks for the next column's lines: its current rows, and the
        // reference rows a static block's first rounds reach (8 above, 8 below). Without it the first SADs of
        // every fourth block waited on memory (tz at range 16 on vtest.avi 7-10% faster with it; 80
        // prefetches a column for every search gained nothing there, docs/cpu.md, "Tried and not kept").
        // Addresses as integers: past the frame's last column or row they lie outside it, and prefetches
        // do not fault.
        if (block.x % 64 == 0) {
            const auto next_column = [](const std::uint8_t* p, std::ptrdiff_t offset) {
                return reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) +
                                                     static_cast<std::uintptr_t>(offset));
            };
            const std::uint8_t* reference = block.reference->block(block.x, block.y, 16, 16);
            for (int j = 0; j < 16; ++j) __builtin_prefetch(next_column(current, 64 + j * stride));
            for (int j = -8; j < 24; ++j)
                __builtin_prefetch(next_column(reference, 64 + j * reference_stride_));
        }
    }
    [[gnu::always_inline]] void operator()(const std::uint8_t* const refs[4], std::uint32_t sads[4]) const {
        __m256i acc[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                          _mm256_setzero_si256()};
        for (int j = 0; j < 8; ++j) {
            const std::ptrdiff_t r = 2 * j * reference_stride_;
            for (int k = 0; k < 4; ++k) {
                acc[k] = _mm256_add_epi64(
                    acc[k], _mm256_sad_epu8(rows_[j], load_row_pair(refs[k] + r, reference_stride_)));
            }
        }
        store_four_sads(acc, sads);
    }

private:
    __m256i rows_[8];
    std::ptrdiff_t reference_stride_;
};

IntegerResult tz_search16_avx2(const IntegerBlock& block) {
    return tz_search_with<BasicCandidateSearch<Avx2SadX4Of16>>(block);
}

// The three planes a strip of 16 columns at a time, down all the rows, as operation_kernels_avx512.cpp's
// half_pel_planes_avx512 (the rows the centre and vertical filters read held in registers); the last strip
// moved left to end on the last column (its columns filtered twice, to the same values), and planes under 16
// columns wide row by row.
void half_pel_planes_avx2(const std::uint8_t* source, std::ptrdiff_t stride, int width, int rows,
                          std::uint8_t* horizontal, std::uint8_t* vertical, std::uint8_t* centre,
                          std::int32_t* scratch) {
    using Ops = Avx2OperationOps;
    if (width < 16) {
        half_pel_planes_simd<Ops>(source, stride, width, rows, horizontal, vertical, centre, scratch);
        return;
    }
    for (int strip_x = 0; strip_x < width; strip_x += 16) {
        const int x = std::min(strip_x, width - 16);
        const std::uint8_t* strip = source + x;
        const auto b1_row = [&](int r) __attribute__((always_inline)) {
            const std::uint8_t* s = strip + r * stride;
            return Ops::six_tap256(Ops::widen16(s - 2), Ops::widen16(s - 1), Ops::widen16(s),
                                   Ops::widen16(s + 1), Ops::widen16(s + 2), Ops::widen16(s + 3));
        };
        const auto rounded = [](__m256i v) {
            return _mm256_srai_epi16(_mm256_add_epi16(v, _mm256_set1_epi16(16)), 5);
        };
        // Slots 0 .. 5: rows y - 2 .. y + 3 once the row loop has moved them down.
        __m256i b1[6];
        __m256i samples[6];
        for (int k = 1; k < 6; ++k) {
            b1[k] = b1_row(k - 3);
            samples[k] = Ops::widen16(strip + (k - 3) * stride);
        }
        for (int y = 0; y < rows; ++y) {
            for (int k = 0; k < 5; ++k) {
                b1[k] = b1[k + 1];
                samples[k] = samples[k + 1];
            }
            b1[5] = b1_row(y + 3);
            samples[5] = Ops::widen16(strip + (y + 3) * stride);
            const std::ptrdiff_t out = static_cast<std::ptrdiff_t>(y) * width + x;
            Ops::store_clipped(rounded(b1[2]), horizontal + out);
            Ops::store_clipped(rounded(Ops::six_tap256(samples[0], samples[1], samples[2], samples[3],
                                                       samples[4], samples[5])),
                               vertical + out);
            Ops::store_clipped(Ops::centre_words(b1), centre + out);
        }
    }
}

}  // namespace

OperationKernels avx2_operation_kernels() {
    OperationKernels kernels = make_operation_kernels<Avx2OperationOps>();
    kernels.half_pel_planes = &half_pel_planes_avx2;
    kernels.sad_x4 = &sad_x4_avx2;
    kernels.satd = &satd_avx2;
    kernels.transform_current = &transform_current_avx2;
    kernels.satd_transformed = &satd_transformed_avx2;
    kernels.refine_qpel16 = &refine_qpel16_avx2;
    kernels.tz_search16 = &tz_search16_avx2;
    return kernels;
}

}  // namespace xme::cpu
