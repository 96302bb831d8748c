// The partition kernel with SSE2: each row's four 4x4 SADs from two psadbw on masked bytes (columns 0-3
// and 8-11, then 4-7 and 12-15), the current block's masked rows prepared once per call.
#include <emmintrin.h>

#include "partition_kernels_impl.hpp"

namespace xme::cpu {
namespace {

struct Sse2Grid {
    struct Current {
        __m128i even[16];  // bytes 0-3 and 8-11 of each row, the rest zero
        __m128i odd[16];   // bytes 4-7 and 12-15
        Current(const std::uint8_t* pixels, std::ptrdiff_t stride) {
            for (int y = 0; y < 16; ++y) {
                const __m128i row = _mm_loadu_si128(reinterpret_cast<const __m128i*>(pixels + y * stride));
                even[y] = _mm_and_si128(row, even_mask());
                odd[y] = _mm_and_si128(row, odd_mask());
            }
        }
    };
    static __m128i even_mask() { return _mm_set_epi32(0, -1, 0, -1); }
    static __m128i odd_mask() { return _mm_set_epi32(-1, 0, -1, 0); }

    static void sad_grid16(const Current& current, const std::uint8_t* ref, std::ptrdiff_t reference_stride,
                           std::uint32_t grid[16]) {
        const __m128i even_mask_v = even_mask();
        const __m128i odd_mask_v = odd_mask();
        for (int band = 0; band < 4; ++band) {
            __m128i even = _mm_setzero_si128();  // 64-bit lanes: columns 0 and 2 of the band
            __m128i odd = _mm_setzero_si128();   // columns 1 and 3
            for (int y = 4 * band; y < 4 * band + 4; ++y) {
                const __m128i row =
                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(ref + y * reference_stride));
                even = _mm_add_epi64(even, _mm_sad_epu8(current.even[y], _mm_and_si128(row, even_mask_v)));
                odd = _mm_add_epi64(odd, _mm_sad_epu8(current.odd[y], _mm_and_si128(row, odd_mask_v)));
            }
            // Each sum fits 16 bits: odd's moved to the upper 32 bits of its lane gives columns 0 1 2 3.
            _mm_storeu_si128(reinterpret_cast<__m128i*>(grid + 4 * band),
                             _mm_or_si128(even, _mm_slli_epi64(odd, 32)));
        }
    }
};

}  // namespace

PartitionCandidates sse2_partition_candidates() { return &partition_candidates_impl<Sse2Grid>; }

}  // namespace xme::cpu
