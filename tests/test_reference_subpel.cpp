// SPEC §4 and §10 by hand: H.264's 16 sample positions, satd4 on known blocks, and both refinements on
// frames whose interpolation is exact.
#include <doctest/doctest.h>

#include "xme/error.hpp"
#include "xme/reference_ops.hpp"

using xme::MotionVector;
using xme::Plane;
namespace ref = xme::reference;

namespace {

// Hand-made: strong alternations give negative 6-tap sums and sums above 255 * 32.
constexpr int sample_image[8][8] = {
    {10, 20, 30, 40, 50, 60, 70, 80},     {90, 200, 10, 250, 0, 240, 30, 100},
    {60, 20, 250, 60, 240, 200, 90, 40},  {30, 255, 250, 20, 0, 255, 10, 120},
    {80, 100, 30, 255, 255, 40, 200, 70}, {50, 40, 220, 200, 60, 30, 10, 210},
    {110, 180, 20, 230, 90, 140, 250, 0}, {70, 160, 130, 15, 225, 35, 45, 195},
};

Plane plane_of(const int (&values)[8][8]) {
    Plane plane(8, 8);
    for (int y = 0; y < 8; ++y) {
        for (int x = 0; x < 8; ++x) plane.at(x, y) = static_cast<std::uint8_t>(values[y][x]);
    }
    return plane;
}

template <class F>
Plane filled(int width, int height, F value) {
    Plane plane(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) plane.at(x, y) = static_cast<std::uint8_t>(value(x, y));
    }
    return plane;
}

}  // namespace

TEST_SUITE("reference") {
    TEST_CASE("§10 the 16 H.264 sample positions around G = (3, 3)") {
        const Plane image = plane_of(sample_image);
        // G = 20, H = 0 (right), M = 255 (below).
        // b1 = t(row 3, x 1..6) = 255 - 5*250 + 20*20 + 20*0 - 5*255 + 10 = -1860: (-1844 >> 5) = -58 -> b =
        // 0. h1 = t(column 3, y 1..6) = 250 - 5*60 + 20*20 + 20*255 - 5*200 + 230 = 4680 -> (4696 >> 5) =
        // 146. m1 = t(column 4) = 0 - 5*240 + 0 + 20*255 - 5*60 + 90 = 3690 -> m = 115. s1 = t(row 4) = 100 -
        // 5*30 + 20*255 + 20*255 - 5*40 + 200 = 10150 -> 317, clipped: s = 255. j1 = t(b1 of rows 1..6) =
        // t(3980, 3860, -1860, 10150, 4000, 6030) = 136510 -> (137022 >> 10) = 133; a j from the clipped b
        // instead would be 131.
        const int expected[4][4] = {
            {20, 10, 0, 0},        // G, a = (G+b+1)>>1, b, c = (H+b+1)>>1
            {83, 73, 67, 58},      // d = (G+h+1)>>1, e = (b+h+1)>>1, f = (b+j+1)>>1, g = (b+m+1)>>1
            {146, 140, 133, 124},  // h, i = (h+j+1)>>1, j, k = (j+m+1)>>1
            {201, 201, 194, 185},  // n = (M+h+1)>>1, p = (h+s+1)>>1, q = (j+s+1)>>1, r = (m+s+1)>>1
        };
        for (int fy = 0; fy < 4; ++fy) {
            for (int fx = 0; fx < 4; ++fx) {
                CAPTURE(fx);
                CAPTURE(fy);
                CHECK(ref::h264_sample(image.view(), 4 * 3 + fx, 4 * 3 + fy) == expected[fy][fx]);
            }
        }
    }

    TEST_CASE("§10 the 16 positions around G = (-1, 6): every tap edge-replicated") {
        const Plane image = plane_of(sample_image);
        // G = H = 110 (column 0), M = 70.
        // b1 = t(110, 110, 110, 110, 180, 20) = 3080 -> b = 96; h1 = m1 = t(80, 50, 110, 70, 70, 70) = 3150
        // -> 98; s1 = t(70, 70, 70, 70, 160, 130) = 1850 -> s = 58; j1 = t(b1 of rows 4..9, rows 8 and 9
        // being row 7) = t(2410, 1820, 3080, 1850, 1850, 1850) = 84510 -> 83.
        const int expected[4][4] = {
            {110, 103, 96, 103},
            {104, 97, 90, 97},
            {98, 91, 83, 91},
            {84, 78, 71, 78},
        };
        for (int fy = 0; fy < 4; ++fy) {
            for (int fx = 0; fx < 4; ++fx) {
                CAPTURE(fx);
                CAPTURE(fy);
                CHECK(ref::h264_sample(image.view(), -4 + fx, 24 + fy) == expected[fy][fx]);
            }
        }
    }

    TEST_CASE("§10 satd4 on known blocks") {
        // A constant difference 7: only the DC coefficient, 16 * 7 = 112; halved 56 (SAD would be 112).
        int constant[4][4];
        for (auto& row : constant) {
            for (int& value : row) value = 7;
        }
        CHECK(ref::satd4(constant) == 56);
        // A single impulse -10: all 16 coefficients are +-10: 160 >> 1 = 80 (SAD 10).
        int impulse[4][4] = {};
        impulse[2][1] = -10;
        CHECK(ref::satd4(impulse) == 80);
        // A Hadamard basis pattern, 3 * (row 2 of H)^T (row 1 of H): one coefficient 3 * 4 * 4 = 48 -> 24
        // (SAD 48).
        const int h2[4] = {1, -1, -1, 1};
        const int h1[4] = {1, 1, -1, -1};
        int basis[4][4];
        for (int r = 0; r < 4; ++r) {
            for (int c = 0; c < 4; ++c) basis[r][c] = 3 * h2[r] * h1[c];
        }
        CHECK(ref::satd4(basis) == 24);
        // One row 1 2 3 4: every row of H D is (1 2 3 4); times H^T: (10, -4, 0, -2) per row: 4 * 16 = 64
        // -> 32.
        int ramp[4][4] = {{1, 2, 3, 4}};
        CHECK(ref::satd4(ramp) == 32);
        // The extreme: a 0/255 checkerboard difference is a basis pattern: 255 * 16 -> 2040.
        int checker[4][4];
        for (int r = 0; r < 4; ++r) {
            for (int c = 0; c < 4; ++c) checker[r][c] = (r + c) % 2 == 0 ? 255 : -255;
        }
        CHECK(ref::satd4(checker) == 2040);
    }

    TEST_CASE("§10 SATD of a block: satd4 summed over its 4x4 tiles, at fractional vectors too") {
        // A constant reference interpolates to itself at every position (the 6-tap sums to 32).
        const Plane reference = filled(16, 16, [](int, int) { return 100; });
        const Plane current = filled(16, 16, [](int, int) { return 103; });
        // 8x4: two tiles of constant difference 3: 2 * 8 * 3.
        CHECK(ref::satd(reference.view(), current.view(), 4, 8, 8, 4, {0, 0}) == 48);
        CHECK(ref::satd(reference.view(), current.view(), 4, 8, 8, 4, {-3, 5}) == 48);
        CHECK(ref::satd(reference.view(), current.view(), 0, 0, 8, 8, {2, 2}) == 96);
        CHECK_THROWS_AS((void)ref::satd(reference.view(), current.view(), 0, 0, 6, 4, {0, 0}), xme::Error);
    }

    TEST_CASE("§10 quarter-pel refinement on a ramp: half stage, then quarter stage") {
        // ref(x, y) = 4x + 20 interpolates exactly: sample(qx, qy) = qx + 20 (rows are constant in y).
        // current = 4x + 23 = ref displaced by 3/4 pel: the difference at mv is 3 - mv.x everywhere, so
        // an 8x8 block's SATD is 4 tiles * 8 * |3 - mv.x|.
        const Plane reference = filled(32, 32, [](int x, int) { return 4 * x + 20; });
        const Plane current = filled(32, 32, [](int x, int) { return 4 * x + 23; });
        ref::BlockSearch search;
        search.reference = reference.view();
        search.current = current.view();
        search.x = 8;
        search.y = 8;
        search.width = search.height = search.restrict_block_size = 8;
        search.range = 4;
        // Half stage: x in {-2, 0, 2} costs 160, 96, 32: w = (2, 0) (y ties go to |mv| then y).
        // Quarter stage around (2, 0): (3, 0) costs 0. 9 + 9 candidates.
        ref::BlockResult result = ref::refine_qpel(search, {0, 0});
        CHECK(result.mv == MotionVector{3, 0});
        CHECK(result.cost == 0);
        CHECK(result.distortion == 0);
        CHECK(result.candidates == 18);

        // lambda 20, p = 0: J(0,0) = 96 + 20*(1+1) = 136, J(2,0) = 32 + 20*(5+1) = 152: the half stage
        // keeps (0, 0); the quarter stage: J(1,0) = 64 + 20*(3+1) = 144, J(-1,0) = 128 + 80: (0, 0) stays.
        search.lambda = 20;
        result = ref::refine_qpel(search, {0, 0});
        CHECK(result.mv == MotionVector{0, 0});
        CHECK(result.cost == 136);
        CHECK(result.distortion == 96);

        // With the predictor at (3, 0) the rate pulls the same way as the distortion.
        search.predictor = {3, 0};
        result = ref::refine_qpel(search, {0, 0});
        CHECK(result.mv == MotionVector{3, 0});
        CHECK(result.cost == 20 * 2);
        CHECK_THROWS_AS((void)ref::refine_qpel(search, {2, 0}), xme::Error);
    }

    TEST_CASE("§10 restrict: a fractional vector needs its floor and ceil blocks inside the padded frame") {
        // 20x16 frame, B = 8: Wp = 24, Hp = 16. Block (16, 8) may move right by up to 0 pel, down by 0.
        CHECK(ref::fractional_vector_valid(16, 8, {0, 0}, 20, 16, 8, xme::BorderMode::restrict));
        CHECK_FALSE(ref::fractional_vector_valid(16, 8, {1, 0}, 20, 16, 8, xme::BorderMode::restrict));
        CHECK(ref::fractional_vector_valid(16, 8, {-1, -3}, 20, 16, 8, xme::BorderMode::restrict));
        CHECK_FALSE(ref::fractional_vector_valid(16, 8, {-1, 2}, 20, 16, 8, xme::BorderMode::restrict));
        CHECK(ref::fractional_vector_valid(16, 8, {1, 2}, 20, 16, 8, xme::BorderMode::pad));
        // Block (0, 0): floor(-1/4) = -1 leaves the frame.
        CHECK_FALSE(ref::fractional_vector_valid(0, 0, {-1, 0}, 20, 16, 8, xme::BorderMode::restrict));
        // A §9 partition at (4, 12) is tested as its macroblock at (0, 8) (B = 8 here).
        CHECK(ref::fractional_vector_valid(4, 12, {-4 * 0, -4 * 8}, 20, 16, 8, xme::BorderMode::restrict));
        CHECK_FALSE(
            ref::fractional_vector_valid(4, 12, {0, -4 * 8 - 1}, 20, 16, 8, xme::BorderMode::restrict));
    }

    TEST_CASE("§4 with rate: bilinear half-pel refinement on a ramp") {
        // ref = 4x + 20, current = 4x + 22: 4*cur - 4*interp = 4 * (2 - mv.x) at every pixel, so an 8x8
        // block's cost4 is 64 * 4 * |2 - mv.x|: 0 at mv.x = 2, 512 at 4, 1024 at 6.
        const Plane reference = filled(32, 32, [](int x, int) { return 4 * x + 20; });
        const Plane current = filled(32, 32, [](int x, int) { return 4 * x + 22; });
        ref::BlockSearch search;
        search.reference = reference.view();
        search.current = current.view();
        search.x = 8;
        search.y = 8;
        search.width = search.height = search.restrict_block_size = 8;
        ref::BlockResult result = ref::refine_hpel(search, {4, 0});
        // Around (4, 0): x in {2, 4, 6}; (2, 0) costs 0.
        CHECK(result.mv == MotionVector{2, 0});
        CHECK(result.cost == 0);
        CHECK(result.candidates == 9);
        // lambda 100, p = (8, 0), and cost4's rate weight 4 * lambda = 400 (SPEC §8):
        // J(2,0) = 0 + 400*(se(-6) + se(0)) = 400*(7+1) = 3200; J(4,0) = 512 + 400*(se(-4)+1) = 3712;
        // J(6,0) = 1024 + 400*(5+1) = 3424. (2, 0) stays.
        search.lambda = 100;
        search.predictor = {8, 0};
        result = ref::refine_hpel(search, {4, 0});
        CHECK(result.mv == MotionVector{2, 0});
        CHECK(result.cost == 3200);
        search.width = 4;
        CHECK_THROWS_AS((void)ref::refine_hpel(search, {4, 0}), xme::Error);
    }
}
