// SPEC §9's mode decision on the 41 final costs, with its tie rules: an earlier mode wins a tie
// (16x16, 16x8, 8x16, 8x8; within a quadrant 8x8, 8x4, 4x8, 4x4).
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "xme/partitions.hpp"

namespace xme {

const char* to_string(MacroblockMode mode) {
    switch (mode) {
        case MacroblockMode::p16x16:
            return "16x16";
        case MacroblockMode::p16x8:
            return "16x8";
        case MacroblockMode::p8x16:
            return "8x16";
        case MacroblockMode::p8x8:
            return "8x8";
    }
    return "?";
}

const char* to_string(SubMode mode) {
    switch (mode) {
        case SubMode::p8x8:
            return "8x8";
        case SubMode::p8x4:
            return "8x4";
        case SubMode::p4x8:
            return "4x8";
        case SubMode::p4x4:
            return "4x4";
    }
    return "?";
}

namespace {

// The partitions of quadrant q (0..3) in sub-mode `mode`, as SPEC §9 numbers them: `count`
// consecutive indices from `first`.
struct PartitionRun {
    int first;
    int count;
};
PartitionRun quadrant_partitions(SubMode mode, int q) {
    switch (mode) {
        case SubMode::p8x8:
            return {5 + q, 1};
        case SubMode::p8x4:
            return {9 + 2 * q, 2};
        case SubMode::p4x8:
            return {17 + 2 * q, 2};
        case SubMode::p4x4:
            return {25 + 4 * q, 4};
    }
    return {0, 0};
}

}  // namespace

ModePartitions mode_partitions(MacroblockMode mode, const std::array<SubMode, 4>& sub_modes) {
    ModePartitions chosen;
    const auto add = [&chosen](PartitionRun run) {
        for (int i = 0; i < run.count; ++i)
            chosen.indices[static_cast<std::size_t>(chosen.count++)] = run.first + i;
    };
    switch (mode) {
        case MacroblockMode::p16x16:
            add({0, 1});
            return chosen;
        case MacroblockMode::p16x8:
            add({1, 2});
            return chosen;
        case MacroblockMode::p8x16:
            add({3, 2});
            return chosen;
        case MacroblockMode::p8x8:
            break;
    }
    for (int q = 0; q < 4; ++q) add(quadrant_partitions(sub_modes[static_cast<std::size_t>(q)], q));
    return chosen;
}

std::vector<int> partitions_of_mode(MacroblockMode mode, const std::array<SubMode, 4>& sub_modes) {
    const ModePartitions chosen = mode_partitions(mode, sub_modes);
    return {chosen.begin(), chosen.end()};
}

namespace reference {

ModeDecision decide_mode(const std::array<std::uint64_t, partition_count>& costs) {
    const auto sum_of = [&](PartitionRun run) {
        std::uint64_t sum = 0;
        for (int i = 0; i < run.count; ++i) sum += costs[static_cast<std::size_t>(run.first + i)];
        return sum;
    };
    ModeDecision decision;
    std::uint64_t eight_by_eight = 0;
    for (int q = 0; q < 4; ++q) {
        SubMode cheapest = SubMode::p8x8;
        std::uint64_t cheapest_cost = sum_of(quadrant_partitions(SubMode::p8x8, q));
        for (const SubMode mode : {SubMode::p8x4, SubMode::p4x8, SubMode::p4x4}) {
            const std::uint64_t cost = sum_of(quadrant_partitions(mode, q));
            if (cost < cheapest_cost) {  // strictly: the earlier sub-mode wins a tie
                cheapest = mode;
                cheapest_cost = cost;
            }
        }
        decision.sub_modes[static_cast<std::size_t>(q)] = cheapest;
        eight_by_eight += cheapest_cost;
    }
    decision.mode = MacroblockMode::p16x16;
    decision.cost = costs[0];
    const std::array<std::pair<MacroblockMode, std::uint64_t>, 3> later = {{
        {MacroblockMode::p16x8, costs[1] + costs[2]},
        {MacroblockMode::p8x16, costs[3] + costs[4]},
        {MacroblockMode::p8x8, eight_by_eight},
    }};
    for (const auto& [mode, cost] : later) {
        if (cost < decision.cost) {  // strictly: the earlier mode wins a tie
            decision.mode = mode;
            decision.cost = cost;
        }
    }
    return decision;
}

}  // namespace reference
}  // namespace xme
