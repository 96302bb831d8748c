// How full_search.comp cuts a block's (2R+1)^2 candidates into tiles, one workgroup pass each:
// chosen per session from the device's limits by a small cost model (tile_shape.cpp).
#pragma once

#include <cstdint>

#include "loader.hpp"

namespace xme::vulkan {

struct TileShape {
    int strip = 4;     // horizontally adjacent candidates per invocation
    int strips_x = 1;  // invocations across a tile
    int tile_h = 1;    // candidate rows per tile (one invocation row each)
    int tiles_x = 1;   // tiles across and down the window of candidates
    int tiles_y = 1;
    int splits = 1;        // workgroups sharing one block's tiles
    int window_pitch = 0;  // shared-memory elements from one window row to the next
    int group = 1;         // blocks across and down the blocks one workgroup searches together
    int reduction_slots = 1;  // full_search.comp's REDUCTION_SLOTS
    bool ring_window = false;  // full_search.comp's RING_WINDOW: tiles below stage only their new rows
    [[nodiscard]] int invocations() const { return strips_x * tile_h; }
};

struct TileShapeInputs {
    int range = 0;
    int block = 16;
    int block_count = 1;
    int group = 1;  // blocks across and down one workgroup: their pixels form a square of group * block
    int min_strip = 1;
    int max_strip = 12;
    int max_tile_rows = 0;       // 0: no limit
    bool half_pairs = false;     // full_search.comp's HALF_PAIRS: two rows per element
    std::uint32_t subgroup = 1;  // lanes paid for together (the device's subgroup size)
    bool shared_banks = true;    // pad window rows to avoid bank conflicts (GPUs)
    bool ring_window = true;     // keep window rows from tile to tile where the shape allows
    bool subgroup_reduce = false;  // full_search.comp's SUBGROUP_REDUCE: reduction slots per subgroup
    bool pad_window_rows = true;   // with shared_banks: a row pitch chosen against bank conflicts
};

// Throws Error(unsupported) naming the limit when even the smallest tile does not fit.
[[nodiscard]] TileShape choose_tile_shape(const TileShapeInputs& in, const VkPhysicalDeviceLimits& limits);

}  // namespace xme::vulkan
