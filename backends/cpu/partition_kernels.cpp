// The partition kernel in plain C++, and the choice of kernel per variant.
#include "partition_kernels.hpp"

#include <cstdlib>

#include "partition_kernels_impl.hpp"

namespace xme::cpu {

void plain_sad_grid16(const std::uint8_t* current, std::ptrdiff_t current_stride, const std::uint8_t* ref,
                      std::ptrdiff_t reference_stride, std::uint32_t grid[16]) {
    for (int cell = 0; cell < 16; ++cell) grid[cell] = 0;
    for (int y = 0; y < 16; ++y) {
        for (int x = 0; x < 16; ++x) {
            grid[4 * (y / 4) + x / 4] += static_cast<std::uint32_t>(
                std::abs(current[y * current_stride + x] - ref[y * reference_stride + x]));
        }
    }
}

namespace {

struct PlainGrid {
    struct Current {
        const std::uint8_t* pixels;
        std::ptrdiff_t stride;
        Current(const std::uint8_t* p, std::ptrdiff_t s) : pixels(p), stride(s) {}
    };
    static void sad_grid16(const Current& current, const std::uint8_t* ref, std::ptrdiff_t reference_stride,
                           std::uint32_t grid[16]) {
        plain_sad_grid16(current.pixels, current.stride, ref, reference_stride, grid);
    }
};

}  // namespace

PartitionCandidates plain_partition_candidates() { return &partition_candidates_impl<PlainGrid>; }

std::vector<NamedPartitionCandidates> simd_partition_candidates() {
    std::vector<NamedPartitionCandidates> kernels;
#if defined(XME_CPU_X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse2")) kernels.push_back({"sse2", sse2_partition_candidates()});
    if (__builtin_cpu_supports("avx2")) kernels.push_back({"avx2", avx2_partition_candidates()});
#endif
    return kernels;
}

PartitionCandidates partition_candidates_for(std::string_view variant) {
#if defined(XME_CPU_X86)
    if (variant == "avx512bw" || variant == "avx2") return avx2_partition_candidates();
    if (variant == "sse2") return sse2_partition_candidates();
#endif
    static_cast<void>(variant);
    return plain_partition_candidates();
}

}  // namespace xme::cpu
