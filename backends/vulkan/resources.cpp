#include "resources.hpp"

#include <limits>

#include "context.hpp"

namespace xme::vulkan {
namespace {

OwnedMemory allocate(Context& context, const VkMemoryRequirements& requirements, MemoryUse use,
                     const std::string& what) {
    auto info = vulkan_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    info.allocationSize = requirements.size;
    info.memoryTypeIndex = context.memory_type(requirements.memoryTypeBits, use, what);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    check(context.api().vkAllocateMemory(context.device(), &info, nullptr, &memory),
          "vkAllocateMemory of " + std::to_string(requirements.size) + " bytes for " + what + " on " +
              context.name());
    return {&context.api(), context.device(), memory};
}

}  // namespace

Buffer::Buffer(Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
               const std::string& what)
    : size_(size) {
    const Api& api = context.api();
    auto info = vulkan_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer buffer = VK_NULL_HANDLE;
    check(api.vkCreateBuffer(context.device(), &info, nullptr, &buffer), "vkCreateBuffer for " + what);
    buffer_ = {&api, context.device(), buffer};
    VkMemoryRequirements requirements{};
    api.vkGetBufferMemoryRequirements(context.device(), buffer, &requirements);
    memory_ = allocate(context, requirements, use, what);
    check(api.vkBindBufferMemory(context.device(), buffer, memory_.get(), 0),
          "vkBindBufferMemory for " + what);
    if (use != MemoryUse::device) {
        void* host = nullptr;
        check(api.vkMapMemory(context.device(), memory_.get(), 0, VK_WHOLE_SIZE, 0, &host),
              "vkMapMemory for " + what);
        mapped_ = static_cast<std::uint8_t*>(host);
    }
}

Image::Image(Context& context, int width, int height, VkFormat format, VkImageUsageFlags usage,
             const std::string& what)
    : width_(width), height_(height) {
    const Api& api = context.api();
    auto info = vulkan_struct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImage image = VK_NULL_HANDLE;
    check(api.vkCreateImage(context.device(), &info, nullptr, &image),
          "vkCreateImage (" + std::to_string(width) + "x" + std::to_string(height) + ") for " + what);
    image_ = {&api, context.device(), image};
    VkMemoryRequirements requirements{};
    api.vkGetImageMemoryRequirements(context.device(), image, &requirements);
    memory_ = allocate(context, requirements, MemoryUse::device, what);
    check(api.vkBindImageMemory(context.device(), image, memory_.get(), 0), "vkBindImageMemory for " + what);
    auto view_info = vulkan_struct<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
    view_info.image = image;
    view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = format;
    view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    check(api.vkCreateImageView(context.device(), &view_info, nullptr, &view),
          "vkCreateImageView for " + what);
    view_ = {&api, context.device(), view};
}

CommandBuffer::CommandBuffer(Context& context) : context_(&context) {
    const Api& api = context.api();
    auto pool_info = vulkan_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;  // re-recorded for every pair
    pool_info.queueFamilyIndex = context.queue_family();
    VkCommandPool pool = VK_NULL_HANDLE;
    check(api.vkCreateCommandPool(context.device(), &pool_info, nullptr, &pool), "vkCreateCommandPool");
    pool_ = {&api, context.device(), pool};
    auto info = vulkan_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    info.commandPool = pool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    check(api.vkAllocateCommandBuffers(context.device(), &info, &command_buffer_),
          "vkAllocateCommandBuffers");
    auto fence_info = vulkan_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    VkFence fence = VK_NULL_HANDLE;
    check(api.vkCreateFence(context.device(), &fence_info, nullptr, &fence), "vkCreateFence");
    fence_ = {&api, context.device(), fence};
}

CommandBuffer& CommandBuffer::operator=(CommandBuffer&& other) noexcept {
    std::swap(context_, other.context_);
    std::swap(pool_, other.pool_);
    std::swap(command_buffer_, other.command_buffer_);
    std::swap(fence_, other.fence_);
    std::swap(submitted_, other.submitted_);
    return *this;
}

CommandBuffer::~CommandBuffer() {
    if (command_buffer_ == VK_NULL_HANDLE) return;
    // Freeing a command buffer the device still runs is invalid: wait for it (errors cannot be thrown here).
    if (submitted_) {
        const VkFence fence = fence_.get();
        context_->api().vkWaitForFences(context_->device(), 1, &fence, VK_TRUE,
                                        std::numeric_limits<std::uint64_t>::max());
    }
    context_->api().vkFreeCommandBuffers(context_->device(), pool_.get(), 1, &command_buffer_);
}

void CommandBuffer::begin(const std::string& what) {
    auto info = vulkan_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(context_->api().vkBeginCommandBuffer(command_buffer_, &info), "vkBeginCommandBuffer for " + what);
}

void CommandBuffer::end(const std::string& what) {
    check(context_->api().vkEndCommandBuffer(command_buffer_), "vkEndCommandBuffer for " + what);
}

void CommandBuffer::submit(const std::string& what) {
    const VkFence fence = fence_.get();
    check(context_->api().vkResetFences(context_->device(), 1, &fence), "vkResetFences for " + what);
    context_->submit(command_buffer_, fence, what);
    submitted_ = true;
}

void CommandBuffer::wait(const std::string& what) {
    if (!submitted_) return;
    const VkFence fence = fence_.get();
    check(context_->api().vkWaitForFences(context_->device(), 1, &fence, VK_TRUE,
                                          std::numeric_limits<std::uint64_t>::max()),
          "vkWaitForFences for " + what);
    submitted_ = false;
}

void transition(const Api& api, VkCommandBuffer command_buffer, VkImage image, VkImageLayout from,
                VkImageLayout to, VkPipelineStageFlags source_stages, VkAccessFlags source_access,
                VkPipelineStageFlags destination_stages, VkAccessFlags destination_access) {
    auto barrier = vulkan_struct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    barrier.srcAccessMask = source_access;
    barrier.dstAccessMask = destination_access;
    barrier.oldLayout = from;
    barrier.newLayout = to;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    api.vkCmdPipelineBarrier(command_buffer, source_stages, destination_stages, 0, 0, nullptr, 0, nullptr, 1,
                             &barrier);
}

void memory_barrier(const Api& api, VkCommandBuffer command_buffer, VkPipelineStageFlags source_stages,
                    VkAccessFlags source_access, VkPipelineStageFlags destination_stages,
                    VkAccessFlags destination_access) {
    auto barrier = vulkan_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = source_access;
    barrier.dstAccessMask = destination_access;
    api.vkCmdPipelineBarrier(command_buffer, source_stages, destination_stages, 0, 1, &barrier, 0, nullptr, 0,
                             nullptr);
}

}  // namespace xme::vulkan
