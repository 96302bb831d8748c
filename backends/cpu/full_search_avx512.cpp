// AVX-512BW: vpsadbw over 64 pixels, so one instruction serves four 16-wide blocks (or eight 8-wide).
// GCC 12's AVX-512 intrinsics pass an `_mm512_undefined` operand that -Wmaybe-uninitialized flags
// wherever they are inlined (GCC bug 105593, fixed in GCC 13); the operand is never read.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "full_search_kernel.hpp"

namespace xme::cpu {
namespace {

struct Avx512Ops {
    using Vector = __m512i;
    static constexpr int bytes = 64;

    static Vector load(const std::uint8_t* p) { return _mm512_loadu_si512(p); }
    static Vector zero() { return _mm512_setzero_si512(); }
    static Vector broadcast(std::uint64_t word) { return _mm512_set1_epi64(static_cast<long long>(word)); }
    static Vector load_words(const std::uint64_t* words) { return _mm512_loadu_si512(words); }
    static void store_words(std::uint64_t* words, Vector v) { _mm512_storeu_si512(words, v); }
    static Vector sad(Vector a, Vector b) { return _mm512_sad_epu8(a, b); }
    static Vector add(Vector a, Vector b) { return _mm512_add_epi64(a, b); }
    static Vector bit_and(Vector a, Vector b) { return _mm512_and_si512(a, b); }
    static Vector bit_or(Vector a, Vector b) { return _mm512_or_si512(a, b); }
    static Vector bit_not(Vector a) { return _mm512_xor_si512(a, _mm512_set1_epi32(-1)); }
    static Vector even_quads_mask() { return _mm512_set1_epi64(0x00000000FFFFFFFFLL); }
    static Vector cost_to_key(Vector sums) { return _mm512_slli_epi64(sums, key_cost_shift); }
    static Vector fold_pairs(Vector v) { return _mm512_add_epi64(v, _mm512_shuffle_epi32(v, _MM_PERM_BADC)); }
    static Vector fold_quads(Vector v) { return _mm512_add_epi64(v, _mm512_shuffle_i64x2(v, v, 0xB1)); }
    static Vector min_key(Vector a, Vector b) { return _mm512_min_epu64(a, b); }
};

}  // namespace

SearchKernel avx512bw_kernel() { return make_kernel<Avx512Ops>(); }

}  // namespace xme::cpu
