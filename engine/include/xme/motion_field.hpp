// The result of one search: a vector, its cost and the candidates evaluated for every block of the
// current frame, and what kind of cost that is.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "xme/macroblock.hpp"
#include "xme/params.hpp"

namespace xme {

// What a result's costs measure (SPEC §8): the distortion of the chain's last operation, plus the
// rate term when lambda > 0.
enum class Distortion {
    sad,    // SPEC §3: integer SAD
    cost4,  // SPEC §4: sum |4*cur - 4*interp|, 4 * SAD at integer positions
    satd,   // SPEC §10: Hadamard-transformed differences
};

struct CostKind {
    Distortion distortion = Distortion::sad;
    bool with_rate = false;  // + lambda * R(mv - p)

    friend bool operator==(const CostKind&, const CostKind&) = default;
};

// 4 for cost4 (quarter grey levels per pixel), else 1: cost / scale is in grey levels.
[[nodiscard]] constexpr int cost_scale_of(CostKind kind) {
    return kind.distortion == Distortion::cost4 ? 4 : 1;
}

// "sad", "cost4", "satd", each with "+rate" when lambda > 0.
[[nodiscard]] std::string to_string(CostKind kind);
// The cost kind of a chain's results.
[[nodiscard]] CostKind cost_kind_of(const SearchParams& params);

struct BlockMotion {
    std::int16_t mv_x = 0;  // quarter-pel units: an integer vector is 4*(dx, dy)
    std::int16_t mv_y = 0;
    std::uint32_t cost = 0;        // of the field's cost kind
    std::uint32_t candidates = 0;  // integer candidates the search evaluated (SPEC §7, §11)

    friend bool operator==(const BlockMotion&, const BlockMotion&) = default;
};

// SPEC §9's result for one macroblock: its 41 partitions (in macroblock_partitions' order, each with its
// vector, J and the candidates of the common window) and the mode decision.
struct MacroblockMotion {
    std::array<BlockMotion, partition_count> partitions{};
    ModeDecision decision;

    friend bool operator==(const MacroblockMotion&, const MacroblockMotion&) = default;
};

struct MotionField {
    int blocks_x = 0;
    int blocks_y = 0;
    int block_size = 0;
    CostKind cost_kind;
    std::vector<BlockMotion> blocks;  // row-major, blocks_x * blocks_y
    // With partitions (SPEC §9), one per block (block_size 16), row-major; `blocks` then holds each
    // macroblock's 16x16 partition, the vector SPEC §8's predictors read. Empty otherwise.
    std::vector<MacroblockMotion> macroblocks;

    MotionField() = default;
    MotionField(int frame_width, int frame_height, int block, CostKind kind);

    [[nodiscard]] BlockMotion& at(int bx, int by) { return blocks[by * blocks_x + bx]; }
    [[nodiscard]] const BlockMotion& at(int bx, int by) const { return blocks[by * blocks_x + bx]; }
    // The sum of the blocks' costs; with partitions, of each macroblock's chosen mode's J.
    [[nodiscard]] std::uint64_t total_cost() const;
    [[nodiscard]] std::uint64_t total_candidates() const;
    [[nodiscard]] int cost_scale() const { return cost_scale_of(cost_kind); }
};

}  // namespace xme
