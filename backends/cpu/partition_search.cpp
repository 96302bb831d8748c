// SPEC §9 on the CPU. The kernel keeps a partition's best only on a strictly smaller J, so candidates go
// to it in ascending order of §8's tie-break (|mv - p|, mv.y, mv.x): among equal J the first one wins,
// as the key says. That order, a counting sort of the window by distance, depends only on the range and
// on 4 c - p, which neighbouring macroblocks mostly share, so it is kept between them.
#include "partition_search.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

#include "xme/partitions.hpp"

namespace xme::cpu {
namespace {

void build_order(int range, MotionVector offset, PartitionScratch& scratch) {
    if (scratch.order_range == range && scratch.order_offset == offset) return;
    const auto distance = [&](int dx, int dy) {
        return std::abs(4 * dx + offset.x) + std::abs(4 * dy + offset.y);
    };
    const int largest = 8 * range + std::abs(offset.x) + std::abs(offset.y);  // the corners' at most
    scratch.buckets.assign(static_cast<std::size_t>(largest) + 2, 0);
    for (int dy = -range; dy <= range; ++dy) {
        for (int dx = -range; dx <= range; ++dx)
            ++scratch.buckets[static_cast<std::size_t>(distance(dx, dy)) + 1];
    }
    for (std::size_t i = 1; i < scratch.buckets.size(); ++i) scratch.buckets[i] += scratch.buckets[i - 1];
    const auto side = static_cast<std::size_t>(2 * range + 1);
    scratch.order.resize(side * side);
    // Raster order (dy, then dx, ascending) into stable buckets: ties of distance stay by (y, x).
    for (int dy = -range; dy <= range; ++dy) {
        for (int dx = -range; dx <= range; ++dx)
            scratch.order[scratch.buckets[static_cast<std::size_t>(distance(dx, dy))]++] = {dx, dy};
    }
    scratch.order_range = range;
    scratch.order_offset = offset;
}

}  // namespace

MacroblockMotion partition_search(const IntegerBlock& block, PartitionCandidates kernel,
                                  const HalfPelFrame* quarter_pel, PartitionScratch& scratch) {
    const MotionVector offset{4 * block.centre.x - block.predictor.x, 4 * block.centre.y - block.predictor.y};
    build_order(block.range, offset, scratch);
    PartitionBests bests{};
    for (const int lane : partition_lane) bests.cost[lane] = no_best;

    constexpr int batch = 32;
    const std::uint8_t* refs[batch];
    std::uint32_t rates[batch];
    int pending = 0;
    scratch.evaluated.clear();
    const std::uint8_t* current = block.current->block(block.x, block.y, 16, 16);
    const auto flush = [&] {
        kernel(current, block.current->stride(), refs, block.reference->stride(), rates, pending,
               static_cast<std::uint32_t>(scratch.evaluated.size()) - static_cast<std::uint32_t>(pending),
               bests);
        pending = 0;
    };
    const auto add = [&](MotionVector pel) {
        refs[pending] = block.reference->block(block.x + pel.x, block.y + pel.y, 16, 16);
        rates[pending] =
            block.lambda == 0
                ? 0
                : static_cast<std::uint32_t>(block.lambda) *
                      static_cast<std::uint32_t>(rate_bits({4 * pel.x, 4 * pel.y}, block.predictor));
        ++pending;
        scratch.evaluated.push_back(pel);
        if (pending == batch) flush();
    };
    const CandidateSearch window(block);  // its admissibility test: the window and SPEC §2's bounds
    for (const MotionVector d : scratch.order) {
        const MotionVector pel{block.centre.x + d.x, block.centre.y + d.y};
        if (window.admissible(pel)) add(pel);
    }
    // As the reference: a window with no valid candidate takes the zero vector (SPEC §8 keeps it valid).
    if (scratch.evaluated.empty()) add({0, 0});
    if (pending > 0) flush();

    const auto candidates = static_cast<std::uint32_t>(scratch.evaluated.size());
    MacroblockMotion result;
    std::array<std::uint64_t, partition_count> costs{};
    for (const Partition& partition : macroblock_partitions) {
        const auto index = static_cast<std::size_t>(partition.index);
        const auto lane = static_cast<std::size_t>(partition_lane[index]);
        const MotionVector pel = scratch.evaluated[bests.candidate[lane]];
        SubpelResult final{{4 * pel.x, 4 * pel.y}, bests.cost[lane]};
        if (quarter_pel != nullptr) {
            final = refine_qpel(block, block.x + partition.x, block.y + partition.y, partition.width,
                                partition.height, pel, *quarter_pel);
        }
        result.partitions[index] = fitted_block_motion(final, candidates);
        costs[index] = final.cost;
    }
    result.decision = reference::decide_mode(costs);
    return result;
}

}  // namespace xme::cpu
