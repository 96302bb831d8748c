#include "xme/motion_field.hpp"

#include <cstddef>
#include <numeric>

namespace xme {

std::string to_string(CostKind kind) {
    const char* name = kind.distortion == Distortion::sad     ? "sad"
                       : kind.distortion == Distortion::cost4 ? "cost4"
                                                              : "satd";
    return std::string(name) + (kind.with_rate ? "+rate" : "");
}

CostKind cost_kind_of(const SearchParams& params) {
    const Distortion distortion = params.subpel == Subpel::hpel   ? Distortion::cost4
                                  : params.subpel == Subpel::qpel ? Distortion::satd
                                                                  : Distortion::sad;
    return {distortion, params.lambda > 0};
}

MotionField::MotionField(int frame_width, int frame_height, int block, CostKind kind)
    : blocks_x(blocks_across(frame_width, block)),
      blocks_y(blocks_across(frame_height, block)),
      block_size(block),
      cost_kind(kind),
      blocks(static_cast<std::size_t>(blocks_x) * static_cast<std::size_t>(blocks_y)) {}

std::uint64_t MotionField::total_cost() const {
    if (!macroblocks.empty()) {
        return std::accumulate(
            macroblocks.begin(), macroblocks.end(), std::uint64_t{0},
            [](std::uint64_t sum, const MacroblockMotion& m) { return sum + m.decision.cost; });
    }
    return std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0},
                           [](std::uint64_t sum, const BlockMotion& b) { return sum + b.cost; });
}

std::uint64_t MotionField::total_candidates() const {
    return std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0},
                           [](std::uint64_t sum, const BlockMotion& b) { return sum + b.candidates; });
}

}  // namespace xme
