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

// SAD of a Size x Size block (4, 8, 16 or 32) against four candidates, each row's psadbw summed into
// the 64-bit lanes of one accumulator per candidate; Size is a constant so the loops unroll.
template <class Ops, int Size>
void sad_x4_sized(const std::uint8_t* current, std::ptrdiff_t current_stride,
                  const std::uint8_t* const refs[4], std::ptrdiff_t reference_stride, std::uint32_t sads[4]) {
    using V = typename Ops::Bytes16;
    const auto load = [](const std::uint8_t* p) {
        if constexpr (Size == 4) return Ops::load4(p);
        if constexpr (Size == 8) return Ops::load8(p);
        if constexpr (Size >= 16) return Ops::load16(p);
    };
    V acc[4] = {Ops::zero(), Ops::zero(), Ops::zero(), Ops::zero()};
    const std::uint8_t* r0 = refs[0];
    const std::uint8_t* r1 = refs[1];
    const std::uint8_t* r2 = refs[2];
    const std::uint8_t* r3 = refs[3];
#pragma GCC unroll 8
    for (int j = 0; j < Size; ++j) {
#pragma GCC unroll 2
        for (int i = 0; i < (Size > 16 ? Size : 16); i += 16) {
            const V c = load(current + j * current_stride + i);
            const std::ptrdiff_t r = j * reference_stride + i;
            acc[0] = Ops::add64(acc[0], Ops::sad(c, load(r0 + r)));
            acc[1] = Ops::add64(acc[1], Ops::sad(c, load(r1 + r)));
            acc[2] = Ops::add64(acc[2], Ops::sad(c, load(r2 + r)));
            acc[3] = Ops::add64(acc[3], Ops::sad(c, load(r3 + r)));
        }
    }
    for (int k = 0; k < 4; ++k) sads[k] = Ops::sum_lanes(acc[k]);
}

template <class Ops>
void sad_x4_simd(const std::uint8_t* current, std::ptrdiff_t current_stride,
                 const std::uint8_t* const refs[4], std::ptrdiff_t reference_stride, int size,
                 std::uint32_t sads[4]) {
    switch (size) {
        case 4:
            return sad_x4_sized<Ops, 4>(current, current_stride, refs, reference_stride, sads);
        case 8:
            return sad_x4_sized<Ops, 8>(current, current_stride, refs, reference_stride, sads);
        case 16:
            return sad_x4_sized<Ops, 16>(current, current_stride, refs, reference_stride, sads);
        case 32:
            return sad_x4_sized<Ops, 32>(current, current_stride, refs, reference_stride, sads);
        default:
            break;
    }
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
}

// SATD: Ops::hadamard_tiles transforms the 4x4 tiles of rows (current - avg(p, q)) and returns the sum of
// the magnitudes of their coefficients; pavgb is H.264's (p + q + 1) >> 1.
template <class Ops>
std::uint32_t satd_simd(const std::uint8_t* current, std::ptrdiff_t current_stride, const std::uint8_t* p,
                        std::ptrdiff_t p_stride, const std::uint8_t* q, std::ptrdiff_t q_stride, int width,
                        int height, std::uint32_t limit) {
    std::uint32_t total = 0;  // twice the SATD so far
    for (int ty = 0; ty < height; ty += 4) {
        if (2 * ty == height && (total >> 1) > limit) break;  // once, as satd_strips16 (AVX2) does
        const std::uint8_t* c = current + ty * current_stride;
        const std::uint8_t* a = p + ty * p_stride;
        const std::uint8_t* b = q + ty * q_stride;
        int tx = 0;
        for (; tx + Ops::tile_columns <= width; tx += Ops::tile_columns) {
            total += Ops::hadamard_tiles(c + tx, current_stride, a + tx, p_stride, b + tx, q_stride);
        }
        for (; tx < width; tx += 8) {  // the 8-wide remainder (AVX2 on 8-wide blocks)
            // A constant 8 where it is 8, so that the tiles' loads need no test of the width (AVX2's 8x8
            // SATD ran 8% behind SSE2's without it, `xme_cpu_kernels`).
            total +=
                width - tx >= 8
                    ? Ops::hadamard_tiles8(c + tx, current_stride, a + tx, p_stride, b + tx, q_stride, 8)
                    : Ops::hadamard_tiles8(c + tx, current_stride, a + tx, p_stride, b + tx, q_stride, 4);
        }
    }
    // The magnitudes of each tile sum to an even number (satd.cpp), so one halving at the end is exact.
    return total >> 1;
}

// The 6-tap planes: horizontal unrounded b1 rows in 16-bit (|b1| <= 2550 * 2 fits), rounded b and h,
// then j from the b1 columns in 32 bits (its sums reach 20 * 20 * 255 * 2).
template <class Ops>
void half_pel_planes_simd(const std::uint8_t* source, std::ptrdiff_t stride, int width, int rows,
                          std::uint8_t* horizontal, std::uint8_t* vertical, std::uint8_t* centre,
                          std::int32_t* scratch) {
    // The b1 row of source row r (r = -2 .. rows + 2) in ring slot (r + 2) % 6: each row filtered once a
    // call, and the ring stays in L1 where a band's b1 rows (37 of a 768-wide frame, 57 KiB) did not.
    auto* ring = reinterpret_cast<std::int16_t*>(scratch);
    const auto b1_row = [&](int r) { return ring + (r + 2) % 6 * width; };
    for (int r = -2; r < 3; ++r) Ops::six_tap_row(source + r * stride, 1, width, b1_row(r));
    for (int y = 0; y < rows; ++y) {
        Ops::six_tap_row(source + (y + 3) * stride, 1, width, b1_row(y + 3));
        const std::int16_t* const b1[6] = {b1_row(y - 2), b1_row(y - 1), b1_row(y),
                                           b1_row(y + 1), b1_row(y + 2), b1_row(y + 3)};
        Ops::round_row(b1[2], width, horizontal + y * width);
        Ops::six_tap_column_rounded(source + y * stride, stride, width, vertical + y * width);
        Ops::six_tap_centre(b1, width, centre + y * width);
    }
}

template <class Ops>
OperationKernels make_operation_kernels() {
    return {&sad_x4_simd<Ops>, &satd_simd<Ops>, &half_pel_planes_simd<Ops>};
}

}  // namespace
}  // namespace xme::cpu
