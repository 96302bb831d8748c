// SPEC §3's SAD, four candidates per call (plain C++), and the choice of kernels per variant.
#include <cstdlib>

#include "cpu_kernels.hpp"

namespace xme::cpu {
namespace {

void plain_sad_x4(const std::uint8_t* current, std::ptrdiff_t current_stride,
                  const std::uint8_t* const refs[4], std::ptrdiff_t reference_stride, int size,
                  std::uint32_t sads[4]) {
    for (int k = 0; k < 4; ++k) {
        std::uint32_t sum = 0;
        for (int j = 0; j < size; ++j) {
            const std::uint8_t* cur = current + j * current_stride;
            const std::uint8_t* ref = refs[k] + j * reference_stride;
            for (int i = 0; i < size; ++i) sum += static_cast<std::uint32_t>(std::abs(cur[i] - ref[i]));
        }
        sads[k] = sum;
    }
}

}  // namespace

std::uint32_t plain_satd(const std::uint8_t* current, std::ptrdiff_t current_stride, const std::uint8_t* p,
                         std::ptrdiff_t p_stride, const std::uint8_t* q, std::ptrdiff_t q_stride, int width,
                         int height, std::uint32_t limit);
void plain_half_pel_planes(const std::uint8_t* source, std::ptrdiff_t stride, int width, int rows,
                           std::uint8_t* horizontal, std::uint8_t* vertical, std::uint8_t* centre,
                           std::int32_t* scratch);

OperationKernels plain_operation_kernels() { return {&plain_sad_x4, &plain_satd, &plain_half_pel_planes}; }

std::vector<NamedOperationKernels> simd_operation_kernels() {
    std::vector<NamedOperationKernels> sets;
#if defined(XME_CPU_X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse2")) sets.push_back({"sse2", sse2_operation_kernels()});
    if (__builtin_cpu_supports("avx2")) sets.push_back({"avx2", avx2_operation_kernels()});
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
        sets.push_back({"avx512bw", avx512bw_operation_kernels()});
#endif
    return sets;
}

OperationKernels operation_kernels_for(std::string_view variant) {
#if defined(XME_CPU_X86)
    if (variant == "avx512bw") return avx512bw_operation_kernels();
    if (variant == "avx2") return avx2_operation_kernels();
    if (variant == "sse2") return sse2_operation_kernels();
#endif
    static_cast<void>(variant);
    return plain_operation_kernels();
}

}  // namespace xme::cpu
