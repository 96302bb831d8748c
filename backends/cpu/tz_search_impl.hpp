// SPEC §11 `tz`: HM's TZSearch with its defaults (diamond first search stopping after 3 rounds without
// improvement, 2-point search, raster step 5, star refinement), on the CPU's candidate sets.
// The search as a template over its candidate search, for the TUs that instantiate it: tz_search.cpp with
// the kernels' sad_x4 through its pointer, a SIMD set with its own 16x16 SAD inlined.
#pragma once

#include <array>

#include "integer_search_impl.hpp"

namespace xme::cpu {
namespace tz_detail {

inline constexpr int rounds_before_stop = 3;
inline constexpr int raster = 5;

// The search with HM's bookkeeping: where the best was found (its distance, and for distance 1 its axis
// step) and the diamond rounds since then. Constructed, not brace-initialised: as an aggregate g++ cleared
// the whole object with a `rep stos` before the search's constructor ran, ~3% of tz's time at range 16.
template <class Search>
struct TestZone {
    explicit TestZone(const IntegerBlock& block) : search(block) {}
    Search search;
    int distance = 0;
    int idle_rounds = 0;
    MotionVector step;
};

// The points of HM's 8-point diamond at distance d around (0, 0): 4 for d = 1, 8 up to d = 8, 16 beyond.
struct DiamondOffsets {
    int count = 0;
    MotionVector points[16];
};

constexpr DiamondOffsets diamond_offsets(int d) {
    DiamondOffsets o;
    if (d == 1) {
        o.points[0] = {0, -1};
        o.points[1] = {-1, 0};
        o.points[2] = {1, 0};
        o.points[3] = {0, 1};
        o.count = 4;
        return o;
    }
    o.points[0] = {0, -d};
    o.points[1] = {-d, 0};
    o.points[2] = {d, 0};
    o.points[3] = {0, d};
    if (d <= 8) {
        const int h = d / 2;
        o.points[4] = {-h, -h};
        o.points[5] = {h, -h};
        o.points[6] = {-h, h};
        o.points[7] = {h, h};
        o.count = 8;
        return o;
    }
    int n = 4;
    for (int i = 1; i <= 3; ++i) {
        const int along = d / 4 * i;
        const int across = d - along;
        o.points[n++] = {-along, -across};
        o.points[n++] = {along, -across};
        o.points[n++] = {-along, across};
        o.points[n++] = {along, across};
    }
    o.count = n;
    return o;
}

// Every round's offsets, d = 2^k up to the largest range, built at compile time rather than per round.
inline constexpr int diamond_distances = 12;
static_assert(1 << (diamond_distances - 1) <= max_search_range && max_search_range < 1 << diamond_distances);
inline constexpr auto diamond_table = [] {
    std::array<DiamondOffsets, diamond_distances> table{};
    for (int k = 0; k < diamond_distances; ++k) table[static_cast<std::size_t>(k)] = diamond_offsets(1 << k);
    return table;
}();

// A raster row's offsets from its first point, built at compile time: an array of MotionVector built per
// row is zeroed on construction, 13 KB for the largest range, on every block that takes the raster step.
inline constexpr auto raster_row = [] {
    std::array<MotionVector, 2 * max_search_range / raster + 1> row{};
    for (std::size_t i = 0; i < row.size(); ++i) row[i] = {static_cast<int>(i) * raster, 0};
    return row;
}();

// Round k: the diamond at distance d = 2^k around centre.
template <class Search>
void diamond(TestZone<Search>& tz, MotionVector centre, int k) {
    ++tz.idle_rounds;
    const DiamondOffsets& offsets = diamond_table[static_cast<std::size_t>(k)];
    const int d = 1 << k;
    const int improved = tz.search.consider_around(centre, offsets.points, offsets.count, {{-d, -d}, {d, d}});
    if (improved >= 0) {
        tz.distance = d;
        tz.idle_rounds = 0;
        tz.step = offsets.points[improved];
    }
}

// From the best W = S + u found at distance 1: W + u + u' and W + u - u', u' = (u.y, u.x).
template <class Search>
void two_points(TestZone<Search>& tz) {
    const MotionVector w = tz.search.best_pel();
    const MotionVector u = tz.step;
    const MotionVector offsets[2] = {{u.x + u.y, u.y + u.x}, {u.x - u.y, u.y - u.x}};
    tz.distance = 0;
    if (tz.search.consider_around(w, offsets, 2, Search::unit_reach) >= 0) {  // u: a unit step
        tz.distance = 2;
        tz.idle_rounds = 0;
        tz.step = {};
    }
}

}  // namespace tz_detail

// The search over any BasicCandidateSearch.
template <class Search>
IntegerResult tz_search_with(const IntegerBlock& block) {
    using namespace tz_detail;
    TestZone<Search> tz(block);
    search_start(tz.search);
    const MotionVector start = tz.search.best_pel();
    for (int k = 0; 1 << k <= block.range; ++k) {
        diamond(tz, start, k);
        if (tz.idle_rounds >= rounds_before_stop) break;
    }
    if (tz.distance == 1) two_points(tz);
    if (tz.distance > raster) {
        tz.distance = raster;
        const int per_row = 2 * block.range / raster + 1;
        for (int y = block.centre.y - block.range; y <= block.centre.y + block.range; y += raster) {
            const MotionVector row_start{block.centre.x - block.range, y};
            if (tz.search.consider_around(row_start, raster_row.data(), per_row,
                                          {{0, 0}, {(per_row - 1) * raster, 0}}) >= 0)
                tz.idle_rounds = 0;  // found at the raster step
        }
    }
    while (tz.distance > 0) {
        const MotionVector centre = tz.search.best_pel();
        tz.distance = 0;
        for (int k = 0; 1 << k <= block.range; ++k) diamond(tz, centre, k);
        if (tz.distance == 1) two_points(tz);
    }
    return tz.search.result();
}

}  // namespace xme::cpu
