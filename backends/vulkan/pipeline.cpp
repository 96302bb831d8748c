#include "pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "context.hpp"
#include "xme/error.hpp"

namespace xme::vulkan {
namespace {

VkDescriptorType descriptor_type(DescriptorKind kind) {
    switch (kind) {
        case DescriptorKind::combined_image_sampler:
            return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        case DescriptorKind::storage_image:
            return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        case DescriptorKind::storage_buffer:
            return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        case DescriptorKind::uniform_buffer:
            return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    }
    return VK_DESCRIPTOR_TYPE_MAX_ENUM;
}

// The reflected push-constant block against the C++ struct: same size, same members at the same offsets.
void check_push_constants(const ShaderBinary& shader, const PushConstantLayout& expected) {
    const auto where = "shaders/" + std::string(shader.name) + ".comp and backends/vulkan/push_constants.hpp";
    if (shader.push_constant_bytes != expected.size) {
        throw Error(ErrorKind::device, "the push-constant block of shader " + std::string(shader.name) +
                                           " is " + std::to_string(shader.push_constant_bytes) +
                                           " bytes but its C++ struct is " + std::to_string(expected.size) +
                                           ": " + where + " disagree");
    }
    const bool same = std::equal(shader.push_constant_members.begin(), shader.push_constant_members.end(),
                                 expected.members.begin(), expected.members.end(),
                                 [](const ShaderMember& a, const ShaderMember& b) {
                                     return a.name == b.name && a.offset == b.offset;
                                 });
    if (!same) {
        throw Error(ErrorKind::device, "the push-constant members of shader " + std::string(shader.name) +
                                           " differ in name or offset from its C++ struct: " + where +
                                           " disagree");
    }
}

}  // namespace

Pipeline::Pipeline(Context& context, const ShaderBinary& shader, const std::vector<SpecConstant>& constants,
                   const PushConstantLayout& push_constants)
    : context_(context), shader_(shader) {
    check_push_constants(shader, push_constants);
    // Specialisation constants by name, through the reflected name -> constant_id table.
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<std::int32_t> values;
    for (const auto& constant : constants) {
        const auto match = std::find_if(shader.spec_constants.begin(), shader.spec_constants.end(),
                                        [&](const ShaderSpecConstant& c) { return c.name == constant.name; });
        if (match == shader.spec_constants.end()) {
            throw Error(ErrorKind::device, "shader " + std::string(shader.name) +
                                               " has no specialization constant " +
                                               std::string(constant.name));
        }
        entries.push_back({match->constant_id,
                           static_cast<std::uint32_t>(values.size() * sizeof(std::int32_t)),
                           sizeof(std::int32_t)});
        values.push_back(constant.value);
    }
    try {
        create(entries, values);
    } catch (...) {
        destroy();  // the destructor does not run for an object whose constructor threw
        throw;
    }
}

void Pipeline::create(const std::vector<VkSpecializationMapEntry>& entries,
                      const std::vector<std::int32_t>& values) {
    const Api& api = context_.api();
    const VkDevice device = context_.device();
    const std::string what = " for shader " + std::string(shader_.name);
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const auto& binding : shader_.bindings) {
        if (binding.set != 0)
            throw Error(ErrorKind::device,
                        "shader " + std::string(shader_.name) + " uses a descriptor set other than 0");
        bindings.push_back(
            {binding.binding, descriptor_type(binding.kind), 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    }
    auto set_info =
        vulkan_struct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    set_info.bindingCount = static_cast<std::uint32_t>(bindings.size());
    set_info.pBindings = bindings.data();
    check(api.vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout_),
          "vkCreateDescriptorSetLayout" + what);

    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, shader_.push_constant_bytes};
    auto layout_info =
        vulkan_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout_;
    layout_info.pushConstantRangeCount = shader_.push_constant_bytes > 0 ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    check(api.vkCreatePipelineLayout(device, &layout_info, nullptr, &layout_),
          "vkCreatePipelineLayout" + what);

    auto module_info = vulkan_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    module_info.codeSize = shader_.words.size() * sizeof(std::uint32_t);
    module_info.pCode = shader_.words.data();
    VkShaderModule module = VK_NULL_HANDLE;
    check(api.vkCreateShaderModule(device, &module_info, nullptr, &module), "vkCreateShaderModule" + what);
    const VkSpecializationInfo specialization{static_cast<std::uint32_t>(entries.size()), entries.data(),
                                              values.size() * sizeof(std::int32_t), values.data()};
    auto pipeline_info =
        vulkan_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    pipeline_info.flags = context_.capture_statistics() ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0;
    pipeline_info.stage =
        vulkan_struct<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = module;
    pipeline_info.stage.pName = "main";
    pipeline_info.stage.pSpecializationInfo = &specialization;
    pipeline_info.layout = layout_;
    const VkResult created =
        api.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline_);
    api.vkDestroyShaderModule(device, module, nullptr);
    check(created, "vkCreateComputePipelines" + what);
}

void Pipeline::destroy() {
    const Api& api = context_.api();
    if (pipeline_ != VK_NULL_HANDLE) api.vkDestroyPipeline(context_.device(), pipeline_, nullptr);
    if (layout_ != VK_NULL_HANDLE) api.vkDestroyPipelineLayout(context_.device(), layout_, nullptr);
    if (set_layout_ != VK_NULL_HANDLE)
        api.vkDestroyDescriptorSetLayout(context_.device(), set_layout_, nullptr);
}

Pipeline::~Pipeline() { destroy(); }

void Pipeline::bind(VkCommandBuffer command_buffer, VkDescriptorSet set) const {
    context_.api().vkCmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    context_.api().vkCmdBindDescriptorSets(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1,
                                           &set, 0, nullptr);
}

void Pipeline::push(VkCommandBuffer command_buffer, const void* data, std::size_t size) const {
    context_.api().vkCmdPushConstants(command_buffer, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                      static_cast<std::uint32_t>(size), data);
}

std::string Pipeline::statistics() const {
    const Api& api = context_.api();
    if (api.vkGetPipelineExecutablePropertiesKHR == nullptr) return {};
    auto info = vulkan_struct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
    info.pipeline = pipeline_;
    std::uint32_t executables = 0;
    if (api.vkGetPipelineExecutablePropertiesKHR(context_.device(), &info, &executables, nullptr) !=
        VK_SUCCESS)
        return {};
    std::string text;
    for (std::uint32_t e = 0; e < executables; ++e) {
        auto executable =
            vulkan_struct<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
        executable.pipeline = pipeline_;
        executable.executableIndex = e;
        std::uint32_t count = 0;
        api.vkGetPipelineExecutableStatisticsKHR(context_.device(), &executable, &count, nullptr);
        std::vector<VkPipelineExecutableStatisticKHR> statistics(
            count, vulkan_struct<VkPipelineExecutableStatisticKHR>(
                       VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
        api.vkGetPipelineExecutableStatisticsKHR(context_.device(), &executable, &count, statistics.data());
        for (const auto& s : statistics) {
            text += std::string("; ") + s.name + " ";
            switch (s.format) {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                    text += s.value.b32 ? "yes" : "no";
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                    text += std::to_string(s.value.i64);
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                    text += std::to_string(s.value.u64);
                    break;
                default:
                    text += std::to_string(s.value.f64);
                    break;
            }
        }
    }
    return text;
}

DescriptorSets::DescriptorSets(Context& context, const Pipeline& pipeline, std::uint32_t count)
    : context_(context), pipeline_(pipeline), sets_(count) {
    std::map<VkDescriptorType, std::uint32_t> per_type;
    for (const auto& binding : pipeline.shader().bindings) per_type[descriptor_type(binding.kind)] += count;
    std::vector<VkDescriptorPoolSize> sizes;
    for (const auto& [type, n] : per_type) sizes.push_back({type, n});
    auto pool_info = vulkan_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pool_info.maxSets = count;
    pool_info.poolSizeCount = static_cast<std::uint32_t>(sizes.size());
    pool_info.pPoolSizes = sizes.data();
    const std::string what = " for shader " + std::string(pipeline.shader().name);
    check(context.api().vkCreateDescriptorPool(context.device(), &pool_info, nullptr, &pool_),
          "vkCreateDescriptorPool" + what);
    std::vector<VkDescriptorSetLayout> layouts(count, pipeline.set_layout());
    auto allocate_info =
        vulkan_struct<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    allocate_info.descriptorPool = pool_;
    allocate_info.descriptorSetCount = count;
    allocate_info.pSetLayouts = layouts.data();
    const VkResult allocated =
        context.api().vkAllocateDescriptorSets(context.device(), &allocate_info, sets_.data());
    if (allocated != VK_SUCCESS) {
        context.api().vkDestroyDescriptorPool(context.device(), pool_, nullptr);
        check(allocated, "vkAllocateDescriptorSets" + what);
    }
}

DescriptorSets::~DescriptorSets() {
    context_.api().vkDestroyDescriptorPool(context_.device(), pool_, nullptr);
}

void DescriptorSets::write(std::uint32_t index, const std::vector<Binding>& resources) {
    const ShaderBinary& shader = pipeline_.shader();
    std::vector<VkDescriptorImageInfo> images(shader.bindings.size());
    std::vector<VkDescriptorBufferInfo> buffers(shader.bindings.size());
    std::vector<VkWriteDescriptorSet> writes;
    for (std::size_t b = 0; b < shader.bindings.size(); ++b) {
        const ShaderBinding& binding = shader.bindings[b];
        const auto resource = std::find_if(resources.begin(), resources.end(),
                                           [&](const Binding& r) { return r.name == binding.name; });
        if (resource == resources.end()) {
            throw Error(ErrorKind::device, "nothing bound to '" + std::string(binding.name) + "' of shader " +
                                               std::string(shader.name));
        }
        auto write = vulkan_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
        write.dstSet = sets_[index];
        write.dstBinding = binding.binding;
        write.descriptorCount = 1;
        write.descriptorType = descriptor_type(binding.kind);
        if (binding.kind == DescriptorKind::storage_buffer ||
            binding.kind == DescriptorKind::uniform_buffer) {
            buffers[b] = {resource->buffer, 0, VK_WHOLE_SIZE};
            write.pBufferInfo = &buffers[b];
        } else {
            const bool sampled = binding.kind == DescriptorKind::combined_image_sampler;
            images[b] = {sampled ? resource->sampler : VK_NULL_HANDLE, resource->image_view,
                         sampled ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL};
            write.pImageInfo = &images[b];
        }
        writes.push_back(write);
    }
    if (resources.size() != writes.size()) {
        throw Error(ErrorKind::device,
                    "a resource bound to shader " + std::string(shader.name) + " names no binding of it");
    }
    context_.api().vkUpdateDescriptorSets(context_.device(), static_cast<std::uint32_t>(writes.size()),
                                          writes.data(), 0, nullptr);
}

}  // namespace xme::vulkan
