// full_search.comp's tile shape (backends/vulkan/tile_shape.cpp) beyond what the results show: the
// conformance rows pass with any shape that fits, so the rules that only decide speed, or that must
// hold for the shader to stay inside its arrays, are checked here on the shapes a GPU gets.
#include <doctest/doctest.h>

#include "tile_shape.hpp"

namespace {

// An H100's limits, as the Vulkan driver reports them (the ones the shape reads).
VkPhysicalDeviceLimits gpu_limits() {
    VkPhysicalDeviceLimits limits{};
    limits.maxComputeWorkGroupInvocations = 1024;
    limits.maxComputeWorkGroupSize[0] = 1024;
    limits.maxComputeWorkGroupCount[2] = 65535;
    limits.maxComputeSharedMemorySize = 49152;
    limits.maxStorageBufferRange = 0xFFFFFFFFu;
    return limits;
}

// 1920x1080 on a GPU with 16-bit pairs, 32-lane subgroups and subgroup arithmetic, 2x2 groups, tiles of
// at most 11 rows for small blocks: what full_search.cpp asks for there by default.
xme::vulkan::TileShapeInputs gpu_inputs(int block, int range) {
    xme::vulkan::TileShapeInputs in;
    in.block = block;
    in.range = range;
    in.block_count = (1920 / block) * (1080 / block);
    in.group = block <= 16 ? 2 : 1;
    in.max_strip = 12 / in.group;
    in.max_tile_rows = block <= 8 ? 11 : 0;
    in.half_pairs = true;
    in.subgroup = 32;
    in.subgroup_reduce = true;
    in.pad_window_rows = block >= 16;
    return in;
}

}  // namespace

TEST_CASE("vulkan tile shape: the ring window only where one workgroup walks down one column of tiles") {
    const auto limits = gpu_limits();
    const auto block8 = xme::vulkan::choose_tile_shape(gpu_inputs(8, 16), limits);
    CHECK(block8.tiles_x == 1);
    CHECK(block8.tiles_y == 3);
    CHECK(block8.splits == 1);
    CHECK(block8.ring_window);
    // Blocks of 4 ran slower with it; a single tile has nothing to keep.
    CHECK_FALSE(xme::vulkan::choose_tile_shape(gpu_inputs(4, 16), limits).ring_window);
    CHECK_FALSE(xme::vulkan::choose_tile_shape(gpu_inputs(16, 16), limits).ring_window);
    // Tiles split over workgroups (a small frame): each workgroup's tiles are not consecutive.
    auto small = gpu_inputs(8, 16);
    small.block_count = 40;
    const auto split = xme::vulkan::choose_tile_shape(small, limits);
    CHECK(split.splits > 1);
    CHECK_FALSE(split.ring_window);
    // The ring is written for the 16-bit pairs' whole element rows, and can be turned off.
    auto floats = gpu_inputs(8, 16);
    floats.half_pairs = false;
    CHECK_FALSE(xme::vulkan::choose_tile_shape(floats, limits).ring_window);
    auto off = gpu_inputs(8, 16);
    off.ring_window = false;
    CHECK_FALSE(xme::vulkan::choose_tile_shape(off, limits).ring_window);
}

TEST_CASE("vulkan tile shape: reduction slots per block and subgroup, or per invocation for the tree") {
    const auto limits = gpu_limits();
    for (const int block : {4, 8, 16, 32}) {
        auto in = gpu_inputs(block, 16);
        const auto shape = xme::vulkan::choose_tile_shape(in, limits);
        const int subgroups = (shape.invocations() + 31) / 32;
        INFO("block ", block, " invocations ", shape.invocations());
        CHECK(shape.reduction_slots == in.group * in.group * subgroups);
        in.subgroup_reduce = false;
        CHECK(xme::vulkan::choose_tile_shape(in, limits).reduction_slots == shape.invocations());
    }
}

TEST_CASE("vulkan tile shape: window rows at the window's width unless padded against bank conflicts") {
    const auto limits = gpu_limits();
    auto in = gpu_inputs(8, 16);
    const auto unpadded = xme::vulkan::choose_tile_shape(in, limits);
    CHECK(unpadded.window_pitch == unpadded.strip * unpadded.strips_x + 2 * 8 - 1);
    in.pad_window_rows = true;
    const auto padded = xme::vulkan::choose_tile_shape(in, limits);
    CHECK(padded.window_pitch >= unpadded.window_pitch);
    CHECK(padded.window_pitch < unpadded.window_pitch + 32);
}
