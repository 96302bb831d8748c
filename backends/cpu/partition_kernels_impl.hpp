// The partition kernel written once over a grid function (Grid::sad_grid16) and instantiated per
// instruction set by partition_kernels*.cpp, each compiled with its own flags (internal linkage, so no
// function built for wider instructions is shared). The sums and the update are plain loops the compiler
// vectorizes with the file's instruction set.
#pragma once

#include <cstdint>

#include "partition_kernels.hpp"

namespace xme::cpu {
namespace {  // NOLINT(cert-dcl59-cpp,google-build-namespaces): one private copy per instruction set

// The 41 partition SADs from the grid g[4 * row + column], in the lanes of partition_lane: quadrant q's
// 8x8 covers rows 2 (q / 2) .. +1 and columns 2 (q % 2) .. +1.
inline void partition_sads(const std::uint32_t g[16], std::uint32_t s[partition_lanes]) {
    std::uint32_t eight[4];
    for (int q = 0; q < 4; ++q) {
        const int r = 2 * (q / 2);
        const int c = 2 * (q % 2);
        const std::uint32_t a = g[4 * r + c];  // the quadrant's 4x4s in raster order: a b / d e
        const std::uint32_t b = g[4 * r + c + 1];
        const std::uint32_t d = g[4 * (r + 1) + c];
        const std::uint32_t e = g[4 * (r + 1) + c + 1];
        s[4 * q] = a;  // 4x4
        s[4 * q + 1] = b;
        s[4 * q + 2] = d;
        s[4 * q + 3] = e;
        s[16 + 2 * q] = a + b;  // 8x4: top, bottom
        s[17 + 2 * q] = d + e;
        s[24 + 2 * q] = a + d;  // 4x8: left, right
        s[25 + 2 * q] = b + e;
        eight[q] = a + b + d + e;
        s[32 + q] = eight[q];
    }
    s[36] = eight[0] + eight[1];  // 16x8
    s[37] = eight[2] + eight[3];
    s[38] = eight[0] + eight[2];  // 8x16
    s[39] = eight[1] + eight[3];
    s[40] = s[36] + s[37];
    for (int p = 41; p < partition_lanes; ++p) s[p] = 0;  // + rate: never below a padding lane's best, 0
}

template <class Grid>
void partition_candidates_impl(const std::uint8_t* current, std::ptrdiff_t current_stride,
                               const std::uint8_t* const* refs, std::ptrdiff_t reference_stride,
                               const std::uint32_t* rates, int count, std::uint32_t first,
                               PartitionBests& bests) {
    const typename Grid::Current prepared(current, current_stride);
    for (int k = 0; k < count; ++k) {
        alignas(32) std::uint32_t grid[16];
        alignas(32) std::uint32_t sads[partition_lanes];
        Grid::sad_grid16(prepared, refs[k], reference_stride, grid);
        partition_sads(grid, sads);
        const std::uint32_t rate = rates[k];
        const std::uint32_t index = first + static_cast<std::uint32_t>(k);
        // J + rate cannot wrap: it stays below no_best.
        for (int p = 0; p < partition_lanes; ++p) {
            const std::uint32_t cost = sads[p] + rate;
            const bool better = cost < bests.cost[p];
            bests.cost[p] = better ? cost : bests.cost[p];
            bests.candidate[p] = better ? index : bests.candidate[p];
        }
    }
}

}  // namespace
}  // namespace xme::cpu
