#include "context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "xme/error.hpp"

namespace xme::vulkan {
namespace {

bool has_extension(const Api& api, VkPhysicalDevice physical, const char* name) {
    std::uint32_t count = 0;
    check(api.vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr),
          "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> extensions(count);
    check(api.vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data()),
          "vkEnumerateDeviceExtensionProperties");
    for (const auto& extension : extensions) {
        if (std::strcmp(extension.extensionName, name) == 0) return true;
    }
    return false;
}

std::string pipeline_cache_name(const ShaderBinary& shader, const std::vector<SpecConstant>& constants) {
    std::string name(shader.name);
    for (const auto& constant : constants)
        name += " " + std::string(constant.name) + "=" + std::to_string(constant.value);
    return name;
}

}  // namespace

Context::Context(std::shared_ptr<Instance> instance, int index) : instance_(std::move(instance)) {
    if (!instance_->validation_problem().empty())
        throw Error(ErrorKind::device, instance_->validation_problem());
    const char* log = std::getenv("XME_VULKAN_LOG");
    logging_ = log != nullptr && std::strcmp(log, "") != 0 && std::strcmp(log, "0") != 0;
    physical_ = instance_->physical_devices().at(static_cast<std::size_t>(index));
    api().vkGetPhysicalDeviceProperties(physical_, &properties_);
    auto subgroup = vulkan_struct<VkPhysicalDeviceSubgroupProperties>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    auto properties2 =
        vulkan_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    properties2.pNext = &subgroup;
    api().vkGetPhysicalDeviceProperties2(physical_, &properties2);
    subgroup_size_ = std::max(1u, subgroup.subgroupSize);
    constexpr VkSubgroupFeatureFlags reductions =
        VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    subgroup_reductions_ = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0 &&
                           (subgroup.supportedOperations & reductions) == reductions;
    api().vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
    name_ = "vulkan:" + std::to_string(index) + " (" + properties_.deviceName + ")";
    try {
        create_device(index);
        nearest_sampler_ = create_sampler(VK_FILTER_NEAREST);
        linear_sampler_ = create_sampler(VK_FILTER_LINEAR);
        gather_sampler_ = create_sampler(VK_FILTER_NEAREST, true);
        check_validation("while opening " + name_);
    } catch (...) {
        release();  // the destructor does not run for an object whose constructor threw
        throw;
    }
}

Context::~Context() { release(); }

void Context::release() {
    pipelines_.clear();
    if (device_ == VK_NULL_HANDLE) return;
    api().vkDeviceWaitIdle(device_);
    if (nearest_sampler_ != VK_NULL_HANDLE) api().vkDestroySampler(device_, nearest_sampler_, nullptr);
    if (linear_sampler_ != VK_NULL_HANDLE) api().vkDestroySampler(device_, linear_sampler_, nullptr);
    if (gather_sampler_ != VK_NULL_HANDLE) api().vkDestroySampler(device_, gather_sampler_, nullptr);
    api().vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
}

void Context::create_device(int index) {
    std::uint32_t family_count = 0;
    api().vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    api().vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, families.data());
    int chosen = -1;
    for (std::uint32_t f = 0; f < family_count; ++f) {
        if ((families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) == 0) continue;
        // A compute family with timestamps, else any compute family (then times are wall-clock).
        if (chosen < 0 || (families[f].timestampValidBits > 0 &&
                           families[static_cast<std::size_t>(chosen)].timestampValidBits == 0)) {
            chosen = static_cast<int>(f);
        }
    }
    if (chosen < 0) throw Error(ErrorKind::unsupported, name_ + " has no compute queue");
    queue_family_ = static_cast<std::uint32_t>(chosen);
    const std::uint32_t timestamp_bits = families[queue_family_].timestampValidBits;
    if (timestamp_bits > 0) timestamp_period_ns_ = properties_.limits.timestampPeriod;
    if (timestamp_bits > 0 && timestamp_bits < 64) timestamp_mask_ = (std::uint64_t{1} << timestamp_bits) - 1;

    const float priority = 1.0f;
    auto queue_info = vulkan_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    queue_info.queueFamilyIndex = queue_family_;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    auto device_info = vulkan_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;

    // Optional features, chained into the device: 16-bit float arithmetic for full_search's packed
    // pairs, and with XME_VULKAN_LOG what the driver compiled the shaders to, where it can say.
    std::vector<const char*> extensions;
    void* chain = nullptr;
    auto float16 = vulkan_struct<VkPhysicalDeviceShaderFloat16Int8FeaturesKHR>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES_KHR);
    auto executable = vulkan_struct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
    auto features = vulkan_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    if (has_extension(api(), physical_, VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME)) {
        features.pNext = &float16;
        api().vkGetPhysicalDeviceFeatures2(physical_, &features);
        if (float16.shaderFloat16 == VK_TRUE) {
            float16 = vulkan_struct<VkPhysicalDeviceShaderFloat16Int8FeaturesKHR>(
                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES_KHR);
            float16.shaderFloat16 = VK_TRUE;
            float16.pNext = chain;
            chain = &float16;
            extensions.push_back(VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);
            float16_ = true;
        }
    }
    if (logging_ && has_extension(api(), physical_, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
        features.pNext = &executable;
        api().vkGetPhysicalDeviceFeatures2(physical_, &features);
        if (executable.pipelineExecutableInfo == VK_TRUE) {
            executable.pNext = chain;
            chain = &executable;
            extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
            pipeline_statistics_ = true;
        }
    }
    // 16-bit integer arithmetic: only the formulation probe (xme_vulkan_forms) uses it.
    auto enabled = vulkan_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    features.pNext = nullptr;
    api().vkGetPhysicalDeviceFeatures2(physical_, &features);
    if (features.features.shaderInt16 == VK_TRUE) {
        enabled.features.shaderInt16 = VK_TRUE;
        enabled.pNext = chain;
        chain = &enabled;
        int16_ = true;
    }
    device_info.pNext = chain;
    device_info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    device_info.ppEnabledExtensionNames = extensions.data();
    check(api().vkCreateDevice(physical_, &device_info, nullptr, &device_),
          "vkCreateDevice for vulkan:" + std::to_string(index));
    api().vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
}

VkSampler Context::create_sampler(VkFilter filter, bool normalized) {
    auto info = vulkan_struct<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
    info.magFilter = filter;
    info.minFilter = filter;
    info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.unnormalizedCoordinates = normalized ? VK_FALSE : VK_TRUE;
    VkSampler sampler = VK_NULL_HANDLE;
    check(api().vkCreateSampler(device_, &info, nullptr, &sampler),
          std::string("vkCreateSampler (") + (filter == VK_FILTER_LINEAR ? "linear" : "nearest") +
              (normalized ? ", normalised" : "") + ") on " + name_);
    return sampler;
}

void Context::submit(VkCommandBuffer command_buffer, VkFence fence, const std::string& what) {
    auto info = vulkan_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    info.commandBufferCount = 1;
    info.pCommandBuffers = &command_buffer;
    const std::lock_guard lock(queue_mutex_);
    check(api().vkQueueSubmit(queue_, 1, &info, fence), "vkQueueSubmit of " + what + " on " + name_);
}

std::uint32_t Context::memory_type(std::uint32_t allowed_types, MemoryUse use,
                                   const std::string& what) const {
    VkMemoryPropertyFlags required = 0;
    VkMemoryPropertyFlags preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    if (use != MemoryUse::device) {
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = required | (use == MemoryUse::readback ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0);
    }
    int fallback = -1;
    for (std::uint32_t t = 0; t < memory_.memoryTypeCount; ++t) {
        if ((allowed_types & (1u << t)) == 0) continue;
        const VkMemoryPropertyFlags flags = memory_.memoryTypes[t].propertyFlags;
        if ((flags & preferred) == preferred) return t;
        if ((flags & required) == required && fallback < 0) fallback = static_cast<int>(t);
    }
    if (fallback < 0) throw Error(ErrorKind::device, name_ + " has no suitable memory type for " + what);
    return static_cast<std::uint32_t>(fallback);
}

const Pipeline& Context::pipeline(const ShaderBinary& shader, const std::vector<SpecConstant>& constants,
                                  const PushConstantLayout& push_constants) {
    const std::lock_guard lock(pipelines_mutex_);
    auto& slot = pipelines_[pipeline_cache_name(shader, constants)];
    if (!slot) {
        slot = std::make_unique<Pipeline>(*this, shader, constants, push_constants);
        if (logging_) {
            std::fprintf(stderr, "xme vulkan: %s: compiled %s%s\n", name_.c_str(),
                         pipeline_cache_name(shader, constants).c_str(),
                         pipeline_statistics_ ? slot->statistics().c_str() : "");
        }
    }
    return *slot;
}

}  // namespace xme::vulkan
