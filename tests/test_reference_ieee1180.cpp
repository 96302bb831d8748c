// SPEC §13: IEEE Std 1180-1990's accuracy test of every transform variant, inverse and forward, on the
// standard's generator and its three ranges, each also sign-flipped. The figures are printed next to
// the limits; the test fails past any limit.
#include <doctest/doctest.h>

#include <cstdio>

#include "ieee1180.hpp"
#include "xme/dct.hpp"

using xme::Block8x8;
using xme::TransformAlgorithm;
namespace ref = xme::reference;
namespace test = xme::test;

TEST_SUITE("reference") {
    TEST_CASE("§13 the IEEE 1180 generator: the standard's LCG, its first values by hand") {
        // randx: 1 -> 1103527590 -> 2524885223 (mod 2^32) -> 662824084; masked & 0x7ffffffe:
        // 1103527590, 377401574, 662824084; over 0x7fffffff, times 512, truncated, minus 256:
        // 263 - 256 = 7, 89 - 256 = -167, 158 - 256 = -98.
        test::Ieee1180Random random;
        CHECK(random.next(256, 255) == 7);
        CHECK(random.next(256, 255) == -167);
        CHECK(random.next(256, 255) == -98);
        test::Ieee1180Random small;
        for (int i = 0; i < 1000; ++i) {
            const int value = small.next(5, 5);
            REQUIRE(value >= -5);
            REQUIRE(value <= 5);
        }
    }

    TEST_CASE("§13 IEEE 1180-1990 accuracy of every variant, inverse and forward") {
        for (const TransformAlgorithm algorithm :
             {TransformAlgorithm::matrix, TransformAlgorithm::loeffler}) {
            const test::BlockTransform inverse = [algorithm](const Block8x8& b) {
                return ref::inverse_dct(algorithm, b);
            };
            const test::BlockTransform forward = [algorithm](const Block8x8& b) {
                return ref::forward_dct(algorithm, b);
            };
            for (const test::Ieee1180Range range : test::ieee1180_ranges()) {
                for (const bool is_inverse : {true, false}) {
                    const test::Ieee1180Figures figures = is_inverse ? test::ieee1180_inverse(inverse, range)
                                                                     : test::ieee1180_forward(forward, range);
                    const std::string line = std::string("IEEE 1180 ") + xme::to_string(algorithm) +
                                             (is_inverse ? " inverse " : " forward ") +
                                             test::describe(range) + ": " + figures.describe();
                    std::printf("%s\n", line.c_str());
                    CHECK_MESSAGE(figures.within_limits(), line);
                }
            }
        }
    }
}
