// Device helpers shared by the kernels: the packed search key, the window of valid candidates,
// the packed SAD instruction.
#pragma once

#include <cstdint>

#include "kernels.hpp"
#include "xme/search_key.hpp"  // constexpr, usable in device code with --expt-relaxed-constexpr

namespace xme::cuda {

// SPEC §3: the key (cost, |x|+|y|, y, x) in half-pel units, exactly xme::pack_search_key.
__device__ __forceinline__ std::uint64_t integer_key(std::uint32_t sad, int dx, int dy) {
    return pack_search_key(sad, 2 * dx, 2 * dy);
}

// SPEC §2: the valid integer candidates of the block at pixel (x, y) form the rectangle
// [low_x, high_x] x [low_y, high_y]. In restrict mode the displaced block stays inside Wp x Hp; the
// zero vector is always inside it since 0 <= x <= Wp - B.
struct Window {
    int low_x, high_x, low_y, high_y;
};

__device__ __forceinline__ Window candidate_window(const SearchJob& job, int x, int y) {
    const int r = job.range;
    if (!job.restrict_border) return {-r, r, -r, r};
    const int b = job.block_size;
    return {max(-r, -x), min(r, job.layout.padded_width - b - x), max(-r, -y), min(r, job.layout.padded_height - b - y)};
}

// d = |a - b| summed over the 4 bytes, plus c: one VABSDIFF4 instruction on every target.
__device__ __forceinline__ std::uint32_t sad4(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    std::uint32_t d;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

// Minimum of 64-bit keys over a warp (every lane gets it).
__device__ __forceinline__ std::uint64_t warp_min(std::uint64_t key) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        const std::uint64_t other = __shfl_xor_sync(0xffffffffu, key, offset);
        key = other < key ? other : key;
    }
    return key;
}

}  // namespace xme::cuda
