// SPEC §9 by hand and on random data: the 41 partitions' order, each partition's result equal to a full
// search of its own rectangle over the macroblock's window, the mode decision's ties, and a crafted
// macroblock whose four quadrants move apart so that 8x8 wins.
#include <doctest/doctest.h>

#include <array>
#include <random>

#include "test_support.hpp"
#include "xme/error.hpp"
#include "xme/partitions.hpp"

using xme::MacroblockMode;
using xme::MotionVector;
using xme::Plane;
using xme::SubMode;
namespace ref = xme::reference;

namespace {

ref::BlockSearch macroblock_search(const Plane& reference, const Plane& current, int x, int y, int range) {
    ref::BlockSearch search;
    search.reference = reference.view();
    search.current = current.view();
    search.x = x;
    search.y = y;
    search.width = search.height = search.restrict_block_size = xme::macroblock_size;
    search.range = range;
    return search;
}

// Costs whose mode decision is plain to see: every partition 1000 unless set.
std::array<std::uint64_t, xme::partition_count> costs_with(
    std::initializer_list<std::pair<int, std::uint64_t>> set) {
    std::array<std::uint64_t, xme::partition_count> costs{};
    costs.fill(1000);
    for (const auto& [index, cost] : set) costs[static_cast<std::size_t>(index)] = cost;
    return costs;
}

}  // namespace

TEST_SUITE("reference") {
    TEST_CASE("§9 the 41 partitions in SPEC's order") {
        using xme::macroblock_partitions;
        const int quadrant_x[4] = {0, 8, 0, 8};
        const int quadrant_y[4] = {0, 0, 8, 8};
        for (int i = 0; i < xme::partition_count; ++i)
            CHECK(macroblock_partitions[static_cast<std::size_t>(i)].index == i);
        const auto is = [](const xme::Partition& p, int x, int y, int w, int h) {
            return p.x == x && p.y == y && p.width == w && p.height == h;
        };
        CHECK(is(macroblock_partitions[0], 0, 0, 16, 16));
        CHECK(is(macroblock_partitions[1], 0, 0, 16, 8));
        CHECK(is(macroblock_partitions[2], 0, 8, 16, 8));
        CHECK(is(macroblock_partitions[3], 0, 0, 8, 16));
        CHECK(is(macroblock_partitions[4], 8, 0, 8, 16));
        for (int q = 0; q < 4; ++q) {
            CAPTURE(q);
            const int qx = quadrant_x[q];
            const int qy = quadrant_y[q];
            CHECK(is(macroblock_partitions[static_cast<std::size_t>(5 + q)], qx, qy, 8, 8));
            CHECK(is(macroblock_partitions[static_cast<std::size_t>(9 + 2 * q)], qx, qy, 8, 4));  // top
            CHECK(
                is(macroblock_partitions[static_cast<std::size_t>(10 + 2 * q)], qx, qy + 4, 8, 4));  // bottom
            CHECK(is(macroblock_partitions[static_cast<std::size_t>(17 + 2 * q)], qx, qy, 4, 8));    // left
            CHECK(
                is(macroblock_partitions[static_cast<std::size_t>(18 + 2 * q)], qx + 4, qy, 4, 8));  // right
            for (int k = 0; k < 4; ++k) {  // raster order
                CHECK(is(macroblock_partitions[static_cast<std::size_t>(25 + 4 * q + k)], qx + 4 * (k % 2),
                         qy + 4 * (k / 2), 4, 4));
            }
        }
        // Every mode, with every combination of sub-modes, covers each pixel of the macroblock once.
        for (int combination = 0; combination < 4 * 4 * 4 * 4 + 3; ++combination) {
            const MacroblockMode mode =
                combination < 3 ? static_cast<MacroblockMode>(combination) : MacroblockMode::p8x8;
            std::array<SubMode, 4> sub{};
            for (int q = 0; q < 4; ++q)
                sub[static_cast<std::size_t>(q)] =
                    static_cast<SubMode>((std::max(combination - 3, 0) >> (2 * q)) & 3);
            int covered[16][16] = {};
            for (const int index : xme::partitions_of_mode(mode, sub)) {
                const xme::Partition& p = macroblock_partitions[static_cast<std::size_t>(index)];
                for (int y = p.y; y < p.y + p.height; ++y) {
                    for (int x = p.x; x < p.x + p.width; ++x) ++covered[y][x];
                }
            }
            for (const auto& row : covered) {
                for (const int count : row) REQUIRE(count == 1);
            }
        }
    }

    TEST_CASE("§9 each partition's result is a full search of its rectangle over the macroblock's window") {
        // A partition's SAD is the sum of its 4x4 SADs; so on random data its best candidate, J and SAD must
        // equal full_search's on the partition's own rectangle with the macroblock's window and validity
        // (restrict_block_size 16). 40x24 has partial macroblocks (partitions starting in the padding).
        auto rng = xme::test::rng_for("partition sads");
        for (const auto content : {xme::test::Content::noise, xme::test::Content::few_levels,
                                   xme::test::Content::moving_texture}) {
            const auto pair = xme::test::make_pair(content, 40, 24, rng);
            for (const auto border : {xme::BorderMode::pad, xme::BorderMode::restrict}) {
                for (const int mb : {0, 1, 2, 5}) {
                    const int x = 16 * (mb % 3);
                    const int y = 16 * (mb / 3);
                    ref::BlockSearch search = macroblock_search(pair.reference, pair.current, x, y, 3);
                    search.border = border;
                    search.lambda = std::uniform_int_distribution<int>(0, 6)(rng);
                    search.predictor = {std::uniform_int_distribution<int>(-9, 9)(rng),
                                        std::uniform_int_distribution<int>(-9, 9)(rng)};
                    search.centre = xme::round_quarter_to_pel(search.predictor);
                    const xme::MacroblockResult result = ref::partition_search(search, false);
                    for (const xme::Partition& p : xme::macroblock_partitions) {
                        CAPTURE(xme::test::to_string(content));
                        CAPTURE(x);
                        CAPTURE(y);
                        CAPTURE(p.index);
                        ref::BlockSearch own = search;
                        own.x = x + p.x;
                        own.y = y + p.y;
                        own.width = p.width;
                        own.height = p.height;
                        const ref::BlockResult expected = ref::full_search(own);
                        const ref::BlockResult& actual = result.partitions[static_cast<std::size_t>(p.index)];
                        CHECK(actual.mv == expected.mv);
                        CHECK(actual.cost == expected.cost);
                        CHECK(actual.candidates == expected.candidates);
                        CHECK(actual.distortion == ref::block_sad(search.reference, search.current, own.x,
                                                                  own.y, p.width, p.height, actual.mv.x / 4,
                                                                  actual.mv.y / 4));
                    }
                }
            }
        }
    }

    TEST_CASE("§9 quarter-pel: each partition refined from its own integer vector with its own SATD") {
        auto rng = xme::test::rng_for("partition qpel");
        const auto pair = xme::test::make_pair(xme::test::Content::moving_texture, 32, 32, rng);
        ref::BlockSearch search = macroblock_search(pair.reference, pair.current, 16, 0, 2);
        search.lambda = 4;
        search.predictor = {5, -3};
        const xme::MacroblockResult integer = ref::partition_search(search, false);
        const xme::MacroblockResult refined = ref::partition_search(search, true);
        std::array<std::uint64_t, xme::partition_count> costs{};
        for (const xme::Partition& p : xme::macroblock_partitions) {
            CAPTURE(p.index);
            ref::BlockSearch own = search;
            own.x = 16 + p.x;
            own.y = p.y;
            own.width = p.width;
            own.height = p.height;
            const ref::BlockResult expected =
                ref::refine_qpel(own, integer.partitions[static_cast<std::size_t>(p.index)].mv);
            const ref::BlockResult& actual = refined.partitions[static_cast<std::size_t>(p.index)];
            CHECK(actual.mv == expected.mv);
            CHECK(actual.cost == expected.cost);
            CHECK(actual.distortion == expected.distortion);
            CHECK(actual.candidates == integer.partitions[0].candidates);  // integer candidates, as §7 counts
            costs[static_cast<std::size_t>(p.index)] = actual.cost;
        }
        const xme::ModeDecision decision = ref::decide_mode(costs);
        CHECK(refined.decision.mode == decision.mode);
        CHECK(refined.decision.cost == decision.cost);
    }

    TEST_CASE("§9 the mode decision and its ties") {
        // 16x16 J0 = 100 against 16x8 J1 + J2 = 60 + 40: a tie, the earlier mode (16x16) wins.
        auto decision = ref::decide_mode(costs_with({{0, 100}, {1, 60}, {2, 40}}));
        CHECK(decision.mode == MacroblockMode::p16x16);
        CHECK(decision.cost == 100);
        // 16x8 = 8x16 = 99 < 100: 16x8 wins the tie.
        decision = ref::decide_mode(costs_with({{0, 100}, {1, 60}, {2, 39}, {3, 50}, {4, 49}}));
        CHECK(decision.mode == MacroblockMode::p16x8);
        CHECK(decision.cost == 99);
        // 8x16 = 98 = 8x8 (four quadrants at 8x8 J 20, 30, 24, 24): 8x16 wins the tie.
        decision =
            ref::decide_mode(costs_with({{0, 100}, {3, 50}, {4, 48}, {5, 20}, {6, 30}, {7, 24}, {8, 24}}));
        CHECK(decision.mode == MacroblockMode::p8x16);
        CHECK(decision.cost == 98);
        // One less in quadrant 3 and 8x8 wins with 97.
        decision =
            ref::decide_mode(costs_with({{0, 100}, {3, 50}, {4, 48}, {5, 20}, {6, 30}, {7, 24}, {8, 23}}));
        CHECK(decision.mode == MacroblockMode::p8x8);
        CHECK(decision.cost == 97);
        // Within quadrants: q0 8x8 = 20 = 8x4 (9: 12, 10: 8): 8x8. q1 8x8 = 30 > 8x4 (11, 12: 14 + 14 = 28) =
        // 4x8 (19, 20: 20 + 8): 8x4. q2 8x8 = 24 > 4x8 (21, 22: 11 + 11 = 22) = 4x4 (33..36: 5, 6, 5, 6):
        // 4x8. q3 8x8 = 23 > 4x4 (37..40: 5 each = 20), 8x4 and 4x8 at 2000: 4x4. 8x8 mode = 20 + 28 + 22 +
        // 20 = 90.
        decision = ref::decide_mode(
            costs_with({{0, 100}, {3, 50},  {4, 48},  {5, 20},  {6, 30}, {7, 24},  {8, 23},  {9, 12},
                        {10, 8},  {11, 14}, {12, 14}, {19, 20}, {20, 8}, {21, 11}, {22, 11}, {33, 5},
                        {34, 6},  {35, 5},  {36, 6},  {37, 5},  {38, 5}, {39, 5},  {40, 5}}));
        CHECK(decision.mode == MacroblockMode::p8x8);
        CHECK(decision.cost == 90);
        CHECK(decision.sub_modes == std::array{SubMode::p8x8, SubMode::p8x4, SubMode::p4x8, SubMode::p4x4});
        CHECK(xme::partitions_of_mode(decision.mode, decision.sub_modes) ==
              std::vector<int>{5, 11, 12, 21, 22, 37, 38, 39, 40});
    }

    TEST_CASE("§9 a macroblock whose quadrants move apart: 8x8 wins, each quadrant at its own vector") {
        auto rng = xme::test::rng_for("partition crafted");
        std::uniform_int_distribution<int> level(0, 255);
        Plane reference(48, 48);
        for (int y = 0; y < 48; ++y) {
            for (int x = 0; x < 48; ++x) reference.at(x, y) = static_cast<std::uint8_t>(level(rng));
        }
        // The macroblock at (16, 16): quadrant q copies the reference displaced by moves[q].
        const MotionVector moves[4] = {{2, 1}, {-3, 0}, {0, -2}, {1, 3}};
        Plane current = reference;
        for (int q = 0; q < 4; ++q) {
            for (int y = 0; y < 8; ++y) {
                for (int x = 0; x < 8; ++x) {
                    const int px = 16 + 8 * (q % 2) + x;
                    const int py = 16 + 8 * (q / 2) + y;
                    current.at(px, py) = reference.at(px + moves[q].x, py + moves[q].y);
                }
            }
        }
        for (const int lambda : {0, 4}) {
            CAPTURE(lambda);
            ref::BlockSearch search = macroblock_search(reference, current, 16, 16, 4);
            search.lambda = lambda;
            const xme::MacroblockResult result = ref::partition_search(search, false);
            CHECK(result.decision.mode == MacroblockMode::p8x8);
            // SAD 0 in every sub-partition too: 8x8 wins each quadrant by the tie rule (lambda 0) or by
            // its fewer rate terms.
            CHECK(result.decision.sub_modes ==
                  std::array{SubMode::p8x8, SubMode::p8x8, SubMode::p8x8, SubMode::p8x8});
            std::uint64_t expected_cost = 0;
            for (int q = 0; q < 4; ++q) {
                const ref::BlockResult& quadrant = result.partitions[static_cast<std::size_t>(5 + q)];
                CHECK(quadrant.mv == MotionVector{4 * moves[q].x, 4 * moves[q].y});
                CHECK(quadrant.distortion == 0);
                expected_cost += static_cast<std::uint64_t>(lambda) *
                                 static_cast<std::uint64_t>(xme::rate_bits(quadrant.mv, {}));
            }
            CHECK(result.decision.cost == expected_cost);
            CHECK(result.partitions[0].distortion > 0);
        }
    }

    TEST_CASE("§9 partition search refuses anything but a 16x16 macroblock of the grid") {
        const Plane plane(32, 32, 7);
        ref::BlockSearch search = macroblock_search(plane, plane, 8, 0, 2);
        CHECK_THROWS_WITH_AS(static_cast<void>(ref::partition_search(search, false)),
                             doctest::Contains("16x16 macroblocks"), xme::Error);
        search = macroblock_search(plane, plane, 0, 0, 2);
        search.width = 8;
        CHECK_THROWS_AS(static_cast<void>(ref::partition_search(search, false)), xme::Error);
    }
}
