// The CUDA backend's table of search kernels (xme/kernel_table.hpp): one row per walk of searches/,
// whose launcher CMake generates (XME_CUDA_SEARCH_LAUNCHER). The full search is not a walk: its kernels
// are the variants' (cuda_backend.cpp).
#include "rate_fast.hpp"
#include "xme/kernel_table.hpp"

namespace xme::cuda {

#define XME_SEARCH_KERNEL(identifier) \
    cudaError_t launch_search_##identifier(const SearchJob& job, Refinement refinement, cudaStream_t stream);
#include "cuda_search_kernels.inc"
#undef XME_SEARCH_KERNEL

namespace {

constexpr SearchKernelRow<SearchLauncher> search_kernels[] = {
#define XME_SEARCH_KERNEL(identifier) {SearchMethod::identifier, &launch_search_##identifier},
#include "cuda_search_kernels.inc"
#undef XME_SEARCH_KERNEL
};

}  // namespace

const SearchLauncher* find_search_launcher(SearchMethod search) {
    return find_search_kernel<SearchLauncher>(search_kernels, search);
}

}  // namespace xme::cuda
