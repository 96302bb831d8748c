#include "filter_probe.hpp"

#include <cstdint>
#include <cstring>

#include "filter_probe_spv.hpp"
#include "search_plan.hpp"

namespace xme::vulkan {

int measure_filter_error(Context& context) {
    constexpr int side = 128;  // 16K texel pairs in each direction
    Image image(context, side, side, VK_FORMAT_R8_UNORM,
                VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, "the filter probe image");
    Buffer staging(context, side * side, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::upload,
                   "the filter probe upload");
    Buffer result(context, 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::readback,
                  "the filter probe result");
    std::uint32_t state = 12345;  // a fixed LCG: the same probe on every run
    for (int i = 0; i < side * side; ++i) {
        state = state * 1664525u + 1013904223u;
        staging.mapped()[i] = static_cast<std::uint8_t>(state >> 24);
    }
    std::memset(result.mapped(), 0, 4);

    const Pipeline& pipeline = context.pipeline(shaders::filter_probe, {}, PushConstantLayout{});
    DescriptorSets sets(context, pipeline, 1);
    sets.write(0, {{"probe_linear", image.view(), context.linear_sampler(), {}},
                   {"probe_nearest", image.view(), context.nearest_sampler(), {}},
                   {"ProbeResult", {}, {}, result.get()}});

    const Api& api = context.api();
    CommandBuffer commands(context);
    const VkCommandBuffer cb = commands.get();
    commands.begin("the filter probe");
    transition(api, cb, image.get(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {side, side, 1};
    api.vkCmdCopyBufferToImage(cb, staging.get(), image.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &region);
    transition(api, cb, image.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    pipeline.bind(cb, sets[0]);
    api.vkCmdDispatch(cb, groups_for(side, 8), groups_for(side, 8), 1);
    memory_barrier(api, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    commands.end("the filter probe");
    commands.submit("the filter probe");
    commands.wait("the filter probe");
    std::uint32_t max_error = 0;
    std::memcpy(&max_error, result.mapped(), 4);
    return static_cast<int>(max_error);
}

}  // namespace xme::vulkan
