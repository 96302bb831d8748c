#include "full_search.hpp"

#include <string>

#include "xme/error.hpp"

namespace xme::cpu {

SearchKernel find_kernel(std::string_view name) {
#if defined(XME_CPU_X86)
    if (name == "avx512bw") return avx512bw_kernel();
    if (name == "avx2") return avx2_kernel();
    if (name == "sse2") return sse2_kernel();
#endif
    if (name == "portable") return portable_kernel();
    throw Error(ErrorKind::invalid_argument, "the CPU backend has no kernel '" + std::string(name) + "'");
}

}  // namespace xme::cpu
