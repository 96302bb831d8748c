#include "tile_shape.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "xme/error.hpp"

namespace xme::vulkan {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Workgroups to aim for when splitting a block's tiles: enough to fill a large GPU.
constexpr int target_workgroups = 2048;
constexpr int max_splits = 64;

// The side of the pixels a workgroup's group of blocks covers.
int span(const TileShapeInputs& in) { return in.group * in.block; }
int window_width(const TileShape& shape, const TileShapeInputs& in) {
    return shape.strip * shape.strips_x + span(in) - 1;
}
int window_rows(const TileShape& shape, const TileShapeInputs& in) {
    return shape.tile_h + span(in) - 1 - (in.half_pairs ? 1 : 0);
}

// The reduction holds every invocation's key (the tree) or one key per block and subgroup.
int reduction_slots(const TileShape& shape, const TileShapeInputs& in) {
    const int subgroups = ceil_div(shape.invocations(), static_cast<int>(std::max(1u, in.subgroup)));
    if (in.subgroup_reduce) return in.group * in.group * subgroups;
    return shape.invocations();
}

std::size_t shared_bytes(const TileShape& shape, const TileShapeInputs& in) {
    const int pitch = std::max(shape.window_pitch, window_width(shape, in));
    const std::size_t current = static_cast<std::size_t>(span(in) * span(in)) * (in.half_pairs ? 2 : 4);
    return current + 4 * static_cast<std::size_t>(pitch * window_rows(shape, in)) +
           8 * static_cast<std::size_t>(reduction_slots(shape, in));
}

// Estimated cost of one block's search, in lane-instructions: every lane of a started subgroup is
// paid for, active or not. Per pixel comparison the SAD loop issues 2 instructions (32-bit floats) or
// 1.25 (16-bit pairs: two pixels per instruction, plus moving the half sums out every 8), plus its
// shared-memory loads: a quarter of the block row (vector loads) and the window row segment, per
// strip and row. A GPU issues about 4 instructions per clock and SM but serves 1 warp-wide load, so
// there the loads cost 4 times their number when they, not the issue rate, are the limit.
double cost(const TileShape& shape, const TileShapeInputs& in) {
    const double b = span(in);
    const double pixels_per_element = in.half_pairs ? 2 : 1;
    const double arithmetic = in.half_pairs ? 1.25 : 2.0;
    const double loads = (b / 4 + b + shape.strip - 1) / (shape.strip * b * pixels_per_element);
    const double per_comparison =
        in.shared_banks ? std::max(arithmetic + loads, 4 * loads) : arithmetic + loads;
    const double lanes =
        ceil_div(shape.invocations(), static_cast<int>(in.subgroup)) * static_cast<double>(in.subgroup);
    const double search = lanes * shape.strip * b * b * per_comparison;
    const double window_load = 4.0 * window_width(shape, in) * window_rows(shape, in) * pixels_per_element;
    return static_cast<double>(shape.tiles_x) * shape.tiles_y * (search + window_load);
}

// The row pitch at or above the window width with the fewest lanes of a subgroup on one of the 32
// shared-memory banks when each reads its strip's element of a window row.
int conflict_free_pitch(const TileShape& shape, const TileShapeInputs& in) {
    const int width = window_width(shape, in);
    if (!in.shared_banks || !in.pad_window_rows) return width;
    int best_pitch = width;
    int best_degree = std::numeric_limits<int>::max();
    for (int pitch = width; pitch < width + 32; ++pitch) {
        int degree = 0;
        for (int first = 0; first < shape.invocations(); first += static_cast<int>(in.subgroup)) {
            int lanes_per_bank[32] = {};
            for (int lane = first;
                 lane < std::min(first + static_cast<int>(in.subgroup), shape.invocations()); ++lane) {
                const int address = lane / shape.strips_x * pitch + lane % shape.strips_x * shape.strip;
                degree = std::max(degree, ++lanes_per_bank[address % 32]);
            }
        }
        if (degree < best_degree) {
            best_degree = degree;
            best_pitch = pitch;
        }
    }
    return best_pitch;
}

}  // namespace

TileShape choose_tile_shape(const TileShapeInputs& in, const VkPhysicalDeviceLimits& limits) {
    const int side = 2 * in.range + 1;
    const int max_invocations = static_cast<int>(
        std::min({512u, limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]}));
    const int max_rows = in.max_tile_rows > 0 ? std::min(side, in.max_tile_rows) : side;
    TileShape best;
    double best_cost = std::numeric_limits<double>::infinity();
    for (int strip = in.min_strip; strip <= std::min(in.max_strip, side); ++strip) {
        const int strip_columns = ceil_div(side, strip);
        for (int strips_x = 1; strips_x <= std::min(strip_columns, max_invocations); ++strips_x) {
            const int tiles_x = ceil_div(strip_columns, strips_x);
            if (ceil_div(strip_columns, tiles_x) != strips_x) continue;  // the same tiles, wider
            for (int tile_h = 1; tile_h <= std::min(max_rows, max_invocations / strips_x); ++tile_h) {
                const int tiles_y = ceil_div(side, tile_h);
                if (ceil_div(side, tiles_y) != tile_h) continue;
                const TileShape shape{strip, strips_x, tile_h, tiles_x, tiles_y, 1, 0};
                if (shared_bytes(shape, in) > limits.maxComputeSharedMemorySize) continue;
                const double c = cost(shape, in);
                if (c < best_cost) {
                    best_cost = c;
                    best = shape;
                }
            }
        }
    }
    if (best_cost == std::numeric_limits<double>::infinity()) {
        const std::string grouped =
            in.group > 1 ? " in groups of " + std::to_string(in.group) + "x" + std::to_string(in.group) : "";
        throw Error(ErrorKind::unsupported, "block size " + std::to_string(in.block) + grouped +
                                                " needs more shared memory than the device's "
                                                "maxComputeSharedMemorySize of " +
                                                std::to_string(limits.maxComputeSharedMemorySize) + " bytes");
    }
    best.window_pitch = conflict_free_pitch(best, in);
    if (shared_bytes(best, in) > limits.maxComputeSharedMemorySize)
        best.window_pitch = window_width(best, in);
    best.group = in.group;
    best.reduction_slots = reduction_slots(best, in);
    // Large ranges on small frames: spread a group's tiles over several workgroups.
    const int tiles = best.tiles_x * best.tiles_y;
    const int groups = ceil_div(std::max(1, in.block_count), in.group * in.group);
    best.splits = std::clamp(ceil_div(target_workgroups, groups), 1, std::min(tiles, max_splits));
    best.splits = std::min<int>(best.splits, static_cast<int>(limits.maxComputeWorkGroupCount[2]));
    while (best.splits > 1 &&
           static_cast<VkDeviceSize>(best.splits) * static_cast<VkDeviceSize>(in.block_count) * 8 >
               limits.maxStorageBufferRange) {
        --best.splits;
    }
    // One workgroup walking down one column of tiles: each tile after the first stages only its new
    // rows (the ring is written for the half-pair layout, whose element rows are whole).
    // Blocks of 4 lose by it (H100: 0.97x at range 16, 0.91x at 32): their row pairs carry 24 SAD
    // steps of an invocation, and the ring's wrap test is paid on each.
    best.ring_window = in.ring_window && in.half_pairs && in.block >= 8 && best.splits == 1 &&
                       best.tiles_x == 1 && best.tiles_y > 1;
    return best;
}

}  // namespace xme::vulkan
