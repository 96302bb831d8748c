// The reference's table of search kernels: one row per file of searches/ (xme/kernel_table.hpp).
#include <string>

#include "reference/integer_candidates.hpp"
#include "xme/backend.hpp"
#include "xme/kernel_table.hpp"

namespace xme::reference {

using SearchKernelFunction = BlockResult (*)(const BlockSearch&, const SearchSurroundings&);

#define XME_SEARCH_KERNEL(identifier) XME_REFERENCE_SEARCH(identifier);
#include "reference_search_kernels.inc"
#undef XME_SEARCH_KERNEL

namespace {

constexpr SearchKernelRow<SearchKernelFunction> search_kernels[] = {
#define XME_SEARCH_KERNEL(identifier) {SearchMethod::identifier, &search_kernel_##identifier},
#include "reference_search_kernels.inc"
#undef XME_SEARCH_KERNEL
};

}  // namespace

bool has_search_kernel(SearchMethod search) {
    return find_search_kernel<SearchKernelFunction>(search_kernels, search) != nullptr;
}

BlockResult integer_search(SearchMethod search, const BlockSearch& block,
                           const SearchSurroundings& surroundings) {
    const SearchKernelFunction* kernel = find_search_kernel<SearchKernelFunction>(search_kernels, search);
    if (kernel == nullptr) require_supported(search_kernel_support("reference", search, false));
    return (*kernel)(block, surroundings);
}

}  // namespace xme::reference
