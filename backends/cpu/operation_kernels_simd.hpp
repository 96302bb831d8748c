// The SIMD operation kernels, written once over a few vector operations and instantiated per instruction
// set by operation_kernels_<name>.cpp, each compiled with its own flags (like full_search_kernel.hpp:
// internal linkage, so no function built for wider instructions is shared). SAD: psadbw over each row of
// four candidates. SATD: the 4x4 Hadamard butterflies on 16-bit lanes, two (SSE2) or four (AVX2) tiles of
// a row of tiles per register. Half-pel planes: the 6-tap filter on 16-bit lanes (32-bit for the centre).
#pragma once

#include <cstdint>
#include <cstdlib>

#include "cpu_kernels.hpp"

namespace xme::cpu {
namespace {  // NOLINT(cert-dcl59-cpp,google-build-namespaces): one private copy per instruction set

// SAD of one row segment of `width` (4, 8, 16 or 32) bytes, summed into the 64-bit lanes of acc.
template <class Ops>
void sad_x4_simd(const std::uint8_t* current, std::ptrdiff_t current_stride,
                 const std::uint8_t* const refs[4], std::ptrdiff_t reference_stride, int size,
                 std::uint32_t sads[4]) {
    using V = typename Ops::Bytes16;
    if (size != 4 && size != 8 && size != 16 && size != 32) {
        // ehds's upper levels (blocks of 1 or 2): too narrow for a vector.
        for (int k = 0; k < 4; ++k) {
            std::uint32_t sum = 0;
            for (int j = 0; j < size; ++j) {
                for (int i = 0; i < size; ++i) {
                    sum += static_cast<std::uint32_t>(
                        std::abs(current[j * current_stride + i] - refs[k][j * reference_stride + i]));
                }
            }
            sads[k] = sum;
        }
        return;
    }
    V acc[4] = {Ops::zero(), Ops::zero(), Ops::zero(), Ops::zero()};
    for (int j = 0; j < size; ++j) {
        const std::uint8_t* cur = current + j * current_stride;
        const std::ptrdiff_t r = j * reference_stride;
        for (int i = 0; i < size; i += 16) {
            const V c = size == 4   ? Ops::load4(cur + i)
                        : size == 8 ? Ops::load8(cur + i)
                                    : Ops::load16(cur + i);
            for (int k = 0; k < 4; ++k) {
                const std::uint8_t* p = refs[k] + r + i;
                const V v = size == 4 ? Ops::load4(p) : size == 8 ? Ops::load8(p) : Ops::load16(p);
                acc[k] = Ops::add64(acc[k], Ops::sad(c, v));
            }
        }
    }
    for (int k = 0; k < 4; ++k) sads[k] = Ops::sum_lanes(acc[k]);
}

// SATD: Ops::hadamard_tiles transforms the 4x4 tiles of rows (current - prediction) and returns the sum of
// the magnitudes of their coefficients.
template <class Ops>
std::uint32_t satd_simd(const std::uint8_t* current, std::ptrdiff_t current_stride,
                        const std::uint8_t* prediction, std::ptrdiff_t prediction_stride, int width,
                        int height) {
    std::uint32_t total = 0;
    for (int ty = 0; ty < height; ty += 4) {
        int tx = 0;
        for (; tx + Ops::tile_columns <= width; tx += Ops::tile_columns) {
            total += Ops::hadamard_tiles(current + ty * current_stride + tx, current_stride,
                                         prediction + ty * prediction_stride + tx, prediction_stride);
        }
        for (; tx < width; tx += 8) {  // the 8-wide remainder (AVX2 on 8-wide blocks)
            total +=
                Ops::hadamard_tiles8(current + ty * current_stride + tx, current_stride,
                                     prediction + ty * prediction_stride + tx, prediction_stride, width - tx);
        }
    }
    // The magnitudes of each tile sum to an even number (satd.cpp), so one halving at the end is exact.
    return total >> 1;
}

// The 6-tap planes: horizontal unrounded b1 rows in 16-bit (|b1| <= 2550 * 2 fits), rounded b and h,
// then j from the b1 columns in 32 bits (its sums reach 20 * 20 * 255 * 2).
template <class Ops>
void half_pel_planes_simd(const std::uint8_t* source, std::ptrdiff_t stride, int n, std::uint8_t* horizontal,
                          std::uint8_t* vertical, std::uint8_t* centre, std::int32_t* scratch) {
    auto* b1 = reinterpret_cast<std::int16_t*>(scratch);  // (n + 5) rows of n, fits in the int32 scratch
    for (int r = 0; r < n + 5; ++r) Ops::six_tap_row(source + (r - 2) * stride, 1, n, b1 + r * n);
    for (int y = 0; y < n; ++y) {
        Ops::round_row(b1 + (y + 2) * n, n, horizontal + y * n);
        Ops::six_tap_column_rounded(source + y * stride, stride, n, vertical + y * n);
        Ops::six_tap_centre(b1 + y * n, n, n, centre + y * n);
    }
}

template <class Ops>
OperationKernels make_operation_kernels() {
    return {&sad_x4_simd<Ops>, &satd_simd<Ops>, &half_pel_planes_simd<Ops>};
}

}  // namespace
}  // namespace xme::cpu
