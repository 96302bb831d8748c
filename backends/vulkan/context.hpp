// One opened Vulkan device: logical device, compute queue, samplers and the cache of
// specialised pipelines that every session on the device shares (ncnn-style: keyed by shader and
// specialisation constants, compiled once).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "instance.hpp"
#include "pipeline.hpp"
#include "resources.hpp"

namespace xme::vulkan {

class Context {
public:
    Context(std::shared_ptr<Instance> instance, int index);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    [[nodiscard]] const Api& api() const { return instance_->api(); }
    [[nodiscard]] VkDevice device() const { return device_; }
    [[nodiscard]] std::uint32_t queue_family() const { return queue_family_; }
    // Submits one command buffer to the compute queue; sessions on several threads may share it.
    void submit(VkCommandBuffer command_buffer, VkFence fence, const std::string& what);
    [[nodiscard]] const VkPhysicalDeviceLimits& limits() const { return properties_.limits; }
    [[nodiscard]] const std::string& name() const { return name_; }
    // Nanoseconds per timestamp tick; 0 when the compute queue has no timestamps.
    [[nodiscard]] double timestamp_period_ns() const { return timestamp_period_ns_; }
    // The bits of a timestamp that count (the rest is garbage), for differences that wrap.
    [[nodiscard]] std::uint64_t timestamp_mask() const { return timestamp_mask_; }
    // Memory type index for a resource's allowed types and its use.
    [[nodiscard]] std::uint32_t memory_type(std::uint32_t allowed_types, MemoryUse use,
                                            const std::string& what) const;

    // Clamp-to-edge samplers with unnormalized coordinates (texel i's centre at i + 0.5).
    [[nodiscard]] VkSampler nearest_sampler() const { return nearest_sampler_; }
    [[nodiscard]] VkSampler linear_sampler() const { return linear_sampler_; }
    // Normalised coordinates, nearest, clamped to the edge: for textureGather, which an unnormalised
    // sampler cannot serve (the fast kernel stages its window four texels per fetch).
    [[nodiscard]] VkSampler gather_sampler() const { return gather_sampler_; }

    // The pipeline of `shader` specialised with `constants`, compiled on first use.
    [[nodiscard]] const Pipeline& pipeline(const ShaderBinary& shader,
                                           const std::vector<SpecConstant>& constants,
                                           const PushConstantLayout& push_constants);

    // Throws Error(device) if the validation layer (when on) reported anything since the last check.
    void check_validation(const std::string& when) { instance_->throw_if_validation_reported(when); }
    // XME_VULKAN_LOG=1: pass times and pipeline statistics on stderr.
    [[nodiscard]] bool logging() const { return logging_; }
    // Whether shaders may do 16-bit float arithmetic (shaderFloat16, enabled at device creation).
    [[nodiscard]] bool float16() const { return float16_; }
    // Whether shaders may do 16-bit integer arithmetic (shaderInt16).
    [[nodiscard]] bool int16() const { return int16_; }
    [[nodiscard]] VkPhysicalDeviceType type() const { return properties_.deviceType; }
    // Invocations that run in lockstep (a warp): workgroups are sized in multiples of it.
    [[nodiscard]] std::uint32_t subgroup_size() const { return subgroup_size_; }
    // Whether compute shaders have subgroup arithmetic (subgroupMin), for the reductions of keys.
    [[nodiscard]] bool subgroup_reductions() const { return subgroup_reductions_; }
    // Whether pipelines are created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR.
    [[nodiscard]] bool capture_statistics() const { return pipeline_statistics_; }

private:
    void create_device(int index);
    void release();
    VkSampler create_sampler(VkFilter filter, bool normalized = false);

    std::shared_ptr<Instance> instance_;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    std::string name_;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    std::uint32_t queue_family_ = 0;
    double timestamp_period_ns_ = 0;
    std::uint64_t timestamp_mask_ = ~std::uint64_t{0};
    bool pipeline_statistics_ = false;
    bool float16_ = false;
    bool int16_ = false;
    bool subgroup_reductions_ = false;
    std::uint32_t subgroup_size_ = 1;
    bool logging_ = false;
    std::mutex queue_mutex_;
    VkSampler nearest_sampler_ = VK_NULL_HANDLE;
    VkSampler gather_sampler_ = VK_NULL_HANDLE;
    VkSampler linear_sampler_ = VK_NULL_HANDLE;
    std::mutex pipelines_mutex_;
    std::map<std::string, std::unique_ptr<Pipeline>> pipelines_;
};

}  // namespace xme::vulkan
