// A compute pipeline built from an embedded shader: its descriptor-set layout and push-constant range
// come from the layout reflected at build time, and the C++ push-constant struct must match it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loader.hpp"
#include "push_constants.hpp"
#include "shader_binary.hpp"

namespace xme::vulkan {

class Context;

struct SpecConstant {
    std::string_view name;  // as in the shader; "local_size_x" for the workgroup width
    std::int32_t value;
};

class Pipeline {
public:
    // Throws Error(device) when the shader and the C++ side disagree (push constants, a constant
    // name the shader lacks) or when Vulkan refuses the pipeline.
    Pipeline(Context& context, const ShaderBinary& shader, const std::vector<SpecConstant>& constants,
             const PushConstantLayout& push_constants);
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    [[nodiscard]] const ShaderBinary& shader() const { return shader_; }
    [[nodiscard]] VkPipeline get() const { return pipeline_; }
    [[nodiscard]] VkPipelineLayout layout() const { return layout_; }
    [[nodiscard]] VkDescriptorSetLayout set_layout() const { return set_layout_; }
    // Register and instruction counts etc. where the driver reports them
    // (VK_KHR_pipeline_executable_properties).
    [[nodiscard]] std::string statistics() const;

    template <class Params>
    void bind_and_push(VkCommandBuffer command_buffer, VkDescriptorSet set, const Params& params) const {
        bind(command_buffer, set);
        push(command_buffer, &params, sizeof(Params));
    }
    void bind(VkCommandBuffer command_buffer, VkDescriptorSet set) const;

private:
    void create(const std::vector<VkSpecializationMapEntry>& entries,
                const std::vector<std::int32_t>& values);
    void destroy();
    void push(VkCommandBuffer command_buffer, const void* data, std::size_t size) const;

    Context& context_;
    const ShaderBinary& shader_;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};

// A resource for one binding of a shader, named as in the shader.
struct Binding {
    std::string_view name;
    VkImageView image_view = VK_NULL_HANDLE;  // sampled (with `sampler`) or storage image
    VkSampler sampler = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;
};

// Descriptor sets of one pipeline's layout, from their own pool. Sets are written once.
class DescriptorSets {
public:
    DescriptorSets(Context& context, const Pipeline& pipeline, std::uint32_t count);
    ~DescriptorSets();
    DescriptorSets(const DescriptorSets&) = delete;
    DescriptorSets& operator=(const DescriptorSets&) = delete;

    // Writes every binding of set `index`; throws Error(device) if one is missing or unknown.
    void write(std::uint32_t index, const std::vector<Binding>& bindings);
    [[nodiscard]] VkDescriptorSet operator[](std::uint32_t index) const { return sets_[index]; }

private:
    Context& context_;
    const Pipeline& pipeline_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> sets_;
};

}  // namespace xme::vulkan
