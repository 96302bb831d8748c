#include "xme/accounting.hpp"

#include <algorithm>
#include <vector>

namespace xme {
namespace {

// Valid displacements along one axis for each block of that axis (SPEC §2 is separable).
std::vector<std::uint32_t> candidates_along(int extent, const SearchParams& params) {
    const int b = params.block_size;
    const int blocks = blocks_across(extent, b);
    const int last = blocks * b - b;
    std::vector<std::uint32_t> counts;
    for (int i = 0; i < blocks; ++i) {
        const int position = i * b;
        const int low = params.border == BorderMode::pad ? -params.range : std::max(-params.range, -position);
        const int high =
            params.border == BorderMode::pad ? params.range : std::min(params.range, last - position);
        counts.push_back(static_cast<std::uint32_t>(high - low + 1));
    }
    return counts;
}

std::uint64_t subpel_candidates_per_block(const SearchParams& params) {
    return params.subpel == Subpel::hpel ? 8 : params.subpel == Subpel::qpel ? 16 : 0;
}

std::uint64_t area(const SearchParams& params) {
    return static_cast<std::uint64_t>(params.block_size) * static_cast<std::uint64_t>(params.block_size);
}

}  // namespace

std::uint64_t pixel_comparisons(int width, int height, const SearchParams& params) {
    std::uint64_t across = 0;
    std::uint64_t down = 0;
    for (const auto count : candidates_along(width, params)) across += count;
    for (const auto count : candidates_along(height, params)) down += count;
    const auto blocks = static_cast<std::uint64_t>(blocks_across(width, params.block_size)) *
                        static_cast<std::uint64_t>(blocks_across(height, params.block_size));
    return (across * down + subpel_candidates_per_block(params) * blocks) * area(params);
}

std::uint64_t pixel_comparisons(const MotionField& field, const SearchParams& params) {
    return pixel_comparisons(field.total_candidates(), field.blocks.size(), params);
}

std::uint64_t pixel_comparisons(std::uint64_t candidates, std::size_t blocks, const SearchParams& params) {
    return (candidates + subpel_candidates_per_block(params) * blocks) * area(params);
}

void set_full_search_candidates(MotionField& field, int width, int height, const SearchParams& params) {
    const auto across = candidates_along(width, params);
    const auto down = candidates_along(height, params);
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            field.at(bx, by).candidates =
                across[static_cast<std::size_t>(bx)] * down[static_cast<std::size_t>(by)];
        }
    }
}

}  // namespace xme
