// Owning wrappers of the Vulkan objects a session allocates: buffers, 2-D images, and the command
// buffers with their fences. Each one frees itself; move-only.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "loader.hpp"

namespace xme::vulkan {

class Context;

enum class MemoryUse {
    device,    // device-local, the fastest for shaders
    upload,    // host-visible and coherent: staging of frames
    readback,  // host-visible, cached where possible: results
};

// Holds one Vulkan handle and destroys it with `destroy(device, handle, nullptr)`.
template <class Handle, auto Api::*Destroy>
class Owned {
public:
    Owned() = default;
    Owned(const Api* api, VkDevice device, Handle handle) : api_(api), device_(device), handle_(handle) {}
    Owned(Owned&& other) noexcept { *this = std::move(other); }
    Owned& operator=(Owned&& other) noexcept {
        std::swap(api_, other.api_);
        std::swap(device_, other.device_);
        std::swap(handle_, other.handle_);
        return *this;
    }
    ~Owned() {
        if (handle_ != VK_NULL_HANDLE) (api_->*Destroy)(device_, handle_, nullptr);
    }
    [[nodiscard]] Handle get() const { return handle_; }

private:
    const Api* api_ = nullptr;
    VkDevice device_ = VK_NULL_HANDLE;
    Handle handle_ = VK_NULL_HANDLE;
};

using OwnedMemory = Owned<VkDeviceMemory, &Api::vkFreeMemory>;

class Buffer {
public:
    Buffer() = default;
    Buffer(Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
           const std::string& what);
    [[nodiscard]] VkBuffer get() const { return buffer_.get(); }
    [[nodiscard]] VkDeviceSize size() const { return size_; }
    // Host address of a host-visible buffer (mapped for its lifetime), null otherwise.
    [[nodiscard]] std::uint8_t* mapped() const { return mapped_; }

private:
    OwnedMemory memory_;  // declared first, so destroyed after the buffer bound to it
    Owned<VkBuffer, &Api::vkDestroyBuffer> buffer_;
    VkDeviceSize size_ = 0;
    std::uint8_t* mapped_ = nullptr;
};

class Image {
public:
    Image() = default;
    Image(Context& context, int width, int height, VkFormat format, VkImageUsageFlags usage,
          const std::string& what);
    [[nodiscard]] VkImage get() const { return image_.get(); }
    [[nodiscard]] VkImageView view() const { return view_.get(); }
    [[nodiscard]] int width() const { return width_; }
    [[nodiscard]] int height() const { return height_; }

private:
    OwnedMemory memory_;
    Owned<VkImage, &Api::vkDestroyImage> image_;
    Owned<VkImageView, &Api::vkDestroyImageView> view_;
    int width_ = 0;
    int height_ = 0;
};

// A primary command buffer with its fence, from a pool of its own: command buffers of one pool
// cannot be recorded on several threads at once, and sessions may live on different threads.
class CommandBuffer {
public:
    CommandBuffer() = default;
    explicit CommandBuffer(Context& context);
    CommandBuffer(CommandBuffer&& other) noexcept { *this = std::move(other); }
    CommandBuffer& operator=(CommandBuffer&& other) noexcept;
    ~CommandBuffer();

    [[nodiscard]] VkCommandBuffer get() const { return command_buffer_; }
    void begin(const std::string& what);
    void end(const std::string& what);
    // Submits to the context's queue; the fence signals when the work is done.
    void submit(const std::string& what);
    void wait(const std::string& what);

private:
    Context* context_ = nullptr;
    Owned<VkCommandPool, &Api::vkDestroyCommandPool> pool_;  // freeing the pool frees the buffer
    VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
    Owned<VkFence, &Api::vkDestroyFence> fence_;
    bool submitted_ = false;
};

// Image layout transition (and execution dependency) for a whole single-level colour image.
void transition(const Api& api, VkCommandBuffer command_buffer, VkImage image, VkImageLayout from,
                VkImageLayout to, VkPipelineStageFlags source_stages, VkAccessFlags source_access,
                VkPipelineStageFlags destination_stages, VkAccessFlags destination_access);
// A global memory dependency: writes of `source_stages` visible to `destination_stages`.
void memory_barrier(const Api& api, VkCommandBuffer command_buffer, VkPipelineStageFlags source_stages,
                    VkAccessFlags source_access, VkPipelineStageFlags destination_stages,
                    VkAccessFlags destination_access);

}  // namespace xme::vulkan
