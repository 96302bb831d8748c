#include "instance.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "xme/error.hpp"

namespace xme::vulkan {
namespace {

constexpr const char* validation_layer = "VK_LAYER_KHRONOS_validation";

bool validation_requested() {
    const char* value = std::getenv("XME_VULKAN_VALIDATION");
    return value != nullptr && std::strcmp(value, "") != 0 && std::strcmp(value, "0") != 0;
}

bool layer_installed(const Api& api, const char* name) {
    std::uint32_t count = 0;
    check(api.vkEnumerateInstanceLayerProperties(&count, nullptr), "vkEnumerateInstanceLayerProperties");
    std::vector<VkLayerProperties> layers(count);
    check(api.vkEnumerateInstanceLayerProperties(&count, layers.data()),
          "vkEnumerateInstanceLayerProperties");
    for (const auto& layer : layers) {
        if (std::strcmp(layer.layerName, name) == 0) return true;
    }
    return false;
}

// Keeps every library loaded so far (the driver and what it pulled in: lavapipe's LLVM, say) mapped
// for the life of the process. The loader unloads a driver when its instance is destroyed; memory the
// driver's one-time initialisation left then belongs to no module, so LeakSanitizer can neither name
// nor suppress it (tests/lsan.supp names the drivers). Later instances also skip reloading them.
void keep_loaded_libraries_mapped() {
    std::vector<std::string> names;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
                static_cast<std::vector<std::string>*>(data)->emplace_back(info->dlpi_name);
            }
            return 0;
        },
        &names);
    // RTLD_NOLOAD only takes another reference to a library already mapped; RTLD_NODELETE then
    // keeps it mapped after the loader's dlclose. The reference is never released, on purpose.
    for (const auto& name : names) dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}

// What to do when the loader finds no driver; NVIDIA's driver ships Vulkan without a loader manifest
// on some machines (containers), and then only a manifest is missing.
std::string no_driver_advice() {
    std::error_code ignored;
    if (std::filesystem::exists("/proc/driver/nvidia", ignored) ||
        std::filesystem::exists("/dev/nvidia0", ignored)) {
        return "this machine has an NVIDIA GPU, whose driver implements Vulkan in libEGL_nvidia.so.0: write "
               "an ICD "
               "manifest such as {\"file_format_version\":\"1.0.1\",\"ICD\":{\"library_path\":"
               "\"libEGL_nvidia.so.0\",\"api_version\":\"1.3\"}} to a file and set VK_DRIVER_FILES (and "
               "VK_ICD_FILENAMES, for older loaders) to its path";
    }
    return "install a Vulkan driver (mesa-vulkan-drivers provides lavapipe, which runs on the CPU)";
}

const char* type_name(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
            return "discrete GPU";
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
            return "integrated GPU";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
            return "virtual GPU";
        case VK_PHYSICAL_DEVICE_TYPE_CPU:
            return "cpu";
        default:
            return "other";
    }
}

// Discrete GPUs first when no device is named; a CPU implementation such as lavapipe below the
// native CPU backend (10), which is faster than it.
int preference_of(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
            return 90;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
            return 50;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
            return 30;
        case VK_PHYSICAL_DEVICE_TYPE_CPU:
            return 5;
        default:
            return 1;
    }
}

std::string version_text(std::uint32_t version) {
    return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
           std::to_string(VK_API_VERSION_MINOR(version)) + "." +
           std::to_string(VK_API_VERSION_PATCH(version));
}

}  // namespace

std::shared_ptr<Instance> Instance::create() {
    std::shared_ptr<Instance> self(new Instance());
    self->api_ = load_global_api();
    Api& api = self->api_;
    std::uint32_t loader_version = VK_API_VERSION_1_0;
    if (api.vkEnumerateInstanceVersion != nullptr)
        check(api.vkEnumerateInstanceVersion(&loader_version), "vkEnumerateInstanceVersion");
    if (loader_version < VK_API_VERSION_1_1) {
        throw Error(ErrorKind::device, "the Vulkan loader supports only Vulkan " +
                                           version_text(loader_version) +
                                           ": xme needs 1.1; install a newer libvulkan1");
    }

    const bool validate = validation_requested();
    if (validate && !layer_installed(api, validation_layer)) {
        self->validation_problem_ = std::string("XME_VULKAN_VALIDATION is set but the layer ") +
                                    validation_layer +
                                    " is not installed: install vulkan-validationlayers, or unset "
                                    "XME_VULKAN_VALIDATION to run without validation";
    }
    const bool with_layer = validate && self->validation_problem_.empty();

    auto application = vulkan_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    application.pApplicationName = "xme";
    application.apiVersion = VK_API_VERSION_1_1;
    // Messages about instance creation itself come through this chained messenger description.
    auto messenger_info = vulkan_struct<VkDebugUtilsMessengerCreateInfoEXT>(
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    messenger_info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = &Instance::on_message;
    messenger_info.pUserData = self.get();
    // Synchronization validation too: frames stay on the device across pairs, and several pairs can
    // be in flight, so hazards between submissions are exactly what could go wrong.
    const VkValidationFeatureEnableEXT enabled_features[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    auto features = vulkan_struct<VkValidationFeaturesEXT>(VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT);
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enabled_features;
    features.pNext = &messenger_info;

    const char* layers[] = {validation_layer};
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    auto create_info = vulkan_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    create_info.pApplicationInfo = &application;
    if (with_layer) {
        create_info.pNext = &features;
        create_info.enabledLayerCount = 1;
        create_info.ppEnabledLayerNames = layers;
        create_info.enabledExtensionCount = 2;
        create_info.ppEnabledExtensionNames = extensions;
    }
    const VkResult created = api.vkCreateInstance(&create_info, nullptr, &self->instance_);
    if (created != VK_SUCCESS) {
        // What the loader said while failing belongs to this error, not to a later validation check.
        const std::string said = self->take_messages_as_text();
        if (created == VK_ERROR_INCOMPATIBLE_DRIVER) {
            throw Error(ErrorKind::device, "the Vulkan loader found no driver: " + no_driver_advice() + said);
        }
        check(created, "vkCreateInstance");
    }
    load_instance_api(api, self->instance_);
    if (with_layer) {
        if (api.vkCreateDebugUtilsMessengerEXT == nullptr) {
            throw Error(ErrorKind::device,
                        "the validation layer is loaded but VK_EXT_debug_utils is missing");
        }
        check(
            api.vkCreateDebugUtilsMessengerEXT(self->instance_, &messenger_info, nullptr, &self->messenger_),
            "vkCreateDebugUtilsMessengerEXT for the validation layer's messages");
    }

    std::uint32_t count = 0;
    check(api.vkEnumeratePhysicalDevices(self->instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
    self->physical_devices_.resize(count);
    check(api.vkEnumeratePhysicalDevices(self->instance_, &count, self->physical_devices_.data()),
          "vkEnumeratePhysicalDevices");
    self->physical_devices_.resize(count);
    keep_loaded_libraries_mapped();
    if (count == 0) {
        throw Error(ErrorKind::device, "the Vulkan loader found no device: " + no_driver_advice() +
                                           self->take_messages_as_text());
    }
    return self;
}

Instance::~Instance() {
    if (messenger_ != VK_NULL_HANDLE) api_.vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_ != VK_NULL_HANDLE) api_.vkDestroyInstance(instance_, nullptr);
    // Messages no check point saw (objects left alive at teardown, say) must still fail a test run.
    if (!messages_.empty()) {
        std::fprintf(stderr, "xme: the Vulkan validation layer reported %zu message(s) no check saw:\n",
                     messages_.size());
        for (const auto& message : messages_) std::fprintf(stderr, "  %s\n", message.c_str());
        std::abort();
    }
}

std::string Instance::take_messages_as_text() {
    const std::lock_guard lock(messages_mutex_);
    std::string text;
    for (const auto& message : messages_) text += (text.empty() ? " (the loader said: " : "; ") + message;
    messages_.clear();
    return text.empty() ? text : text + ")";
}

void Instance::record_message(std::string message) {
    const std::lock_guard lock(messages_mutex_);
    messages_.push_back(std::move(message));
}

VkBool32 VKAPI_PTR Instance::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                        VkDebugUtilsMessageTypeFlagsEXT type,
                                        const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    const char* level = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0 ? "error" : "warning";
    const char* kind = (type & VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT) != 0  ? "performance "
                       : (type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) != 0 ? "validation "
                                                                                      : "";
    static_cast<Instance*>(user)->record_message(std::string(kind) + level + ": " +
                                                 (data->pMessage != nullptr ? data->pMessage : "(no text)"));
    return VK_FALSE;
}

void Instance::throw_if_validation_reported(const std::string& when) {
    std::vector<std::string> messages;
    {
        const std::lock_guard lock(messages_mutex_);
        messages.swap(messages_);
    }
    if (messages.empty()) return;
    std::string text =
        "the Vulkan validation layer reported " + std::to_string(messages.size()) + " message(s) " + when;
    for (const auto& message : messages) text += "\n  " + message;
    throw Error(ErrorKind::device, text);
}

DeviceInfo describe_device(const Instance& instance, int index) {
    const Api& api = instance.api();
    VkPhysicalDeviceProperties properties{};
    api.vkGetPhysicalDeviceProperties(instance.physical_devices()[static_cast<std::size_t>(index)],
                                      &properties);
    VkPhysicalDeviceMemoryProperties memory{};
    api.vkGetPhysicalDeviceMemoryProperties(instance.physical_devices()[static_cast<std::size_t>(index)],
                                            &memory);
    VkDeviceSize local_bytes = 0;
    for (std::uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
        if ((memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0) {
            local_bytes = std::max(local_bytes, memory.memoryHeaps[h].size);
        }
    }
    DeviceInfo info;
    info.name = "vulkan:" + std::to_string(index);
    info.backend = "vulkan";
    info.description =
        std::string(properties.deviceName) + ", " + type_name(properties.deviceType) + ", Vulkan " +
        version_text(properties.apiVersion) + ", " + std::to_string(local_bytes >> 20) + " MiB, " +
        std::to_string(properties.limits.maxComputeSharedMemorySize / 1024) + " KiB shared memory";
    info.variants = {"fast", "legacy"};
    info.preference = preference_of(properties.deviceType);
    info.on_host_cores = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;  // lavapipe, SwiftShader
    if (properties.apiVersion < VK_API_VERSION_1_1) {
        info.available = false;
        info.unavailable_reason = info.description + ": xme needs a Vulkan 1.1 device";
    }
    return info;
}

}  // namespace xme::vulkan
