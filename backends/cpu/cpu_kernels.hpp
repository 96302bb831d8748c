// The kernels of the CPU's operations path (every chain but the fast full search): SAD of up to four
// candidates per call (x264's sad_x4), the 4x4 Hadamard SATD, and the H.264 half-pel planes of a block's
// neighbourhood. Each has a plain C++ version (block_sad.cpp, satd.cpp, h264_sample.cpp) that the SIMD
// ones (*_sse2.cpp, *_avx2.cpp) are tested against (tests/test_cpu_kernels.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xme/motion_vector.hpp"

namespace xme::cpu {

// SAD of the size x size block at `current` against each of refs[0..3] (all read with their strides).
using SadX4 = void (*)(const std::uint8_t* current, std::ptrdiff_t current_stride,
                       const std::uint8_t* const refs[4], std::ptrdiff_t reference_stride, int size,
                       std::uint32_t sads[4]);
// SPEC §10: the sum over the 4x4 tiles of satd4(current - prediction), the prediction being the rounded
// average (p + q + 1) >> 1 of two sample planes (H.264's quarter samples; p == q for the others); width and
// height multiples of 4. The sum when it is at most `limit`, otherwise some value above `limit`: a kernel
// may stop after a row of tiles once the sum so far exceeds it, as a refinement's candidate that cannot
// beat the best so far needs no exact cost (docs/cpu.md, "Sub-pel refinement"). satd_exact asks for
// the sum always.
using Satd = std::uint32_t (*)(const std::uint8_t* current, std::ptrdiff_t current_stride,
                               const std::uint8_t* p, std::ptrdiff_t p_stride, const std::uint8_t* q,
                               std::ptrdiff_t q_stride, int width, int height, std::uint32_t limit);
inline constexpr std::uint32_t satd_exact = 0xFFFFFFFFu;
// SATD's current-block half, computed once per block: the transform is linear, so T(c - pred) = T(c) -
// T(pred), and a refinement costs up to 17 predictions against one block (AVX2, 17 at 16x16: 429 -> 348
// ns, `xme_cpu_kernels`; docs/cpu.md, "Sub-pel refinement"). The layout is the kernel's own; blocks
// up to 32x32.
struct TransformedCurrent {
    static constexpr int max_samples = 32 * 32;
    alignas(64) std::int16_t words[max_samples];
};
// Transforms the width x height block at `current` into `out`; false (nothing written) where the kernel
// has no transformed form for that size.
using TransformCurrent = bool (*)(const std::uint8_t* current, std::ptrdiff_t current_stride, int width,
                                  int height, TransformedCurrent& out);
// Satd's value against a block transform_current prepared, with the same width and height.
using SatdTransformed = std::uint32_t (*)(const TransformedCurrent& current, const std::uint8_t* p,
                                          std::ptrdiff_t p_stride, const std::uint8_t* q,
                                          std::ptrdiff_t q_stride, int width, int height,
                                          std::uint32_t limit);
// SPEC §10: the rounded and clipped horizontal (b), vertical (h) and centre (j) half samples of the
// width x rows integer positions whose top-left is `source` (readable from 2 rows and columns before to 3
// after). Each output plane is width x rows with stride width.
using HalfPelPlanes = void (*)(const std::uint8_t* source, std::ptrdiff_t stride, int width, int rows,
                               std::uint8_t* horizontal, std::uint8_t* vertical, std::uint8_t* centre,
                               std::int32_t* scratch);

// SPEC §10's whole quarter-pel refinement of a 16x16 block (subpel_refine.hpp's refine_qpel, which calls it
// when the set has one), its stages compiled around the set's own SATD: the refinements' usual size, whose
// up to 17 SATDs then follow each other without a call between them (docs/cpu.md, "Sub-pel refinement").
struct IntegerBlock;
struct IntegerResult;
struct QpelNeighbourhood;
struct SubpelResult;
using RefineQpel16 = SubpelResult (*)(const IntegerBlock& block, MotionVector integer_pel,
                                      const QpelNeighbourhood& neighbourhood, const std::uint8_t* current,
                                      std::ptrdiff_t current_stride);

// SPEC §11's tz search of a 16x16 block (tz_search.cpp calls it when the set has one), compiled around the
// set's own 4-candidate SAD: the current block's rows loaded once a block, not once a call, and no call
// between a set's SADs and the search's use of them (docs/cpu.md, "The operations path: searches").
using IntegerSearch16 = IntegerResult (*)(const IntegerBlock& block);

// Scratch the HalfPelPlanes kernels need, in int32 words: a ring of the six unrounded horizontal rows the
// centre filter reads, whatever the rows.
[[nodiscard]] inline std::size_t half_pel_scratch_words(int width) {
    return 6 * static_cast<std::size_t>(width);
}

struct OperationKernels {
    SadX4 sad_x4 = nullptr;
    Satd satd = nullptr;
    HalfPelPlanes half_pel_planes = nullptr;
    // Optional (null in the sets without them: plain C++, SSE2).
    TransformCurrent transform_current = nullptr;
    SatdTransformed satd_transformed = nullptr;
    RefineQpel16 refine_qpel16 = nullptr;
    IntegerSearch16 tz_search16 = nullptr;
};

// Plain C++ (the definition the SIMD kernels are tested against).
[[nodiscard]] OperationKernels plain_operation_kernels();
#if defined(XME_CPU_X86)
[[nodiscard]] OperationKernels sse2_operation_kernels();
[[nodiscard]] OperationKernels avx2_operation_kernels();
// AVX2's with the half-sample planes and the transformed SATD on 512-bit registers.
[[nodiscard]] OperationKernels avx512bw_operation_kernels();
#endif
// The SIMD kernel sets this build has and this processor runs, by name ("sse2", "avx2", "avx512bw"): what
// tests/test_cpu_kernels.cpp compares with the plain ones.
struct NamedOperationKernels {
    std::string name;
    OperationKernels kernels;
};
[[nodiscard]] std::vector<NamedOperationKernels> simd_operation_kernels();
// The kernels for a CPU variant ("avx512bw", "avx2" and "sse2" their own, "portable" plain).
[[nodiscard]] OperationKernels operation_kernels_for(std::string_view variant);

}  // namespace xme::cpu
