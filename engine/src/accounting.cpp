#include "xme/accounting.hpp"

#include <algorithm>

namespace xme {
namespace {

// Valid displacements along one axis summed over the blocks of that axis (SPEC §2 is separable).
std::uint64_t candidates_along(int extent, const SearchParams& params) {
    const int b = params.block_size;
    const int blocks = blocks_across(extent, b);
    const int last = blocks * b - b;
    std::uint64_t total = 0;
    for (int i = 0; i < blocks; ++i) {
        const int position = i * b;
        const int low = params.border == BorderMode::pad ? -params.range : std::max(-params.range, -position);
        const int high = params.border == BorderMode::pad ? params.range : std::min(params.range, last - position);
        total += static_cast<std::uint64_t>(high - low + 1);
    }
    return total;
}

}  // namespace

std::uint64_t pixel_comparisons(int width, int height, const SearchParams& params) {
    const auto area = static_cast<std::uint64_t>(params.block_size) * static_cast<std::uint64_t>(params.block_size);
    std::uint64_t candidates = candidates_along(width, params) * candidates_along(height, params);
    if (params.algorithm == Algorithm::full_search_hpel) {
        candidates += 8ULL * static_cast<std::uint64_t>(blocks_across(width, params.block_size)) *
                      static_cast<std::uint64_t>(blocks_across(height, params.block_size));
    }
    return candidates * area;
}

}  // namespace xme
