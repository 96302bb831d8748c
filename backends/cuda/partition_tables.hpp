// SPEC §9 on CUDA (partition_search.cuh): the per-session tables the partition kernels read, built on
// the host. Plain C++ (no device code), so that the emulation test builds the same ones.
//
// The kernels keep each partition's best as one 32-bit key J << rank_bits | rank, where rank is the
// candidate's place in the window sorted by SPEC §8's tie-break (|mv - p|, mv.y, mv.x). A min over such
// keys is §8's key order, whatever thread or order the candidates were costed in, so threads, warps and
// the CUDA block reduce with plain 32-bit mins. Valid for centre 0 and p = 0 (predictor none), where
// the order and the rate term are the same for every macroblock of the session.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "xme/rate.hpp"

namespace xme::cuda {

struct PartitionTables {
    int range = 0;
    int side = 0;       // 2 range + 1
    int rank_bits = 0;  // ranks < 2^rank_bits
    // [(dy + range) * side + dx + range]: (lambda * R(4 d)) << rank_bits | rank of (dx, dy).
    std::vector<std::uint32_t> terms;
    // [rank]: (dx + range) | (dy + range) << 16, the inverse of the ranks.
    std::vector<std::uint32_t> offsets;
    bool fits = false;  // every key of every partition is below 2^32 - 1 (the kernels' "no best")
};

inline PartitionTables make_partition_tables(int range, int lambda) {
    PartitionTables t;
    t.range = range;
    t.side = 2 * range + 1;
    const int count = t.side * t.side;
    while ((1 << t.rank_bits) < count) ++t.rank_bits;
    std::vector<std::uint32_t> order(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) order[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(i);
    const auto dx_of = [&](std::uint32_t i) { return static_cast<int>(i) % t.side - range; };
    const auto dy_of = [&](std::uint32_t i) { return static_cast<int>(i) / t.side - range; };
    // The index is raster order (dy, then dx): a stable sort by |4 d| keeps ties by (dy, dx).
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return std::abs(dx_of(a)) + std::abs(dy_of(a)) < std::abs(dx_of(b)) + std::abs(dy_of(b));
    });
    t.terms.resize(static_cast<std::size_t>(count));
    t.offsets.resize(static_cast<std::size_t>(count));
    std::uint64_t largest_rate = 0;
    for (int rank = 0; rank < count; ++rank) {
        const std::uint32_t i = order[static_cast<std::size_t>(rank)];
        const std::uint64_t rate = static_cast<std::uint64_t>(lambda) *
                                   static_cast<std::uint64_t>(rate_bits(4 * dx_of(i), 4 * dy_of(i)));
        largest_rate = std::max(largest_rate, rate);
        t.terms[i] = static_cast<std::uint32_t>((rate << t.rank_bits) | static_cast<std::uint64_t>(rank));
        t.offsets[static_cast<std::size_t>(rank)] =
            static_cast<std::uint32_t>(dx_of(i) + range) | static_cast<std::uint32_t>(dy_of(i) + range) << 16;
    }
    // The largest J: a 16x16 SAD (16 * 16 * 255) plus the largest rate term; vectors fit int16.
    const std::uint64_t most = 16 * 16 * 255 + largest_rate;
    t.fits = 4 * range <= 32767 && t.rank_bits <= 24 && ((most + 1) << t.rank_bits) < 0xFFFFFFFFull;
    return t;
}

}  // namespace xme::cuda
