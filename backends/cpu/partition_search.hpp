// SPEC §9 on the CPU: a macroblock's 41 partitions over its common window, each partition's best by §8's
// key, the optional §10 refinement per partition, then the mode decision the engine shares.
#pragma once

#include <cstdint>
#include <vector>

#include "integer_search.hpp"
#include "partition_kernels.hpp"
#include "subpel_refine.hpp"
#include "xme/motion_field.hpp"

namespace xme::cpu {

// Per-thread buffers: the window's candidates in tie-break order (kept while the order's inputs repeat,
// as they do from macroblock to macroblock), and one batch of the kernel's inputs.
struct PartitionScratch {
    int order_range = -1;
    MotionVector order_offset;            // 4 c - p, quarter pel: the order depends on nothing else
    std::vector<MotionVector> order;      // window offsets d, ascending by (|4 d + offset|, d.y, d.x)
    std::vector<std::uint32_t> buckets;   // the counting sort's
    std::vector<MotionVector> evaluated;  // the valid candidates (pel), in the order evaluated
};

// `block` is the macroblock (size 16, x and y multiples of 16); the result's candidates are the valid
// integer candidates of the window (the same for all 41). With `quarter_pel` (the reference frame's
// half-sample planes), each partition is refined by SPEC §10.
[[nodiscard]] MacroblockMotion partition_search(const IntegerBlock& block, PartitionCandidates kernel,
                                                const HalfPelFrame* quarter_pel, PartitionScratch& scratch);

}  // namespace xme::cpu
