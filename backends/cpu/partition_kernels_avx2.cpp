// The partition kernel with AVX2: as SSE2's (partition_kernels_sse2.cpp), two rows per 256-bit register.
#include <immintrin.h>

#include "partition_kernels_impl.hpp"

namespace xme::cpu {
namespace {

__m256i load_two_rows(const std::uint8_t* p, std::ptrdiff_t stride) {
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + stride)), 1);
}

struct Avx2Grid {
    struct Current {
        __m256i even[8];  // rows 2i and 2i + 1: bytes 0-3 and 8-11 of each, the rest zero
        __m256i odd[8];   // bytes 4-7 and 12-15
        Current(const std::uint8_t* pixels, std::ptrdiff_t stride) {
            for (int i = 0; i < 8; ++i) {
                const __m256i rows = load_two_rows(pixels + 2 * i * stride, stride);
                even[i] = _mm256_and_si256(rows, even_mask());
                odd[i] = _mm256_and_si256(rows, odd_mask());
            }
        }
    };
    static __m256i even_mask() { return _mm256_set_epi32(0, -1, 0, -1, 0, -1, 0, -1); }
    static __m256i odd_mask() { return _mm256_set_epi32(-1, 0, -1, 0, -1, 0, -1, 0); }

    static void sad_grid16(const Current& current, const std::uint8_t* ref, std::ptrdiff_t reference_stride,
                           std::uint32_t grid[16]) {
        const __m256i even_mask_v = even_mask();
        const __m256i odd_mask_v = odd_mask();
        for (int band = 0; band < 4; ++band) {
            __m256i even = _mm256_setzero_si256();
            __m256i odd = _mm256_setzero_si256();
            for (int i = 2 * band; i < 2 * band + 2; ++i) {
                const __m256i rows = load_two_rows(ref + 2 * i * reference_stride, reference_stride);
                even = _mm256_add_epi64(
                    even, _mm256_sad_epu8(current.even[i], _mm256_and_si256(rows, even_mask_v)));
                odd = _mm256_add_epi64(odd,
                                       _mm256_sad_epu8(current.odd[i], _mm256_and_si256(rows, odd_mask_v)));
            }
            const __m256i both = _mm256_or_si256(even, _mm256_slli_epi64(odd, 32));
            // The two 128-bit halves hold the band's upper and lower row pairs: their sum is the band.
            const __m128i band_sums =
                _mm_add_epi32(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(grid + 4 * band), band_sums);
        }
    }
};

}  // namespace

PartitionCandidates avx2_partition_candidates() { return &partition_candidates_impl<Avx2Grid>; }

}  // namespace xme::cpu
