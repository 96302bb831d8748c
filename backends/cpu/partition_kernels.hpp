// SPEC §9's inner loop on the CPU (002's way): per candidate, the sixteen 4x4 SADs of a macroblock from
// one pass over its 16x16 pixels, summed into the 41 partitions' SADs, each partition's best updated.
// A plain C++ version (partition_kernels.cpp) beside SSE2 and AVX2 ones (partition_kernels_<name>.cpp),
// tested against it (tests/test_cpu_kernels.cpp) and, through the search, against the reference.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xme::cpu {

// 41 partitions, padded to whole vectors; the padding lanes keep a best of 0 and never change.
inline constexpr int partition_lanes = 48;

// Where partition p (SPEC §9's index) lives in the kernels' lanes: the sixteen 4x4s (lanes 0-15), the
// eight 8x4s (16-23), the eight 4x8s (24-31), the four 8x8s (32-35), 16x8 and 8x16 (36-39), 16x16 (40),
// each group in SPEC's order: the order in which the AVX2 kernel builds them in whole vectors.
inline constexpr std::array<int, 41> partition_lane = {40, 36, 37, 38, 39, 32, 33, 34, 35, 16, 17, 18, 19, 20,
                                                       21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0,  1,  2,
                                                       3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15};
// A best no J reaches (every J is below 2^31: a 16x16 SAD is at most 65280, a rate term below 2^23).
inline constexpr std::uint32_t no_best = 0x7fffffff;

// Each partition's best so far, by lane: its J and the index of the candidate that gave it.
struct PartitionBests {
    alignas(32) std::uint32_t cost[partition_lanes];
    alignas(32) std::uint32_t candidate[partition_lanes];
};

// For candidates k = 0..count-1 (refs[k] the top-left of the 16x16 reference block, rates[k] its
// lambda * R(mv - p)): partition p's J = its SAD + rates[k]; when that is smaller than its best (lane
// partition_lane[p]; start each lane at no_best), the partition's best becomes candidate first + k. Only
// strictly smaller: the caller hands candidates over in ascending order of SPEC §8's tie-break, so the first
// of equal J is the one the key prefers.
using PartitionCandidates = void (*)(const std::uint8_t* current, std::ptrdiff_t current_stride,
                                     const std::uint8_t* const* refs, std::ptrdiff_t reference_stride,
                                     const std::uint32_t* rates, int count, std::uint32_t first,
                                     PartitionBests& bests);

// The sixteen 4x4 SADs of a 16x16 block, row-major (grid[4 * row + column]); the plain definition.
void plain_sad_grid16(const std::uint8_t* current, std::ptrdiff_t current_stride, const std::uint8_t* ref,
                      std::ptrdiff_t reference_stride, std::uint32_t grid[16]);

[[nodiscard]] PartitionCandidates plain_partition_candidates();
#if defined(XME_CPU_X86)
[[nodiscard]] PartitionCandidates sse2_partition_candidates();
[[nodiscard]] PartitionCandidates avx2_partition_candidates();
#endif
struct NamedPartitionCandidates {
    std::string name;
    PartitionCandidates kernel;
};
// The SIMD versions this build has and this processor runs ("sse2", "avx2").
[[nodiscard]] std::vector<NamedPartitionCandidates> simd_partition_candidates();
// The kernel of a CPU variant: "avx512bw" and "avx2" AVX2, "sse2" SSE2, "portable" plain.
[[nodiscard]] PartitionCandidates partition_candidates_for(std::string_view variant);

}  // namespace xme::cpu
