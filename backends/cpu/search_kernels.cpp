// The CPU's table of search kernels: one row per file of searches/ (xme/kernel_table.hpp).
#include "integer_search.hpp"
#include "xme/kernel_table.hpp"

namespace xme::cpu {

#define XME_SEARCH_KERNEL(identifier) XME_CPU_SEARCH(identifier);
#include "cpu_search_kernels.inc"
#undef XME_SEARCH_KERNEL

namespace {

constexpr SearchKernelRow<SearchKernelFunction> search_kernels[] = {
#define XME_SEARCH_KERNEL(identifier) {SearchMethod::identifier, &search_kernel_##identifier},
#include "cpu_search_kernels.inc"
#undef XME_SEARCH_KERNEL
};

}  // namespace

const SearchKernelFunction* find_search_kernel(SearchMethod search) {
    return xme::find_search_kernel<SearchKernelFunction>(search_kernels, search);
}

}  // namespace xme::cpu
