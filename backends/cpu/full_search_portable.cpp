// Plain C++ kernel: one 64-bit word stands for a vector of 8 pixels. Runs on any processor.
#include <cstring>

#include "full_search_kernel.hpp"

namespace xme::cpu {
namespace {

struct PortableOps {
    using Vector = std::uint64_t;
    static constexpr int bytes = 8;

    static Vector load(const std::uint8_t* p) {
        Vector v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    static Vector zero() { return 0; }
    static Vector broadcast(std::uint64_t word) { return word; }
    static Vector load_words(const std::uint64_t* words) { return *words; }
    static void store_words(std::uint64_t* words, Vector v) { *words = v; }
    static Vector sad(Vector a, Vector b) {
        Vector sum = 0;
        for (int i = 0; i < 64; i += 8) {
            const int x = static_cast<int>((a >> i) & 0xFF);
            const int y = static_cast<int>((b >> i) & 0xFF);
            sum += static_cast<Vector>(x > y ? x - y : y - x);
        }
        return sum;
    }
    static Vector add(Vector a, Vector b) { return a + b; }
    static Vector bit_and(Vector a, Vector b) { return a & b; }
    static Vector bit_or(Vector a, Vector b) { return a | b; }
    static Vector bit_not(Vector a) { return ~a; }
    static Vector even_quads_mask() { return 0x00000000FFFFFFFFULL; }  // bytes 0-3: little-endian
    static Vector cost_to_key(Vector sums) { return sums << key_cost_shift; }
    static Vector fold_pairs(Vector v) { return v; }  // one lane: nothing to fold
    static Vector fold_quads(Vector v) { return v; }
    static Vector min_key(Vector a, Vector b) { return a < b ? a : b; }
};

}  // namespace

SearchKernel portable_kernel() { return make_kernel<PortableOps>(); }

}  // namespace xme::cpu
