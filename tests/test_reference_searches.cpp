// SPEC §8 full search and §11's fast searches on crafted cost surfaces: the path each search takes, its
// result and the exact number of candidates it evaluates, counted by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include "xme/error.hpp"
#include "xme/reference_ops.hpp"

using xme::MotionVector;
using xme::Plane;
namespace ref = xme::reference;

namespace {

template <class F>
Plane filled(int width, int height, F value) {
    Plane plane(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) plane.at(x, y) = static_cast<std::uint8_t>(value(x, y));
    }
    return plane;
}

// A cost surface: the 1x1 block at (20, 20) of an all-zero current frame costs ref(20 + dx, 20 + dy) at
// integer displacement (dx, dy). Reads past the 48x48 frame are edge-replicated, so the border keeps
// the fill value.
struct CostSurface {
    static constexpr int origin = 20;
    Plane reference;
    Plane current = Plane(48, 48, 0);

    explicit CostSurface(int fill) : reference(48, 48, static_cast<std::uint8_t>(fill)) {}
    template <class F>
    static CostSurface from(F cost) {
        CostSurface surface(0);
        surface.reference = filled(48, 48, [&](int x, int y) { return cost(x - origin, y - origin); });
        return surface;
    }
    void set(int dx, int dy, int cost) {
        reference.at(origin + dx, origin + dy) = static_cast<std::uint8_t>(cost);
    }

    [[nodiscard]] ref::BlockSearch search(int range) const {
        ref::BlockSearch search;
        search.reference = reference.view();
        search.current = current.view();
        search.x = search.y = origin;
        search.width = search.height = search.restrict_block_size = 1;
        search.range = range;
        return search;
    }
};

// 10 * the L1 distance to the target (tx, ty).
CostSurface valley(int tx, int ty) {
    return CostSurface::from(
        [=](int dx, int dy) { return std::min(255, 10 * (std::abs(dx - tx) + std::abs(dy - ty))); });
}

}  // namespace

TEST_SUITE("reference") {
    TEST_CASE("§8 full search: window around c, rate term, candidates counted") {
        const CostSurface surface = valley(3, -2);
        ref::BlockSearch search = surface.search(2);
        // Window [-2, 2]^2: (2, -2) is 10 from the target; 25 candidates.
        ref::BlockResult result = ref::full_search(search);
        CHECK(result.mv == MotionVector{8, -8});
        CHECK(result.cost == 10);
        CHECK(result.candidates == 25);
        // Centred on c = (2, -1) with R = 1 the target is inside: 9 candidates.
        search.centre = {2, -1};
        search.range = 1;
        result = ref::full_search(search);
        CHECK(result.mv == MotionVector{12, -8});
        CHECK(result.cost == 0);
        CHECK(result.candidates == 9);
        // lambda 10, p = 0, R = 3: J(3,-2) = 0 + 10*(se(12) + se(-8)) = 10*(9+9) = 180; J(0,0) = 50 + 10*2 =
        // 70; J(1,0) = 40 + 10*(7+1) = 120 = J(0,-1); every other candidate costs more: (0, 0) wins.
        search.centre = {0, 0};
        search.range = 3;
        search.lambda = 10;
        result = ref::full_search(search);
        CHECK(result.mv == MotionVector{0, 0});
        CHECK(result.cost == 70);
        CHECK(result.distortion == 50);
        CHECK(result.candidates == 49);
    }

    TEST_CASE("§8 full search in restrict mode: invalid candidates are not counted; zero stays valid") {
        const Plane current = filled(8, 8, [](int x, int y) { return 7 * x + 3 * y; });
        const Plane reference = filled(8, 8, [](int x, int y) { return 5 * x + 11 * y; });
        ref::BlockSearch search;
        search.reference = reference.view();
        search.current = current.view();
        search.width = search.height = search.restrict_block_size = 4;
        search.range = 2;
        search.border = xme::BorderMode::restrict;
        // Block (0, 0) of an 8x8 frame: dx, dy in 0..2 only.
        CHECK(ref::full_search(search).candidates == 9);
        search.border = xme::BorderMode::pad;
        CHECK(ref::full_search(search).candidates == 25);
        // A window with no valid candidate (centred far outside): the zero vector, evaluated once.
        search.border = xme::BorderMode::restrict;
        search.centre = {-5, -5};
        search.range = 1;
        const ref::BlockResult fallback = ref::full_search(search);
        CHECK(fallback.mv == MotionVector{0, 0});
        CHECK(fallback.candidates == 1);
        CHECK(fallback.cost == ref::block_sad(reference.view(), current.view(), 0, 0, 4, 4, 0, 0));
    }

    TEST_CASE("§11 dia: the path down a valley, ties by the key, at most R moves") {
        const CostSurface surface = valley(3, -2);
        ref::BlockSearch search = surface.search(8);
        // Start: round(p/4) = 0 and 0 (2 evaluations, cost 50). From (0,0), (1,0) and (0,-1) both cost 40
        // at the same distance: smaller y wins, (0,-1). Then (0,-2) (tie with (1,-1), smaller y), (1,-2),
        // (2,-2), (3,-2): 5 moves, then one round finding nothing: 2 + 6 * 4 = 26.
        ref::BlockResult result = ref::diamond_search(search);
        CHECK(result.mv == MotionVector{12, -8});
        CHECK(result.cost == 0);
        CHECK(result.candidates == 26);
        // R = 2: two moves, (0,-1) then (0,-2), and no third round: 2 + 2 * 4 = 10.
        search.range = 2;
        result = ref::diamond_search(search);
        CHECK(result.mv == MotionVector{0, -8});
        CHECK(result.cost == 30);
        CHECK(result.candidates == 10);
    }

    TEST_CASE("§11 dia: candidates outside the window are skipped, not counted") {
        const CostSurface surface = valley(5, 0);
        ref::BlockSearch search = surface.search(1);
        search.predictor = {4, 0};  // start candidates (1, 0) (cost 40) and (0, 0) (cost 50)
        // Around (1, 0): (2, 0) lies outside [-1, 1]; (0, 0), (1, +-1) cost 50: 2 + 3.
        const ref::BlockResult result = ref::diamond_search(search);
        CHECK(result.mv == MotionVector{4, 0});
        CHECK(result.cost == 40);
        CHECK(result.candidates == 5);
    }

    TEST_CASE("§11 a start with nothing to evaluate falls back to the zero vector") {
        const Plane frame = filled(8, 8, [](int x, int y) { return 9 * x + 4 * y; });
        ref::BlockSearch search;
        search.reference = frame.view();
        search.current = frame.view();
        search.width = search.height = search.restrict_block_size = 4;
        search.range = 1;
        search.border = xme::BorderMode::restrict;
        search.predictor = {-20, -20};
        search.centre = {-5, -5};  // round(p/4): invalid here; zero: outside the window
        for (const auto& run : {ref::diamond_search, ref::hexagon_search, ref::tz_search}) {
            const ref::BlockResult result = run(search);
            CHECK(result.mv == MotionVector{0, 0});
            CHECK(result.candidates == 1);
        }
    }

    TEST_CASE("§11 hex: hexagon moves, then the 8 neighbours once") {
        const CostSurface surface = valley(5, 1);
        // (0,0) costs 60. Hexagon around (0,0): (2,0) 40 best; around (2,0): (4,0) 20; around (4,0):
        // (5,2) 10; around (5,2): nothing below 10 (best (6,0)/(4,0) at 20). 8 neighbours of (5,2): (5,1)
        // costs 0. 2 + 4 * 6 + 8 = 34.
        const ref::BlockResult result = ref::hexagon_search(surface.search(8));
        CHECK(result.mv == MotionVector{20, 4});
        CHECK(result.cost == 0);
        CHECK(result.candidates == 34);
    }

    TEST_CASE("§11 tz: the first search stops after 3 rounds without improvement") {
        CostSurface surface(200);
        surface.set(0, 0, 100);
        // R = 64: rounds d = 1, 2, 4 (4 + 8 + 8 points) find nothing: stop; best distance 0, so neither
        // raster nor star refinement. 2 + 20 = 22. A better point at (16, 0) is never reached.
        surface.set(16, 0, 50);
        ref::BlockResult result = ref::tz_search(surface.search(64));
        CHECK(result.mv == MotionVector{0, 0});
        CHECK(result.cost == 100);
        CHECK(result.candidates == 22);

        // An improvement at d = 4 restarts the count: d = 8, 16, 32 (8 + 16 + 16) then stop: 2 + 4 + 8 + 8 +
        // 8 + 16 + 16 = 62. Best distance 4: star refinement around (4, 0): d = 1..64 give 4 + 8 + 8 + 8 +
        // 16 + 16 + 15 (at d = 64, (68, 0) is outside the window) = 75, nothing better. 62 + 75 = 137.
        surface.set(16, 0, 200);
        surface.set(4, 0, 50);
        result = ref::tz_search(surface.search(64));
        CHECK(result.mv == MotionVector{16, 0});
        CHECK(result.cost == 50);
        CHECK(result.candidates == 137);
    }

    TEST_CASE("§11 tz: the 2-point search beyond a distance-1 best") {
        CostSurface surface(200);
        surface.set(0, 0, 100);
        surface.set(0, -1, 50);  // found at d = 1, u = (0, -1)
        surface.set(1, -2, 20);  // W + u - u' = (0,-1) + (0,-1) + (1, 0), on no diamond around (0, 0)
        // First search, R = 4: 2 + 4 + 8 + 8 = 22; 2-point search: (-1,-2), (1,-2): 24, best at distance
        // 2 (HM). Star around (1,-2): d = 1 (4), d = 2 (8), d = 4 (6: (1,-6) and (5,-2) outside): 18,
        // nothing better. 42.
        const ref::BlockResult result = ref::tz_search(surface.search(4));
        CHECK(result.mv == MotionVector{4, -8});
        CHECK(result.cost == 20);
        CHECK(result.candidates == 42);
    }

    TEST_CASE("§11 tz: raster search with step 5 from the window's top-left corner") {
        CostSurface surface(200);
        surface.set(0, 0, 100);
        surface.set(2, 0, 90);   // found at d = 2, keeps the first search going
        surface.set(8, 0, 50);   // found at d = 8 > 5: raster search follows
        surface.set(9, 4, 10);   // on the raster: -16 + 5*5, -16 + 4*5
        surface.set(15, 15, 5);  // a raster from (0, 0) or from c would land here; this one cannot
        // First search, R = 16: 2 + 4 + 8 + 8 + 8 + 16 = 46. Raster: 7 x 7 = 49. Star around (9, 4):
        // 4 + 8 + 8 + 7 + 10 (points past x = 16 or y = 16 skipped) = 37. 132.
        const ref::BlockResult result = ref::tz_search(surface.search(16));
        CHECK(result.mv == MotionVector{36, 16});
        CHECK(result.cost == 10);
        CHECK(result.candidates == 132);
    }

    TEST_CASE("§11 mean pyramid: rounded 2x2 means, odd sizes edge-replicated") {
        const int values[3][5] = {{0, 1, 3, 3, 200}, {0, 0, 1, 2, 201}, {9, 10, 255, 254, 7}};
        const Plane plane = filled(5, 3, [&](int x, int y) { return values[y][x]; });
        const Plane half = ref::mean_downsample(plane.view());
        REQUIRE(half.width() == 3);
        REQUIRE(half.height() == 2);
        const int expected[2][3] = {
            {0, 2, 201},   // (1+2)>>2, (9+2)>>2, (802+2)>>2 (the last column read twice)
            {10, 255, 7},  // (38+2)>>2, (1018+2)>>2, (28+2)>>2 (the last row read twice)
        };
        for (int y = 0; y < 2; ++y) {
            for (int x = 0; x < 3; ++x) CHECK(half.view().at(x, y) == expected[y][x]);
        }
        const Plane one = filled(1, 1, [](int, int) { return 77; });
        CHECK(ref::mean_downsample(one.view()).view().at(0, 0) == 77);
    }

    TEST_CASE("§11 ehds: exhaustive level 2, dia on level 1 and level 0, twice the result handed down") {
        // Crafted levels (not means) so that each level's surface is known. 40x40, B = 4, block (16, 16),
        // R = 8: level 2 block (4, 4) 1x1, range 2; level 1 block (8, 8) 2x2, range 4.
        const Plane zero40(40, 40, 0), zero20(20, 20, 0), zero10(10, 10, 0);
        Plane level2(10, 10, 100);
        level2.at(5, 3) = 0;  // level 2's best: (1, -1) of 25 candidates
        Plane level1(20, 20, 100);
        for (const auto& [x, y] : {std::pair{11, 6}, {12, 6}, {11, 7}, {12, 7}}) level1.at(x, y) = 0;
        // Level 1 from (2, -2) (cost 200): (3, -2) costs 0; around it nothing is cheaper: 1 + 4 + 4 = 9.
        Plane level0(40, 40, 100);
        for (int y = 12; y < 16; ++y) {
            for (int x = 23; x < 27; ++x) level0.at(x, y) = 0;  // the block displaced by (7, -4)
        }
        // Level 0 from (6, -4) (cost 400): (7, -4) costs 0; a round finding nothing; 8 neighbours:
        // 1 + 4 + 4 + 8 = 17. Total 25 + 9 + 17 = 51.
        ref::BlockSearch search;
        search.reference = level0.view();
        search.current = zero40.view();
        search.x = search.y = 16;
        search.width = search.height = search.restrict_block_size = 4;
        search.range = 8;
        const ref::BlockResult result =
            ref::ehds_search(search, level1.view(), zero20.view(), level2.view(), zero10.view());
        CHECK(result.mv == MotionVector{28, -16});
        CHECK(result.cost == 0);
        CHECK(result.candidates == 51);
        CHECK_THROWS_AS(
            (void)ref::ehds_search(search, level1.view(), zero20.view(), zero20.view(), zero10.view()),
            xme::Error);
    }

    TEST_CASE("§11 ehds: levels above 0 read edge-replicated samples; restrict applies at level 0 only") {
        // 16x16, B = 4, block (0, 0), R = 4 (level ranges 1 and 2), restrict.
        const Plane level2(4, 4, 50);  // flat: (0, 0) wins level 2's 9 candidates by the key
        Plane level1(8, 8, 100);
        for (int y = 0; y < 8; ++y) level1.at(0, y) = 0;
        const Plane zero8(8, 8, 0);
        // Level 1 (2x2 block): (0,0) reads columns 0, 1: 200; (-1,0) reads column 0 twice: 0, valid up
        // there. Around (-1,0) nothing has a smaller key: 1 + 4 + 4 = 9.
        const Plane frame = filled(16, 16, [](int x, int y) { return 10 * x + 3 * y; });
        ref::BlockSearch search;
        search.reference = frame.view();
        search.current = frame.view();
        search.width = search.height = search.restrict_block_size = 4;
        search.range = 4;
        search.border = xme::BorderMode::restrict;
        // Level 0: (-2, 0) is invalid, so §11's start: (0,0) twice, cost 0. dia: (1,0), (0,1) only; the 8
        // neighbours: (1,0), (0,1), (1,1) only. 2 + 2 + 3 = 7. Total 9 + 9 + 7 = 25.
        const ref::BlockResult result =
            ref::ehds_search(search, level1.view(), zero8.view(), level2.view(), Plane(4, 4, 50).view());
        CHECK(result.mv == MotionVector{0, 0});
        CHECK(result.cost == 0);
        CHECK(result.candidates == 25);
    }
}
