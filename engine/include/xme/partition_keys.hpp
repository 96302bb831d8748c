// SPEC §9 on a GPU: the per-session key tables that the partition searches of the CUDA backend
// (backends/cuda/partition_search.cuh) and the Vulkan backend (shaders/partition_search.comp) read, built
// on the host. Plain C++, so that CUDA's emulation test builds the same ones.
//
// The kernels keep each partition's best as one 32-bit key J << rank_bits | rank, where rank is the
// candidate's place in the window sorted by SPEC §8's tie-break (|4 d - p|, d.y, d.x). A min over such
// keys is §8's key order, whatever thread or order the candidates were costed in, so threads, warps and
// the CUDA block reduce with plain 32-bit mins. With the window centred on 0, both the order and the rate
// term depend on the candidate d only through o = d - floor(p / 4) and the fraction f = p mod 4 (per
// axis): 4 d - p = 4 o - f. So one table per fraction (16 with the temporal predictor, whose p is any
// quarter-pel vector of the previous pair's window, |p| <= 4 range + 3; 1 with p = 0), over the offsets o
// with |o| <= radius (range + 1 + range with a predictor, else range), serves every macroblock. A window
// centred on c = round(p / 4) holds d = c + e, |e| <= range, and c - floor(p / 4) is 0 or 1: its offsets
// lie within range + 1, whatever p.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "xme/rate.hpp"

namespace xme {

struct PartitionTables {
    int range = 0;
    int radius = 0;     // offsets o in [-radius, radius]^2
    int side = 0;       // 2 radius + 1
    int fractions = 1;  // tables: 16 with a predictor (f = 4 (p.y & 3) + (p.x & 3)), else 1
    int rank_bits = 0;  // ranks < 2^rank_bits
    // [f * side^2 + (o.y + radius) * side + o.x + radius]: (lambda * R(4 o - f)) << rank_bits | rank.
    std::vector<std::uint32_t> terms;
    // [f * side^2 + rank]: (o.x + radius) | (o.y + radius) << 16, the inverse of the ranks.
    std::vector<std::uint32_t> offsets;
    bool fits = false;  // partition_tables_fit; the tables are empty when not
};

// The largest |p| component the tables with a predictor take (quarter pel): any result of a window of
// this range centred on 0.
inline int partition_predictor_bound(int range) { return 4 * range + 3; }

// Whether the keys of these tables fit 32 bits (checked before building them: supports() asks): the
// largest J, a 16x16 SAD (16 * 16 * 255) plus the largest rate term, shifted by the rank bits stays below
// the kernels' "no best"; and vectors fit int16.
inline std::int64_t partition_radius(int range, bool predictor, bool centred) {
    if (!predictor) return range;
    return centred ? static_cast<std::int64_t>(range) + 1 : 2 * static_cast<std::int64_t>(range) + 1;
}

inline bool partition_tables_fit(int range, int lambda, bool predictor, bool centred) {
    if (range < 0 || 4 * static_cast<std::int64_t>(range) + 3 > 32767) return false;
    const std::int64_t radius = partition_radius(range, predictor, centred);
    const std::int64_t count = (2 * radius + 1) * (2 * radius + 1);
    int rank_bits = 0;
    while ((std::int64_t{1} << rank_bits) < count) ++rank_bits;
    const int farthest = static_cast<int>(4 * radius + (predictor ? 3 : 0));  // |4 o - f|
    // A centred window that is empty takes the zero vector, whose |0 - p| may reach 32768.
    const int bits = std::max(2 * se_bits(-farthest), centred ? 2 * se_bits(-32768) : 0);
    const std::uint64_t most =
        16 * 16 * 255 + static_cast<std::uint64_t>(lambda) * static_cast<std::uint64_t>(bits);
    return rank_bits <= 24 && ((most + 1) << rank_bits) < 0xFFFFFFFFull;
}

inline PartitionTables make_partition_tables(int range, int lambda, bool predictor, bool centred) {
    PartitionTables t;
    t.range = range;
    t.radius = static_cast<int>(partition_radius(range, predictor, centred));
    t.side = 2 * t.radius + 1;
    t.fractions = predictor ? 16 : 1;
    const int count = t.side * t.side;
    while ((1 << t.rank_bits) < count) ++t.rank_bits;
    const auto ox_of = [&](std::uint32_t i) { return static_cast<int>(i) % t.side - t.radius; };
    const auto oy_of = [&](std::uint32_t i) { return static_cast<int>(i) / t.side - t.radius; };
    t.terms.resize(static_cast<std::size_t>(count) * static_cast<std::size_t>(t.fractions));
    t.offsets.resize(t.terms.size());
    t.fits = partition_tables_fit(range, lambda, predictor, centred);
    if (!t.fits) return t;
    std::vector<std::uint32_t> order(static_cast<std::size_t>(count));
    for (int f = 0; f < t.fractions; ++f) {
        const int fx = f & 3;
        const int fy = f >> 2;
        const auto distance = [&](std::uint32_t i) {
            return std::abs(4 * ox_of(i) - fx) + std::abs(4 * oy_of(i) - fy);
        };
        for (int i = 0; i < count; ++i) order[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(i);
        // The index is raster order (o.y, then o.x): a stable sort by |4 o - f| keeps ties by (y, x).
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return distance(a) < distance(b); });
        const std::size_t base = static_cast<std::size_t>(f) * static_cast<std::size_t>(count);
        for (int rank = 0; rank < count; ++rank) {
            const std::uint32_t i = order[static_cast<std::size_t>(rank)];
            const std::uint64_t rate =
                static_cast<std::uint64_t>(lambda) *
                static_cast<std::uint64_t>(rate_bits(4 * ox_of(i) - fx, 4 * oy_of(i) - fy));
            t.terms[base + i] =
                static_cast<std::uint32_t>((rate << t.rank_bits) | static_cast<std::uint64_t>(rank));
            t.offsets[base + static_cast<std::size_t>(rank)] =
                static_cast<std::uint32_t>(ox_of(i) + t.radius) |
                static_cast<std::uint32_t>(oy_of(i) + t.radius) << 16;
        }
    }
    return t;
}

}  // namespace xme
