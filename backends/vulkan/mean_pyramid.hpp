// SPEC §11's mean pyramid (ehds) of each cached frame, on the device: levels 1 and 2 in one storage
// buffer per frame slot (mean_pyramid.comp), rebuilt when a pair uploads a frame into the slot.
#pragma once

#include <memory>
#include <vector>

#include "pipeline.hpp"
#include "resources.hpp"
#include "search_plan.hpp"

namespace xme::vulkan {

class MeanPyramids {
public:
    // Throws Error(unsupported) when a pyramid exceeds the device's maxStorageBufferRange.
    explicit MeanPyramids(const SessionResources& resources);

    // Records the pyramids of the slots `slots` uploaded, then a barrier before the search reads them.
    void record(VkCommandBuffer commands, FrameSlots slots) const;
    [[nodiscard]] const Buffer& of(int slot) const { return pyramids_[static_cast<std::size_t>(slot)]; }

private:
    void record_slot(VkCommandBuffer commands, int slot) const;

    Context& context_;
    Int2 frame_size_;
    std::vector<Buffer> pyramids_;  // one per frame slot
    const Pipeline* pipeline_ = nullptr;
    std::unique_ptr<DescriptorSets> sets_;  // one per frame slot
};

}  // namespace xme::vulkan
