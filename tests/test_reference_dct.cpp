// SPEC §13 by hand: the DCT of a constant block, a single impulse and the 0/255 checkerboard (the
// formula evaluated by hand, rounded halves away from zero), zero in gives zero out, the inverse's
// rounding and clipping, and the plane's tiles; both variants, and the double-precision oracle.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "test_support.hpp"
#include "xme/compensation.hpp"
#include "xme/dct.hpp"
#include "xme/error.hpp"

using xme::Block8x8;
using xme::Int16Plane;
using xme::TransformAlgorithm;
namespace ref = xme::reference;

namespace {

constexpr TransformAlgorithm variants[] = {TransformAlgorithm::matrix, TransformAlgorithm::loeffler};

Block8x8 block_of(const int (&values)[8][8]) {
    Block8x8 block{};
    for (std::size_t r = 0; r < 8; ++r) {
        for (std::size_t c = 0; c < 8; ++c) block[8 * r + c] = static_cast<std::int16_t>(values[r][c]);
    }
    return block;
}

Block8x8 filled(int value) {
    Block8x8 block{};
    block.fill(static_cast<std::int16_t>(value));
    return block;
}

Block8x8 random_block(std::mt19937_64& rng, int low, int high) {
    std::uniform_int_distribution<int> value(low, high);
    Block8x8 block{};
    for (std::int16_t& v : block) v = static_cast<std::int16_t>(value(rng));
    return block;
}

}  // namespace

TEST_SUITE("reference") {
    TEST_CASE("§13 all-zero in gives all-zero out, forward and inverse") {
        for (const TransformAlgorithm algorithm : variants) {
            CAPTURE(xme::to_string(algorithm));
            CHECK(ref::forward_dct(algorithm, Block8x8{}) == Block8x8{});
            CHECK(ref::inverse_dct(algorithm, Block8x8{}) == Block8x8{});
        }
    }

    TEST_CASE("§13 a constant block: F(0,0) = 1/4 * 1/2 * 64 c = 8c, nothing else; and back") {
        auto rng = xme::test::rng_for("dct constant");
        const int c = std::uniform_int_distribution<int>(-255, 255)(rng);
        for (const TransformAlgorithm algorithm : variants) {
            for (const int value : {-37, 255, -256, c}) {
                CAPTURE(xme::to_string(algorithm));
                CAPTURE(value);
                Block8x8 expected{};
                expected[0] = static_cast<std::int16_t>(8 * value);
                CHECK(ref::forward_dct(algorithm, filled(value)) == expected);
                CHECK(ref::inverse_dct(algorithm, expected) == filled(value));
            }
        }
    }

    TEST_CASE("§13 a single impulse f(5, 2) = -200: F(u,v) = -50 C(u) C(v) cos(11 u pi/16) cos(5 v pi/16)") {
        // F(0,0) = -50 * 1/2 = -25; F(1,0) = -50 / sqrt(2) * cos(11 pi/16) = 19.642 -> 20;
        // F(3,3) = -50 cos(33 pi/16) cos(15 pi/16) = -50 * 0.98079 * -0.98079 = 48.097 -> 48.
        const int expected[8][8] = {
            {-25, 20, 14, -35, 25, 7, -33, 29},   {-20, 15, 11, -27, 20, 5, -26, 23},
            {14, -11, -7, 19, -14, -4, 18, -16},  {35, -27, -19, 48, -35, -10, 45, -41},
            {25, -20, -14, 35, -25, -7, 33, -29}, {-7, 5, 4, -10, 7, 2, -9, 8},
            {-33, 26, 18, -45, 33, 9, -43, 38},   {-29, 23, 16, -41, 29, 8, -38, 35},
        };
        Block8x8 impulse{};
        impulse[8 * 2 + 5] = -200;
        for (const TransformAlgorithm algorithm : variants) {
            CAPTURE(xme::to_string(algorithm));
            CHECK(ref::forward_dct(algorithm, impulse) == block_of(expected));
        }
    }

    TEST_CASE("§13 the 0/255 checkerboard: 1020 at DC, odd-odd frequencies only") {
        // f = 127.5 - 127.5 (-1)^(x+y): F(0,0) = 8 * 127.5 = 1020; F(u,v) for odd u, v is
        // -127.5/4 S(u) S(v), S(u) = sum_x (-1)^x cos((2x+1) u pi/16): S(7) = 5.1258, so F(7,7) = -837.49;
        // F(5,3) = -196.5025 and F(5,1) = -58.4975 test the rounding next to a half.
        const int expected[8][8] = {
            {1020, 0, 0, 0, 0, 0, 0, 0}, {0, -33, 0, -39, 0, -58, 0, -167},
            {0, 0, 0, 0, 0, 0, 0, 0},    {0, -39, 0, -46, 0, -69, 0, -197},
            {0, 0, 0, 0, 0, 0, 0, 0},    {0, -58, 0, -69, 0, -103, 0, -294},
            {0, 0, 0, 0, 0, 0, 0, 0},    {0, -167, 0, -197, 0, -294, 0, -837},
        };
        Block8x8 checkerboard{};
        for (std::size_t i = 0; i < 64; ++i)
            checkerboard[i] = static_cast<std::int16_t>(((i / 8 + i % 8) & 1) * 255);
        for (const TransformAlgorithm algorithm : variants) {
            CAPTURE(xme::to_string(algorithm));
            CHECK(ref::forward_dct(algorithm, checkerboard) == block_of(expected));
        }
    }

    TEST_CASE("§13 both directions round halves away from zero; the inverse clips to -256..255") {
        // F(0,0) = 12 alone: every sample is 12/8 = 1.5 exactly. Both variants compute it exactly (their
        // DC path is additions and multiplications by 1 and 0.125f), so it rounds to 2, and -1.5 to -2.
        Block8x8 dc{};
        for (const TransformAlgorithm algorithm : variants) {
            CAPTURE(xme::to_string(algorithm));
            dc[0] = 12;
            CHECK(ref::inverse_dct(algorithm, dc) == filled(2));
            dc[0] = -12;
            CHECK(ref::inverse_dct(algorithm, dc) == filled(-2));
            dc[0] = 4;  // 0.5
            CHECK(ref::inverse_dct(algorithm, dc) == filled(1));
        }
        // Forward: a block summing to 4 gives F(0,0) = 4/8 = 0.5 -> 1; summing to -4 gives -1.
        Block8x8 half{};
        half[0] = 3;
        half[63] = 1;
        for (const TransformAlgorithm algorithm : variants) {
            CAPTURE(xme::to_string(algorithm));
            CHECK(ref::forward_dct(algorithm, half)[0] == 1);
            Block8x8 negative = half;
            for (std::int16_t& v : negative) v = static_cast<std::int16_t>(-v);
            CHECK(ref::forward_dct(algorithm, negative)[0] == -1);
        }
        for (const TransformAlgorithm algorithm : variants) {
            CAPTURE(xme::to_string(algorithm));
            dc[0] = 32767;  // 4096 per sample
            CHECK(ref::inverse_dct(algorithm, dc) == filled(255));
            dc[0] = -32768;
            CHECK(ref::inverse_dct(algorithm, dc) == filled(-256));
        }
    }

    TEST_CASE("§13 forward input outside -2048..2047 is refused, naming the value") {
        for (const TransformAlgorithm algorithm : variants) {
            Block8x8 block{};
            block[9] = 2048;
            CHECK_THROWS_WITH_AS(static_cast<void>(ref::forward_dct(algorithm, block)),
                                 doctest::Contains("forward DCT input 2048 is out of bounds"), xme::Error);
        }
    }

    TEST_CASE("§13 every variant within 1 of the double-precision formula on random residual blocks") {
        auto rng = xme::test::rng_for("dct random");
        for (int trial = 0; trial < 500; ++trial) {
            const Block8x8 samples = random_block(rng, -255, 255);
            xme::ExactBlock8x8 exact_samples{};
            for (std::size_t i = 0; i < 64; ++i) exact_samples[i] = samples[i];
            const xme::ExactBlock8x8 exact = ref::forward_dct_exact(exact_samples);
            // The oracle is orthonormal: its inverse gives the samples back.
            const xme::ExactBlock8x8 back = ref::inverse_dct_exact(exact);
            for (std::size_t i = 0; i < 64; ++i) REQUIRE(std::abs(back[i] - samples[i]) < 1e-9);
            for (const TransformAlgorithm algorithm : variants) {
                const Block8x8 coefficients = ref::forward_dct(algorithm, samples);
                const Block8x8 reconstructed = ref::inverse_dct(algorithm, coefficients);
                for (std::size_t i = 0; i < 64; ++i) {
                    CAPTURE(i);
                    REQUIRE(std::abs(coefficients[i] - exact[i]) <= 1.0);
                    // Rounding 64 coefficients by at most 1/2 each moves a sample by at most 4 (orthonormal).
                    REQUIRE(std::abs(reconstructed[i] - samples[i]) <= 4);
                }
            }
        }
    }

    TEST_CASE("§13 a plane in 8x8 tiles from (0,0): partial tiles read zeros and are written cropped") {
        auto rng = xme::test::rng_for("dct plane");
        Int16Plane residual(13, 10);  // tiles: (0,0) whole, (8,0) 5 wide, (0,8) 2 high, (8,8) 5x2
        std::uniform_int_distribution<int> value(-255, 255);
        for (std::int16_t& v : residual.values) v = static_cast<std::int16_t>(value(rng));
        for (const TransformAlgorithm algorithm : variants) {
            CAPTURE(xme::to_string(algorithm));
            const Int16Plane coefficients = ref::forward_transform_plane(residual, algorithm);
            REQUIRE(coefficients.width == 13);
            REQUIRE(coefficients.height == 10);
            for (const auto& [left, top] :
                 {std::pair{0, 0}, std::pair{8, 0}, std::pair{0, 8}, std::pair{8, 8}}) {
                Block8x8 tile{};
                for (int y = 0; y < 8; ++y) {
                    for (int x = 0; x < 8; ++x) {
                        if (left + x < 13 && top + y < 10)
                            tile[static_cast<std::size_t>(8 * y + x)] = residual.at(left + x, top + y);
                    }
                }
                const Block8x8 expected = ref::forward_dct(algorithm, tile);
                Block8x8 kept{};  // the coefficients the inverse sees: those of the tile inside the plane
                for (int y = 0; y < 8; ++y) {
                    for (int x = 0; x < 8; ++x) {
                        if (left + x >= 13 || top + y >= 10) continue;
                        CHECK(coefficients.at(left + x, top + y) ==
                              expected[static_cast<std::size_t>(8 * y + x)]);
                        kept[static_cast<std::size_t>(8 * y + x)] =
                            expected[static_cast<std::size_t>(8 * y + x)];
                    }
                }
                const Block8x8 back = ref::inverse_dct(algorithm, kept);
                const Int16Plane reconstructed = ref::inverse_transform_plane(coefficients, algorithm);
                for (int y = 0; y < 8 && top + y < 10; ++y) {
                    for (int x = 0; x < 8 && left + x < 13; ++x) {
                        CHECK(reconstructed.at(left + x, top + y) ==
                              back[static_cast<std::size_t>(8 * y + x)]);
                    }
                }
            }
        }
    }

    TEST_CASE("§13's quantiser: round(F / S), halves away from zero, returned as q * S") {
        using xme::reference::quantise_dequantise;
        CHECK(quantise_dequantise(0, 16) == 0);
        CHECK(quantise_dequantise(7, 16) == 0);   // 0.4375
        CHECK(quantise_dequantise(8, 16) == 16);  // 0.5: away from zero
        CHECK(quantise_dequantise(-8, 16) == -16);
        CHECK(quantise_dequantise(24, 16) == 32);    // 1.5
        CHECK(quantise_dequantise(-23, 16) == -16);  // -1.4375
        CHECK(quantise_dequantise(2040, 1) == 2040);
        CHECK(quantise_dequantise(2040, 4096) == 0);
        CHECK(quantise_dequantise(-2048, 4096) == -4096);  // exactly -0.5
        CHECK_THROWS_AS(static_cast<void>(quantise_dequantise(5, 0)), xme::Error);
        CHECK_THROWS_AS(static_cast<void>(quantise_dequantise(5, 4097)), xme::Error);
    }
}
