// The Vulkan instance of a process's backend: the loader's functions, the physical devices, and the
// validation layer when XME_VULKAN_VALIDATION=1 asks for it (then every validation message is
// collected, and reported as an error at the next check point, so that tests fail on any of them).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "loader.hpp"
#include "xme/device.hpp"

namespace xme::vulkan {

class Instance {
public:
    // Throws Error(device) saying why Vulkan cannot start here and what to do about it.
    [[nodiscard]] static std::shared_ptr<Instance> create();
    ~Instance();
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    [[nodiscard]] const Api& api() const { return api_; }
    [[nodiscard]] VkInstance handle() const { return instance_; }
    [[nodiscard]] const std::vector<VkPhysicalDevice>& physical_devices() const { return physical_devices_; }

    // Non-empty when validation was asked for but cannot be given: opening a device must then fail.
    [[nodiscard]] const std::string& validation_problem() const { return validation_problem_; }
    [[nodiscard]] bool validating() const { return messenger_ != VK_NULL_HANDLE; }
    // Throws Error(device) with the validation messages collected since the last call, if any.
    void throw_if_validation_reported(const std::string& when);

private:
    Instance() = default;
    void record_message(std::string message);
    // The messages collected so far, as " (the loader said: ...)" or empty; clears them.
    std::string take_messages_as_text();
    static VkBool32 VKAPI_PTR on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT type,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

    Api api_;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    std::vector<VkPhysicalDevice> physical_devices_;
    std::string validation_problem_;
    std::mutex messages_mutex_;
    std::vector<std::string> messages_;
};

// The listing of physical device `index`: name "vulkan:N", type, variants, preference.
[[nodiscard]] DeviceInfo describe_device(const Instance& instance, int index);

}  // namespace xme::vulkan
