// SPEC §9: the reference's partition search and mode decision (engine/src/reference/partition_search.cpp,
// mode_decision.cpp) on the table of xme/macroblock.hpp.
#pragma once

#include <array>
#include <cstdint>

#include "xme/macroblock.hpp"
#include "xme/reference_ops.hpp"

namespace xme {

// What the reference's partition search returns for one macroblock.
struct MacroblockResult {
    // Per partition: vector (quarter pel), J, distortion (SAD, or SATD after quarter-pel refinement)
    // and candidates = the integer candidates evaluated (the same for all 41: one common window).
    std::array<reference::BlockResult, partition_count> partitions{};
    ModeDecision decision;
};

namespace reference {

// SPEC §9's mode decision on the 41 final costs J, indexed as macroblock_partitions.
[[nodiscard]] ModeDecision decide_mode(const std::array<std::uint64_t, partition_count>& costs);

// SPEC §9 for the macroblock `search` describes: its x, y (multiples of 16), its window (centre,
// range), border mode, lambda and predictor; width, height and restrict_block_size must be 16.
// Every valid integer candidate of the window costs the sixteen 4x4 SADs once; each partition's SAD is
// the sum of its 4x4s, J = SAD + lambda * R(mv - p), the smallest key (§8) wins. With quarter_pel, each
// partition is then refined by §10 (refine_qpel) from its own integer vector. Then the mode decision.
[[nodiscard]] MacroblockResult partition_search(const BlockSearch& search, bool quarter_pel);

}  // namespace reference
}  // namespace xme
