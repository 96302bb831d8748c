// AVX2: vpsadbw over 32 pixels; keys stay below 2^63, so the signed 64-bit compare orders them.
#include <immintrin.h>

#include "full_search_kernel.hpp"

namespace xme::cpu {
namespace {

struct Avx2Ops {
    using Vector = __m256i;
    static constexpr int bytes = 32;

    static Vector load(const std::uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
    static Vector zero() { return _mm256_setzero_si256(); }
    static Vector broadcast(std::uint64_t word) { return _mm256_set1_epi64x(static_cast<long long>(word)); }
    static Vector load_words(const std::uint64_t* words) { return load(reinterpret_cast<const std::uint8_t*>(words)); }
    static void store_words(std::uint64_t* words, Vector v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(words), v);
    }
    static Vector sad(Vector a, Vector b) { return _mm256_sad_epu8(a, b); }
    static Vector add(Vector a, Vector b) { return _mm256_add_epi64(a, b); }
    static Vector bit_and(Vector a, Vector b) { return _mm256_and_si256(a, b); }
    static Vector bit_or(Vector a, Vector b) { return _mm256_or_si256(a, b); }
    static Vector bit_not(Vector a) { return _mm256_xor_si256(a, _mm256_set1_epi32(-1)); }
    static Vector even_quads_mask() { return _mm256_set1_epi64x(0x00000000FFFFFFFFLL); }
    static Vector cost_to_key(Vector sums) { return _mm256_slli_epi64(sums, key_cost_shift); }
    static Vector fold_pairs(Vector v) { return _mm256_add_epi64(v, _mm256_shuffle_epi32(v, 0x4E)); }
    static Vector fold_quads(Vector v) { return _mm256_add_epi64(v, _mm256_permute4x64_epi64(v, 0x4E)); }
    static Vector min_key(Vector a, Vector b) { return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b)); }
};

}  // namespace

SearchKernel avx2_kernel() { return make_kernel<Avx2Ops>(); }

}  // namespace xme::cpu
