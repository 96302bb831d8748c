// The partition kernel with AVX2. The grid as SSE2's (partition_kernels_sse2.cpp), two rows per 256-bit
// register; then the 41 sums are built in registers in partition_lane's order (the sixteen 4x4s, 8x4s
// by horizontal adds, 4x8s by adding each quadrant to itself swapped, and so on) and each partition's
// best is updated in the six vectors, with no trip through memory (scalar stores read back as a vector
// stall store forwarding: that cost the generic version half its time).
#include <immintrin.h>

#include "partition_kernels_impl.hpp"

namespace xme::cpu {
namespace {

__m256i load_two_rows(const std::uint8_t* p, std::ptrdiff_t stride) {
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + stride)), 1);
}

__m256i even_mask() { return _mm256_set_epi32(0, -1, 0, -1, 0, -1, 0, -1); }
__m256i odd_mask() { return _mm256_set_epi32(-1, 0, -1, 0, -1, 0, -1, 0); }

// The current block's rows 2i and 2i + 1, masked to bytes 0-3 and 8-11 (even) or 4-7 and 12-15 (odd).
struct PreparedCurrent {
    __m256i even[8];
    __m256i odd[8];
    PreparedCurrent(const std::uint8_t* pixels, std::ptrdiff_t stride) {
        for (int i = 0; i < 8; ++i) {
            const __m256i rows = load_two_rows(pixels + 2 * i * stride, stride);
            even[i] = _mm256_and_si256(rows, even_mask());
            odd[i] = _mm256_and_si256(rows, odd_mask());
        }
    }
};

// Band b's four 4x4 SADs (columns 0-3) in the 32-bit lanes.
__m128i band_sads(const PreparedCurrent& current, const std::uint8_t* ref, std::ptrdiff_t stride, int band) {
    __m256i even = _mm256_setzero_si256();
    __m256i odd = _mm256_setzero_si256();
    for (int i = 2 * band; i < 2 * band + 2; ++i) {
        const __m256i rows = load_two_rows(ref + 2 * i * stride, stride);
        even = _mm256_add_epi64(even, _mm256_sad_epu8(current.even[i], _mm256_and_si256(rows, even_mask())));
        odd = _mm256_add_epi64(odd, _mm256_sad_epu8(current.odd[i], _mm256_and_si256(rows, odd_mask())));
    }
    // Each sum fits 16 bits: odd's in the upper half of each 64-bit lane gives columns 0 1 2 3; the two
    // 128-bit halves are the band's two row pairs.
    const __m256i both = _mm256_or_si256(even, _mm256_slli_epi64(odd, 32));
    return _mm_add_epi32(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1));
}

__m256i join(__m128i low, __m128i high) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
}

// The six vectors of partition_lane's order for one candidate.
void partition_vectors(const PreparedCurrent& current, const std::uint8_t* ref, std::ptrdiff_t stride,
                       __m256i sads[6]) {
    const __m128i r0 = band_sads(current, ref, stride, 0);
    const __m128i r1 = band_sads(current, ref, stride, 1);
    const __m128i r2 = band_sads(current, ref, stride, 2);
    const __m128i r3 = band_sads(current, ref, stride, 3);
    // Quadrant q's 4x4s a b d e (raster order).
    const __m128i q0 = _mm_unpacklo_epi64(r0, r1);
    const __m128i q1 = _mm_unpackhi_epi64(r0, r1);
    const __m128i q2 = _mm_unpacklo_epi64(r2, r3);
    const __m128i q3 = _mm_unpackhi_epi64(r2, r3);
    const __m128i tops01 = _mm_hadd_epi32(q0, q1);  // a+b, d+e of q0, then of q1: the 8x4s
    const __m128i tops23 = _mm_hadd_epi32(q2, q3);
    const auto sides = [](__m128i q) { return _mm_add_epi32(q, _mm_shuffle_epi32(q, 0x4E)); };  // a+d, b+e
    const __m128i eights = _mm_hadd_epi32(tops01, tops23);                                      // e0 e1 e2 e3
    const __m128i halves = _mm_hadd_epi32(eights, eights);  // e0+e1, e2+e3: the 16x8s
    const __m128i columns = sides(eights);                  // e0+e2, e1+e3: the 8x16s
    sads[0] = join(q0, q1);
    sads[1] = join(q2, q3);
    sads[2] = join(tops01, tops23);
    sads[3] = join(_mm_unpacklo_epi64(sides(q0), sides(q1)), _mm_unpacklo_epi64(sides(q2), sides(q3)));
    sads[4] = join(eights, _mm_unpacklo_epi64(halves, columns));
    // Lane 40 the 16x16; the padding lanes hold copies, which never beat their best of 0.
    sads[5] = _mm256_castsi128_si256(_mm_hadd_epi32(halves, halves));
    sads[5] = _mm256_inserti128_si256(sads[5], _mm_setzero_si128(), 1);
}

void avx2_partition_candidates_impl(const std::uint8_t* current, std::ptrdiff_t current_stride,
                                    const std::uint8_t* const* refs, std::ptrdiff_t reference_stride,
                                    const std::uint32_t* rates, int count, std::uint32_t first,
                                    PartitionBests& bests) {
    const PreparedCurrent prepared(current, current_stride);
    __m256i cost[6];
    __m256i candidate[6];
    for (int v = 0; v < 6; ++v) {
        cost[v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(bests.cost + 8 * v));
        candidate[v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(bests.candidate + 8 * v));
    }
    for (int k = 0; k < count; ++k) {
        __m256i sads[6];
        partition_vectors(prepared, refs[k], reference_stride, sads);
        const __m256i rate = _mm256_set1_epi32(static_cast<int>(rates[k]));
        const __m256i index = _mm256_set1_epi32(static_cast<int>(first + static_cast<std::uint32_t>(k)));
        for (int v = 0; v < 6; ++v) {
            // Every J and best is below 2^31, so the signed comparison is the unsigned one.
            const __m256i j = _mm256_add_epi32(sads[v], rate);
            const __m256i better = _mm256_cmpgt_epi32(cost[v], j);
            cost[v] = _mm256_min_epi32(cost[v], j);
            candidate[v] = _mm256_blendv_epi8(candidate[v], index, better);
        }
    }
    for (int v = 0; v < 6; ++v) {
        _mm256_store_si256(reinterpret_cast<__m256i*>(bests.cost + 8 * v), cost[v]);
        _mm256_store_si256(reinterpret_cast<__m256i*>(bests.candidate + 8 * v), candidate[v]);
    }
}

}  // namespace

PartitionCandidates avx2_partition_candidates() { return &avx2_partition_candidates_impl; }

}  // namespace xme::cpu
