#include "mean_pyramid.hpp"

#include <string>

#include "mean_pyramid_spv.hpp"
#include "xme/error.hpp"

namespace xme::vulkan {
namespace {

constexpr int group_side = 8;  // mean_pyramid.comp's local size, in x and in y

int level_extent(int extent, int level) { return (extent + (1 << level) - 1) >> level; }

}  // namespace

MeanPyramids::MeanPyramids(const SessionResources& resources)
    : context_(resources.context), frame_size_{resources.options.width, resources.options.height} {
    const auto samples = [&](int level) {
        return static_cast<VkDeviceSize>(level_extent(frame_size_.x, level)) *
               static_cast<VkDeviceSize>(level_extent(frame_size_.y, level));
    };
    const VkDeviceSize bytes = 4 * (samples(1) + samples(2));  // one uint per sample
    const auto limit = context_.limits().maxStorageBufferRange;
    if (bytes > limit) {
        throw Error(ErrorKind::unsupported, "ehds's mean pyramid of a " + std::to_string(frame_size_.x) +
                                                "x" + std::to_string(frame_size_.y) + " frame needs " +
                                                std::to_string(bytes) + " bytes, over " + context_.name() +
                                                "'s maxStorageBufferRange of " + std::to_string(limit) +
                                                ": use --backend cpu for frames this large");
    }
    pyramids_.resize(resources.frames.size());
    for (auto& pyramid : pyramids_) {
        pyramid = Buffer(context_, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::device,
                         "a frame's mean pyramid");
    }
    pipeline_ = &context_.pipeline(shaders::mean_pyramid, {}, push_constant_layout<MeanPyramidParams>());
    sets_ = std::make_unique<DescriptorSets>(context_, *pipeline_,
                                             static_cast<std::uint32_t>(frame_slot_count(resources)));
    for (int slot = 0; slot < frame_slot_count(resources); ++slot) {
        sets_->write(static_cast<std::uint32_t>(slot),
                     {{"frame",
                       resources.frames[static_cast<std::size_t>(slot)].view(),
                       context_.nearest_sampler(),
                       {}},
                      {"Pyramid", {}, {}, of(slot).get()}});
    }
}

void MeanPyramids::record_slot(VkCommandBuffer commands, int slot) const {
    pipeline_->bind_and_push(commands, (*sets_)[static_cast<std::uint32_t>(slot)],
                             MeanPyramidParams{frame_size_});
    context_.api().vkCmdDispatch(commands, groups_for(level_extent(frame_size_.x, 2), group_side),
                                 groups_for(level_extent(frame_size_.y, 2), group_side), 1);
}

void MeanPyramids::record(VkCommandBuffer commands, FrameSlots slots) const {
    // Earlier pairs' reads of a slot's old pyramid come first: the session's barrier at the start of
    // every pair orders them (an execution dependency suffices for write-after-read).
    if (slots.reference_uploaded) record_slot(commands, slots.reference);
    if (slots.current_uploaded) record_slot(commands, slots.current);  // never the reference's slot too
    if (!slots.reference_uploaded && !slots.current_uploaded) return;
    memory_barrier(context_.api(), commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
}

}  // namespace xme::vulkan
