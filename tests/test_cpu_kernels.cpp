// The CPU backend's SIMD operation kernels against their plain C++ versions (x264's checkasm), on random
// bytes and on 0/255 patterns (the largest SADs, SATDs and 6-tap intermediates), and the plain SATD
// against the reference's satd4. Fresh random inputs per run (seed printed by test_support).
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cpu_kernels.hpp"
#include "partition_kernels.hpp"
#include "test_support.hpp"
#include "xme/reference_ops.hpp"

namespace {

using xme::cpu::OperationKernels;

// A buffer of rows x stride bytes with a 48-byte border on every side, so kernels may read around a block.
struct Buffer {
    static constexpr int border = 48;
    int stride;
    std::vector<std::uint8_t> bytes;

    Buffer(int width, int height)
        : stride(width + 2 * border), bytes(static_cast<std::size_t>(stride) * (height + 2 * border)) {}
    std::uint8_t* origin() { return bytes.data() + border * stride + border; }
};

// centre_extremes: columns 255 0 255 255 0 255 (the 6-tap's largest output, 10710), every second and fifth
// row of six inverted (its least, -2550): the centre filter's column meets them in the order of its largest
// intermediate sum; the inverse fill in that of its least (a 16-bit centre filter that overflows there
// fails only on these two fills).
enum class Fill {
    random,
    checkerboard,
    inverse_checkerboard,
    columns_0_255_255_0,
    rows_255_0,
    centre_extremes,
    inverse_centre_extremes
};
const Fill fills[] = {
    Fill::random,     Fill::checkerboard,    Fill::inverse_checkerboard,   Fill::columns_0_255_255_0,
    Fill::rows_255_0, Fill::centre_extremes, Fill::inverse_centre_extremes};

void fill(Buffer& buffer, Fill how, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> byte(0, 255);
    const int rows = static_cast<int>(buffer.bytes.size()) / buffer.stride;
    for (int y = 0; y < rows; ++y) {
        for (int x = 0; x < buffer.stride; ++x) {
            int value = 0;
            switch (how) {
                case Fill::random:
                    value = byte(rng);
                    break;
                case Fill::checkerboard:
                    value = (x + y) % 2 == 0 ? 255 : 0;
                    break;
                case Fill::inverse_checkerboard:
                    value = (x + y) % 2 == 0 ? 0 : 255;
                    break;
                case Fill::columns_0_255_255_0:
                    value = (x % 4 == 1 || x % 4 == 2) ? 255 : 0;
                    break;
                case Fill::rows_255_0:
                    value = y % 2 == 0 ? 255 : 0;
                    break;
                case Fill::centre_extremes:
                case Fill::inverse_centre_extremes: {
                    const bool column_on = x % 6 != 1 && x % 6 != 4;
                    const bool row_inverted = y % 6 == 1 || y % 6 == 4;
                    const bool on = column_on != row_inverted;
                    value = on != (how == Fill::inverse_centre_extremes) ? 255 : 0;
                    break;
                }
            }
            buffer.bytes[static_cast<std::size_t>(y) * buffer.stride + x] = static_cast<std::uint8_t>(value);
        }
    }
}

}  // namespace

TEST_SUITE("cpu kernels") {
    TEST_CASE("SIMD operation kernels match the plain ones") {
        auto rng = xme::test::rng_for("cpu kernels");
        const OperationKernels plain = xme::cpu::plain_operation_kernels();
        const auto sets = xme::cpu::simd_operation_kernels();
        if (sets.empty()) MESSAGE("skipped: this build or processor has no SIMD operation kernels");
        std::uniform_int_distribution<int> offset(-20, 20);
        for (const auto& set : sets) {
            CAPTURE(set.name);
            for (const Fill current_fill : fills) {
                for (const Fill reference_fill : fills) {
                    Buffer current(40, 40);
                    Buffer reference(40, 40);
                    fill(current, current_fill, rng);
                    fill(reference, reference_fill, rng);
                    CAPTURE(static_cast<int>(current_fill));
                    CAPTURE(static_cast<int>(reference_fill));
                    for (const int size : {1, 2, 4, 8, 16, 32}) {
                        CAPTURE(size);
                        const std::uint8_t* refs[4];
                        for (auto& ref : refs)
                            ref = reference.origin() + offset(rng) * reference.stride + offset(rng);
                        std::uint32_t expected[4];
                        std::uint32_t actual[4];
                        plain.sad_x4(current.origin(), current.stride, refs, reference.stride, size,
                                     expected);
                        set.kernels.sad_x4(current.origin(), current.stride, refs, reference.stride, size,
                                           actual);
                        for (int k = 0; k < 4; ++k) CHECK(actual[k] == expected[k]);
                    }
                    for (const int width : {4, 8, 12, 16, 24, 32}) {
                        for (const int height : {4, 8, 16, 32}) {
                            CAPTURE(width);
                            CAPTURE(height);
                            const std::uint8_t* p =
                                reference.origin() + offset(rng) * reference.stride + offset(rng);
                            const std::uint8_t* q =
                                reference.origin() + offset(rng) * reference.stride + offset(rng);
                            CHECK(set.kernels.satd(current.origin(), current.stride, p, reference.stride, q,
                                                   reference.stride, width, height, xme::cpu::satd_exact) ==
                                  plain.satd(current.origin(), current.stride, p, reference.stride, q,
                                             reference.stride, width, height, xme::cpu::satd_exact));
                            // One plane (a half-sample position): kernels may skip the average.
                            CHECK(set.kernels.satd(current.origin(), current.stride, p, reference.stride, p,
                                                   reference.stride, width, height, xme::cpu::satd_exact) ==
                                  plain.satd(current.origin(), current.stride, p, reference.stride, p,
                                             reference.stride, width, height, xme::cpu::satd_exact));
                            // The same against a current block transformed once, where the set has that.
                            xme::cpu::TransformedCurrent transformed;
                            if (set.kernels.transform_current != nullptr &&
                                set.kernels.transform_current(current.origin(), current.stride, width, height,
                                                              transformed)) {
                                for (const std::uint8_t* second : {q, p}) {
                                    CHECK(set.kernels.satd_transformed(transformed, p, reference.stride,
                                                                       second, reference.stride, width,
                                                                       height, xme::cpu::satd_exact) ==
                                          plain.satd(current.origin(), current.stride, p, reference.stride,
                                                     second, reference.stride, width, height,
                                                     xme::cpu::satd_exact));
                                }
                            }
                        }
                    }
                    // Widths past 64 and 128 with their tails: the AVX-512 filters' 64-column chunks.
                    Buffer wide(280, 40);
                    fill(wide, reference_fill, rng);
                    for (const int n : {1, 3, 6, 7, 8, 9, 10, 17, 18, 34, 40, 64, 65, 100, 127, 128, 200}) {
                        const int rows = n == 40 ? 34 : n > 40 ? 9 : n;
                        CAPTURE(n);
                        CAPTURE(rows);
                        const auto planes = static_cast<std::size_t>(n) * static_cast<std::size_t>(rows);
                        std::vector<std::uint8_t> expected(3 * planes);
                        std::vector<std::uint8_t> actual(3 * planes, 7);
                        std::vector<std::int32_t> scratch(xme::cpu::half_pel_scratch_words(n));
                        const std::uint8_t* source =
                            wide.origin() + offset(rng) * wide.stride + offset(rng) + 20;
                        plain.half_pel_planes(source, wide.stride, n, rows, expected.data(),
                                              expected.data() + planes, expected.data() + 2 * planes,
                                              scratch.data());
                        set.kernels.half_pel_planes(source, wide.stride, n, rows, actual.data(),
                                                    actual.data() + planes, actual.data() + 2 * planes,
                                                    scratch.data());
                        CHECK(actual == expected);
                    }
                }
            }
        }
    }

    TEST_CASE("the plain SATD is the reference's satd4 summed over tiles") {
        auto rng = xme::test::rng_for("cpu plain satd");
        const OperationKernels plain = xme::cpu::plain_operation_kernels();
        for (const Fill how : fills) {
            Buffer current(16, 8);
            Buffer prediction(16, 8);
            fill(current, how, rng);
            fill(prediction, Fill::random, rng);
            std::uint32_t expected = 0;
            for (int tx = 0; tx < 16; tx += 4) {
                for (int ty = 0; ty < 8; ty += 4) {
                    int difference[4][4];
                    for (int j = 0; j < 4; ++j) {
                        for (int i = 0; i < 4; ++i) {
                            difference[j][i] = current.origin()[(ty + j) * current.stride + tx + i] -
                                               prediction.origin()[(ty + j) * prediction.stride + tx + i];
                        }
                    }
                    expected += xme::reference::satd4(difference);
                }
            }
            CHECK(expected > 0);
            CHECK(plain.satd(current.origin(), current.stride, prediction.origin(), prediction.stride,
                             prediction.origin(), prediction.stride, 16, 8,
                             xme::cpu::satd_exact) == expected);
        }
    }

    TEST_CASE("every SATD kernel with a limit: the exact SATD up to it, a value above it past it") {
        auto rng = xme::test::rng_for("cpu satd limit");
        std::vector<xme::cpu::NamedOperationKernels> sets = xme::cpu::simd_operation_kernels();
        sets.push_back({"plain", xme::cpu::plain_operation_kernels()});
        std::uniform_int_distribution<int> offset(-20, 20);
        for (const auto& set : sets) {
            CAPTURE(set.name);
            for (const Fill how : fills) {
                Buffer current(40, 40);
                Buffer reference(40, 40);
                fill(current, how, rng);
                fill(reference, Fill::random, rng);
                for (const int width : {4, 8, 16, 32}) {
                    for (const int height : {4, 8, 16, 32}) {
                        for (const bool one_plane : {true, false}) {
                            CAPTURE(width);
                            CAPTURE(height);
                            CAPTURE(one_plane);
                            const std::uint8_t* p =
                                reference.origin() + offset(rng) * reference.stride + offset(rng);
                            const std::uint8_t* q =
                                one_plane ? p
                                          : reference.origin() + offset(rng) * reference.stride + offset(rng);
                            const auto satd = [&](int rows, std::uint32_t limit) {
                                return set.kernels.satd(current.origin(), current.stride, p, reference.stride,
                                                        q, reference.stride, width, rows, limit);
                            };
                            const std::uint32_t exact = satd(height, xme::cpu::satd_exact);
                            REQUIRE(exact > 2);
                            // Limits below the first band's sum, mid-way, one short of the sum, at it, past
                            // it, and exactly each band's running sum (a kernel must not stop at equality).
                            std::vector<std::uint32_t> limits = {
                                0,
                                exact / 8,
                                exact / 2,
                                exact - 1,
                                exact,
                                exact + 1,
                                std::uniform_int_distribution<std::uint32_t>(0, 2 * exact)(rng)};
                            for (int rows = 4; rows < height; rows += 4)
                                limits.push_back(satd(rows, xme::cpu::satd_exact));
                            // And against the block transformed once, where the set has that form.
                            xme::cpu::TransformedCurrent transformed;
                            const bool has_transformed =
                                set.kernels.transform_current != nullptr &&
                                set.kernels.transform_current(current.origin(), current.stride, width, height,
                                                              transformed);
                            for (const std::uint32_t limit : limits) {
                                CAPTURE(limit);
                                std::vector<std::uint32_t> bounded = {satd(height, limit)};
                                if (has_transformed) {
                                    bounded.push_back(
                                        set.kernels.satd_transformed(transformed, p, reference.stride, q,
                                                                     reference.stride, width, height, limit));
                                }
                                for (const std::uint32_t value : bounded) {
                                    if (exact <= limit) {
                                        CHECK(value == exact);
                                    } else {
                                        CHECK(value > limit);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    TEST_CASE("SIMD partition kernels match the plain one; the plain grid is the reference's 4x4 SADs") {
        auto rng = xme::test::rng_for("cpu partition kernels");
        const auto plain = xme::cpu::plain_partition_candidates();
        const auto kernels = xme::cpu::simd_partition_candidates();
        if (kernels.empty()) MESSAGE("skipped the SIMD ones: this build or processor has none");
        std::uniform_int_distribution<int> offset(-20, 20);
        std::uniform_int_distribution<std::uint32_t> rate(0, 300);
        for (const Fill current_fill : fills) {
            for (const Fill reference_fill : fills) {
                Buffer current(16, 16);
                Buffer reference(40, 40);
                fill(current, current_fill, rng);
                fill(reference, reference_fill, rng);
                CAPTURE(static_cast<int>(current_fill));
                CAPTURE(static_cast<int>(reference_fill));
                constexpr int count = 9;
                const std::uint8_t* refs[count];
                std::uint32_t rates[count];
                for (int k = 0; k < count; ++k) {
                    refs[k] = reference.origin() + offset(rng) * reference.stride + offset(rng);
                    rates[k] = k == count - 1 ? rates[0] : rate(rng);  // a tie: the earlier candidate stays
                }
                refs[count - 1] = refs[0];
                std::uint32_t grid[16];
                xme::cpu::plain_sad_grid16(current.origin(), current.stride, refs[0], reference.stride, grid);
                for (int cell = 0; cell < 16; ++cell) {
                    const int x = 4 * (cell % 4);
                    const int y = 4 * (cell / 4);
                    std::uint32_t sad = 0;
                    for (int j = 0; j < 4; ++j) {
                        for (int i = 0; i < 4; ++i) {
                            sad += static_cast<std::uint32_t>(
                                std::abs(current.origin()[(y + j) * current.stride + x + i] -
                                         refs[0][(y + j) * reference.stride + x + i]));
                        }
                    }
                    CHECK(grid[cell] == sad);
                }
                xme::cpu::PartitionBests expected{};
                for (const int lane : xme::cpu::partition_lane) expected.cost[lane] = xme::cpu::no_best;
                xme::cpu::PartitionBests start = expected;
                plain(current.origin(), current.stride, refs, reference.stride, rates, count, 100, expected);
                for (const int lane : xme::cpu::partition_lane)
                    CHECK(expected.cost[lane] < xme::cpu::no_best);
                for (const auto& kernel : kernels) {
                    CAPTURE(kernel.name);
                    xme::cpu::PartitionBests actual = start;
                    kernel.kernel(current.origin(), current.stride, refs, reference.stride, rates, count, 100,
                                  actual);
                    for (int p = 0; p < xme::cpu::partition_lanes; ++p) {
                        CAPTURE(p);
                        CHECK(actual.cost[p] == expected.cost[p]);
                        CHECK(actual.candidate[p] == expected.candidate[p]);
                    }
                }
            }
        }
    }
}
