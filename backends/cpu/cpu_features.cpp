#include "cpu_features.hpp"

namespace xme::cpu {

std::vector<std::string> supported_kernels() {
    std::vector<std::string> kernels;
#if defined(XME_CPU_X86)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512bw")) kernels.emplace_back("avx512bw");
    if (__builtin_cpu_supports("avx2")) kernels.emplace_back("avx2");
    if (__builtin_cpu_supports("sse2")) kernels.emplace_back("sse2");
#endif
    kernels.emplace_back("portable");
    return kernels;
}

}  // namespace xme::cpu
