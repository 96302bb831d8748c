// A backend's map from SPEC's integer searches to its kernels (docs/engine.md, "Adding an integer
// search"). Each backend keeps one such table, built from the kernel files it has (cmake/
// XmeSearchKernels.cmake lists them, one XME_SEARCH_KERNEL(identifier) line per file); a search without
// a row is "not supported", with the reason search_kernel_support derives: never run as another search.
#pragma once

#include <span>
#include <string>

#include "xme/device.hpp"
#include "xme/params.hpp"

namespace xme {

template <class Kernel>
struct SearchKernelRow {
    SearchMethod search;
    Kernel kernel;
};

// The row's kernel for `search`, or null when the table has none.
template <class Kernel>
[[nodiscard]] constexpr const Kernel* find_search_kernel(std::span<const SearchKernelRow<Kernel>> table,
                                                         SearchMethod search) {
    for (const SearchKernelRow<Kernel>& row : table) {
        if (row.search == search) return &row.kernel;
    }
    return nullptr;
}

// Yes when `has_kernel`; else why not, naming `device` (as "cuda:0") and the search's row of the table
// of operations, and where to see what the device does run.
[[nodiscard]] Support search_kernel_support(const std::string& device, SearchMethod search, bool has_kernel);

}  // namespace xme
