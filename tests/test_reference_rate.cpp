// SPEC §8 by hand: se(v) lengths, the lambda table, the rounding of the predictor, the key, and the
// spatial median predictor's availability rules.
#include <doctest/doctest.h>

#include <climits>
#include <vector>

#include "xme/error.hpp"
#include "xme/rate.hpp"
#include "xme/reference_ops.hpp"

using xme::MotionVector;

TEST_SUITE("reference") {
    TEST_CASE("§8 se(v) bit lengths: 2*floor(log2(k+1))+1") {
        CHECK(xme::se_bits(0) == 1);         // k = 0
        CHECK(xme::se_bits(1) == 3);         // k = 1
        CHECK(xme::se_bits(-1) == 3);        // k = 2
        CHECK(xme::se_bits(2) == 5);         // k = 3
        CHECK(xme::se_bits(-2) == 5);        // k = 4
        CHECK(xme::se_bits(3) == 5);         // k = 5
        CHECK(xme::se_bits(-3) == 5);        // k = 6
        CHECK(xme::se_bits(4) == 7);         // k = 7, log2(8) = 3
        CHECK(xme::se_bits(-4) == 7);        // k = 8, floor(log2(9)) = 3
        CHECK(xme::se_bits(8) == 9);         // k = 15, log2(16) = 4
        CHECK(xme::se_bits(1000) == 21);     // k = 1999, floor(log2(2000)) = 10
        CHECK(xme::se_bits(-1000) == 21);    // k = 2000
        CHECK(xme::se_bits(INT_MAX) == 63);  // k = 2^32 - 3, floor(log2(2^32 - 2)) = 31
        CHECK(xme::se_bits(INT_MIN) == 65);  // k = 2^32, floor(log2(2^32 + 1)) = 32
        static_assert(xme::se_bits(-3) == 5, "usable at compile time");
        // R(d) = bits(d.x) + bits(d.y), of the difference to the predictor.
        CHECK(xme::rate_bits(0, 0) == 2);
        CHECK(xme::rate_bits(-2, 4) == 12);
        CHECK(xme::rate_bits(MotionVector{5, -3}, MotionVector{4, -1}) == 3 + 5);
    }

    TEST_CASE("§8 lambda from qp: SPEC's 52 values, and validation") {
        const int expected[52] = {1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  2,  2,
                                  2,  2,  3,  3,  3,  4,  4,  4,  5,  6,  6,  7,  8,  9,  10, 11, 13, 14,
                                  16, 18, 20, 23, 25, 29, 32, 36, 40, 45, 51, 57, 64, 72, 81, 91};
        for (int qp = 0; qp <= 51; ++qp) {
            CAPTURE(qp);
            CHECK(xme::lambda_from_qp(qp) == expected[qp]);
            CHECK(xme::checked_lambda_from_qp(qp) == expected[qp]);
        }
        static_assert(xme::lambda_from_qp(51) == 91);
        for (const int bad : {-1, 52, 1000}) {
            CAPTURE(bad);
            try {
                (void)xme::checked_lambda_from_qp(bad);
                FAIL("qp out of range was accepted");
            } catch (const xme::Error& error) {
                CHECK(error.kind() == xme::ErrorKind::invalid_argument);
                CHECK(std::string(error.what()).find("qp " + std::to_string(bad)) != std::string::npos);
                CHECK(std::string(error.what()).find("0..51") != std::string::npos);
            }
        }
    }

    TEST_CASE("§8 round(p/4) with halves away from zero") {
        CHECK(xme::round_quarter_to_pel(0) == 0);
        CHECK(xme::round_quarter_to_pel(1) == 0);
        CHECK(xme::round_quarter_to_pel(-1) == 0);
        CHECK(xme::round_quarter_to_pel(2) == 1);
        CHECK(xme::round_quarter_to_pel(-2) == -1);
        CHECK(xme::round_quarter_to_pel(3) == 1);
        CHECK(xme::round_quarter_to_pel(-5) == -1);
        CHECK(xme::round_quarter_to_pel(6) == 2);
        CHECK(xme::round_quarter_to_pel(-6) == -2);
        CHECK(xme::round_quarter_to_pel(-8) == -2);
        CHECK(xme::round_quarter_to_pel(MotionVector{10, -10}) == MotionVector{3, -3});
    }

    TEST_CASE("§8 key: (J, |mv - p|, mv.y, mv.x) ascending") {
        const MotionVector p{4, 0};
        const auto key = [&](std::uint64_t cost, MotionVector mv) {
            return xme::make_candidate_key(cost, mv, p);
        };
        CHECK(key(10, {40, 40}) < key(11, {4, 0}));  // J first
        CHECK(key(10, {6, 0}) < key(10, {0, 0}));    // then the distance to p: 2 < 4
        CHECK(key(10, {4, 1}) < key(10, {8, 0}));    // 1 < 4
        CHECK(key(10, {5, -1}) < key(10, {3, 1}));   // equal distance 2: smaller y first
        CHECK(key(10, {3, 0}) < key(10, {5, 0}));    // equal distance and y: smaller x first
        CHECK(key(10, {3, 0}) == key(10, {3, 0}));
        // J = D + lambda * R(mv - p), in 64 bits.
        CHECK(xme::rate_constrained_cost(100, 40, {8, -4}, {4, 0}) == 100 + 40 * (7 + 7));
        CHECK(xme::rate_constrained_cost(UINT32_MAX, INT_MAX, {0, 0}, {0, 0}) ==
              std::uint64_t{UINT32_MAX} + 2ull * INT_MAX);
    }

    TEST_CASE("§8 spatial predictor: the median and each availability rule") {
        using xme::reference::spatial_predictor;
        const MotionVector later{999, -999};  // blocks after the one predicted are not final: never read
        // 3x3 blocks; row 1's middle block is final when (2, 1) is predicted.
        std::vector<MotionVector> finals = {{4, 8},  {-12, 2}, {20, -4},  //
                                            {6, -6}, {8, 10},  later,     //
                                            later,   later,    later};
        // No neighbour at all: A unavailable, so the median of three zeros.
        CHECK(spatial_predictor(finals, 3, 3, 0, 0) == MotionVector{0, 0});
        // Top row: B and C (and D) outside, A available: p = A.
        CHECK(spatial_predictor(finals, 3, 3, 1, 0) == MotionVector{4, 8});
        CHECK(spatial_predictor(finals, 3, 3, 2, 0) == MotionVector{-12, 2});
        // Left column: A outside counts as (0, 0); B = (4, 8), C = (-12, 2): median(0, 4, -12) = 0,
        // median(0, 8, 2) = 2.
        CHECK(spatial_predictor(finals, 3, 3, 0, 1) == MotionVector{0, 2});
        // Inside: A = (6, -6), B = (-12, 2), C = (20, -4): x from A, y from C.
        CHECK(spatial_predictor(finals, 3, 3, 1, 1) == MotionVector{6, -4});
        // Right column: C outside, D = (-12, 2) instead; A = (8, 10), B = (20, -4): median x (8, 20, -12)
        // = 8, y (10, -4, 2) = 2. (With C as (0, 0) it would be (8, 0).)
        CHECK(spatial_predictor(finals, 3, 3, 2, 1) == MotionVector{8, 2});
        // Bottom row, left: A outside, B = (6, -6), C = (8, 10): median(0, 6, 8) = 6, (0, -6, 10) = 0.
        CHECK(spatial_predictor(finals, 3, 3, 0, 2) == MotionVector{6, 0});
        // A frame one block wide: only B available, so B is the predictor (SPEC §8, as H.264 8.4.1.3.1
        // with one reference picture), not median(0, B, 0) = 0.
        const std::vector<MotionVector> column = {{4, 8}, later};
        CHECK(spatial_predictor(column, 1, 2, 0, 1) == MotionVector{4, 8});
        CHECK_THROWS_AS((void)spatial_predictor(column, 1, 2, 1, 0), xme::Error);
        CHECK_THROWS_AS((void)spatial_predictor(column, 2, 2, 0, 0), xme::Error);
    }
}
