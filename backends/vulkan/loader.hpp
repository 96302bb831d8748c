// The Vulkan loader, opened at run time with dlopen: xme has no link-time dependency on libvulkan, so
// it starts on machines without Vulkan and says why the backend is unavailable.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace xme::vulkan {

// Functions resolved before an instance exists.
#define XME_VK_GLOBAL_FUNCTIONS(X)        \
    X(vkCreateInstance)                   \
    X(vkEnumerateInstanceVersion)         \
    X(vkEnumerateInstanceLayerProperties) \
    X(vkEnumerateInstanceExtensionProperties)

// Every other function xme calls, resolved through vkGetInstanceProcAddr once the instance exists.
#define XME_VK_INSTANCE_FUNCTIONS(X)            \
    X(vkDestroyInstance)                        \
    X(vkEnumeratePhysicalDevices)               \
    X(vkGetPhysicalDeviceProperties)            \
    X(vkGetPhysicalDeviceProperties2)           \
    X(vkGetPhysicalDeviceFeatures)              \
    X(vkGetPhysicalDeviceFeatures2)             \
    X(vkGetPhysicalDeviceMemoryProperties)      \
    X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetPhysicalDeviceFormatProperties)      \
    X(vkEnumerateDeviceExtensionProperties)     \
    X(vkCreateDevice)                           \
    X(vkDestroyDevice)                          \
    X(vkGetDeviceQueue)                         \
    X(vkDeviceWaitIdle)                         \
    X(vkQueueSubmit)                            \
    X(vkAllocateMemory)                         \
    X(vkFreeMemory)                             \
    X(vkMapMemory)                              \
    X(vkUnmapMemory)                            \
    X(vkCreateBuffer)                           \
    X(vkDestroyBuffer)                          \
    X(vkGetBufferMemoryRequirements)            \
    X(vkBindBufferMemory)                       \
    X(vkCreateImage)                            \
    X(vkDestroyImage)                           \
    X(vkGetImageMemoryRequirements)             \
    X(vkBindImageMemory)                        \
    X(vkCreateImageView)                        \
    X(vkDestroyImageView)                       \
    X(vkCreateSampler)                          \
    X(vkDestroySampler)                         \
    X(vkCreateShaderModule)                     \
    X(vkDestroyShaderModule)                    \
    X(vkCreateDescriptorSetLayout)              \
    X(vkDestroyDescriptorSetLayout)             \
    X(vkCreatePipelineLayout)                   \
    X(vkDestroyPipelineLayout)                  \
    X(vkCreateComputePipelines)                 \
    X(vkDestroyPipeline)                        \
    X(vkCreateDescriptorPool)                   \
    X(vkDestroyDescriptorPool)                  \
    X(vkAllocateDescriptorSets)                 \
    X(vkUpdateDescriptorSets)                   \
    X(vkCreateCommandPool)                      \
    X(vkDestroyCommandPool)                     \
    X(vkAllocateCommandBuffers)                 \
    X(vkFreeCommandBuffers)                     \
    X(vkBeginCommandBuffer)                     \
    X(vkEndCommandBuffer)                       \
    X(vkCmdBindPipeline)                        \
    X(vkCmdBindDescriptorSets)                  \
    X(vkCmdPushConstants)                       \
    X(vkCmdDispatch)                            \
    X(vkCmdPipelineBarrier)                     \
    X(vkCmdCopyBuffer)                          \
    X(vkCmdCopyBufferToImage)                   \
    X(vkCmdFillBuffer)                          \
    X(vkCmdUpdateBuffer)                        \
    X(vkCmdResetQueryPool)                      \
    X(vkCmdWriteTimestamp)                      \
    X(vkCreateFence)                            \
    X(vkDestroyFence)                           \
    X(vkResetFences)                            \
    X(vkWaitForFences)                          \
    X(vkCreateQueryPool)                        \
    X(vkDestroyQueryPool)                       \
    X(vkGetQueryPoolResults)

// Extension functions: null when the extension is not enabled.
#define XME_VK_OPTIONAL_FUNCTIONS(X)        \
    X(vkCreateDebugUtilsMessengerEXT)       \
    X(vkDestroyDebugUtilsMessengerEXT)      \
    X(vkGetPipelineExecutablePropertiesKHR) \
    X(vkGetPipelineExecutableStatisticsKHR)

#define XME_VK_DECLARE(name) PFN_##name name = nullptr;

struct Api {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
    XME_VK_GLOBAL_FUNCTIONS(XME_VK_DECLARE)
    XME_VK_INSTANCE_FUNCTIONS(XME_VK_DECLARE)
    XME_VK_OPTIONAL_FUNCTIONS(XME_VK_DECLARE)
};

#undef XME_VK_DECLARE

// The global functions of the process's Vulkan loader, opened once. Throws Error(device) saying what
// to install when libvulkan.so.1 cannot be opened.
[[nodiscard]] Api load_global_api();
// Fills the instance-level (and device-level) functions of `api` for `instance`.
void load_instance_api(Api& api, VkInstance instance);

// A Vulkan structure with every member zero and its sType set.
template <class Struct>
[[nodiscard]] Struct vulkan_struct(VkStructureType type) {
    Struct value{};
    value.sType = type;
    return value;
}

// Throws Error(device, "<what> failed: VK_ERROR_...") unless `result` is VK_SUCCESS.
void check(VkResult result, const std::string& what);
[[nodiscard]] const char* result_name(VkResult result);

}  // namespace xme::vulkan
