// SSE2: psadbw over 16 pixels. SSE2 has no 64-bit compare, so keys are compared in scalar code.
#include <emmintrin.h>

#include "full_search_kernel.hpp"

namespace xme::cpu {
namespace {

struct Sse2Ops {
    using Vector = __m128i;
    static constexpr int bytes = 16;

    static Vector load(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
    static Vector zero() { return _mm_setzero_si128(); }
    static Vector broadcast(std::uint64_t word) { return _mm_set1_epi64x(static_cast<long long>(word)); }
    static Vector load_words(const std::uint64_t* words) { return load(reinterpret_cast<const std::uint8_t*>(words)); }
    static void store_words(std::uint64_t* words, Vector v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(words), v); }
    static Vector sad(Vector a, Vector b) { return _mm_sad_epu8(a, b); }
    static Vector add(Vector a, Vector b) { return _mm_add_epi64(a, b); }
    static Vector bit_and(Vector a, Vector b) { return _mm_and_si128(a, b); }
    static Vector bit_or(Vector a, Vector b) { return _mm_or_si128(a, b); }
    static Vector bit_not(Vector a) { return _mm_xor_si128(a, _mm_set1_epi32(-1)); }
    static Vector even_quads_mask() { return _mm_set1_epi64x(0x00000000FFFFFFFFLL); }
    static Vector cost_to_key(Vector sums) { return _mm_slli_epi64(sums, key_cost_shift); }
    static Vector fold_pairs(Vector v) { return _mm_add_epi64(v, _mm_shuffle_epi32(v, 0x4E)); }
    static Vector fold_quads(Vector v) { return v; }  // a 16-byte vector has no quads
    static Vector min_key(Vector a, Vector b) {
        std::uint64_t x[2];
        std::uint64_t y[2];
        store_words(x, a);
        store_words(y, b);
        for (int i = 0; i < 2; ++i) x[i] = y[i] < x[i] ? y[i] : x[i];
        return load_words(x);
    }
};

}  // namespace

SearchKernel sse2_kernel() { return make_kernel<Sse2Ops>(); }

}  // namespace xme::cpu
