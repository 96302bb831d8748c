// The Vulkan backend's table of search kernels (xme/kernel_table.hpp): one row per shader of
// shaders/searches/, which rate_search.comp runs when its SEARCH constant is the search's code.
#include "search_plan.hpp"
#include "xme/backend.hpp"
#include "xme/kernel_table.hpp"

namespace xme::vulkan {
namespace {

constexpr SearchKernelRow<int> search_kernels[] = {
#define XME_SEARCH_KERNEL(identifier) {SearchMethod::identifier, static_cast<int>(SearchMethod::identifier)},
#include "vulkan_search_kernels.inc"
#undef XME_SEARCH_KERNEL
};

}  // namespace

bool has_search_kernel(SearchMethod search) {
    return find_search_kernel<int>(search_kernels, search) != nullptr;
}

int search_constant(SearchMethod search) {
    const int* code = find_search_kernel<int>(search_kernels, search);
    if (code == nullptr) require_supported(search_kernel_support("vulkan", search, false));
    return *code;
}

}  // namespace xme::vulkan
