#include "loader.hpp"

#include <dlfcn.h>

#include "xme/error.hpp"

namespace xme::vulkan {
namespace {

// Kept open for the life of the process: closing it while any device exists would unmap its code.
void* open_loader(std::string& failure) {
    static std::string error;
    static void* const handle = [] {
        void* h = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
        if (h == nullptr) {
            const char* reason = dlerror();
            error = reason != nullptr ? reason : "dlopen failed";
        }
        return h;
    }();
    failure = error;
    return handle;
}

}  // namespace

Api load_global_api() {
    std::string failure;
    void* handle = open_loader(failure);
    if (handle == nullptr) {
        throw Error(ErrorKind::device, "libvulkan.so.1 not found (" + failure +
                                           "): install libvulkan1 (and a driver, e.g. mesa-vulkan-drivers)");
    }
    Api api;
    api.vkGetInstanceProcAddr =
        reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(handle, "vkGetInstanceProcAddr"));
    if (api.vkGetInstanceProcAddr == nullptr) {
        throw Error(ErrorKind::device,
                    "libvulkan.so.1 has no vkGetInstanceProcAddr: the Vulkan loader is broken");
    }
#define XME_VK_LOAD_GLOBAL(name) \
    api.name = reinterpret_cast<PFN_##name>(api.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name));
    XME_VK_GLOBAL_FUNCTIONS(XME_VK_LOAD_GLOBAL)
#undef XME_VK_LOAD_GLOBAL
    if (api.vkCreateInstance == nullptr)
        throw Error(ErrorKind::device, "the Vulkan loader exports no vkCreateInstance");
    return api;
}

void load_instance_api(Api& api, VkInstance instance) {
    std::string missing;
#define XME_VK_LOAD(name)                                                                \
    api.name = reinterpret_cast<PFN_##name>(api.vkGetInstanceProcAddr(instance, #name)); \
    if (api.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
    XME_VK_INSTANCE_FUNCTIONS(XME_VK_LOAD)
#undef XME_VK_LOAD
#define XME_VK_LOAD_OPTIONAL(name) \
    api.name = reinterpret_cast<PFN_##name>(api.vkGetInstanceProcAddr(instance, #name));
    XME_VK_OPTIONAL_FUNCTIONS(XME_VK_LOAD_OPTIONAL)
#undef XME_VK_LOAD_OPTIONAL
    if (!missing.empty()) {
        throw Error(ErrorKind::device,
                    "the Vulkan loader lacks " + missing + ": xme needs Vulkan 1.1 or newer");
    }
}

const char* result_name(VkResult result) {
    switch (result) {
        case VK_SUCCESS:
            return "VK_SUCCESS";
        case VK_NOT_READY:
            return "VK_NOT_READY";
        case VK_TIMEOUT:
            return "VK_TIMEOUT";
        case VK_INCOMPLETE:
            return "VK_INCOMPLETE";
        case VK_ERROR_OUT_OF_HOST_MEMORY:
            return "VK_ERROR_OUT_OF_HOST_MEMORY";
        case VK_ERROR_OUT_OF_DEVICE_MEMORY:
            return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
        case VK_ERROR_INITIALIZATION_FAILED:
            return "VK_ERROR_INITIALIZATION_FAILED";
        case VK_ERROR_DEVICE_LOST:
            return "VK_ERROR_DEVICE_LOST";
        case VK_ERROR_MEMORY_MAP_FAILED:
            return "VK_ERROR_MEMORY_MAP_FAILED";
        case VK_ERROR_LAYER_NOT_PRESENT:
            return "VK_ERROR_LAYER_NOT_PRESENT";
        case VK_ERROR_EXTENSION_NOT_PRESENT:
            return "VK_ERROR_EXTENSION_NOT_PRESENT";
        case VK_ERROR_FEATURE_NOT_PRESENT:
            return "VK_ERROR_FEATURE_NOT_PRESENT";
        case VK_ERROR_INCOMPATIBLE_DRIVER:
            return "VK_ERROR_INCOMPATIBLE_DRIVER";
        case VK_ERROR_TOO_MANY_OBJECTS:
            return "VK_ERROR_TOO_MANY_OBJECTS";
        case VK_ERROR_FORMAT_NOT_SUPPORTED:
            return "VK_ERROR_FORMAT_NOT_SUPPORTED";
        case VK_ERROR_FRAGMENTED_POOL:
            return "VK_ERROR_FRAGMENTED_POOL";
        case VK_ERROR_OUT_OF_POOL_MEMORY:
            return "VK_ERROR_OUT_OF_POOL_MEMORY";
        case VK_ERROR_INVALID_SHADER_NV:
            return "VK_ERROR_INVALID_SHADER_NV";
        default:
            return "an unknown VkResult";
    }
}

void check(VkResult result, const std::string& what) {
    if (result == VK_SUCCESS) return;
    std::string message = what + " failed: " + result_name(result) + " (" + std::to_string(result) + ")";
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY) {
        message += ": try a smaller frame, block or range, or free memory on the device";
    } else if (result == VK_ERROR_DEVICE_LOST) {
        message += ": the driver reset the device (a hang or a fault in a shader)";
    }
    throw Error(ErrorKind::device, message);
}

}  // namespace xme::vulkan
