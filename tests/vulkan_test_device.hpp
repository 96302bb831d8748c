// The Vulkan backend's own tests (those that reach past the Device interface) share how they find
// their device.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "xme/device.hpp"
#include "xme/vulkan_backend.hpp"

namespace xme::test {

// The first available Vulkan device (the one XME_TEST_DEVICE names, where it names one), or null,
// with the reason logged, when there is none or this run is for another device.
inline std::unique_ptr<Device> vulkan_device() {
    const char* only = std::getenv("XME_TEST_DEVICE");
    if (only != nullptr && std::string(only).rfind("vulkan", 0) != 0) return nullptr;
    static auto backend = make_vulkan_backend();
    for (const auto& info : backend->devices()) {
        if (info.available && (only == nullptr || info.name == only || info.backend == only)) {
            return backend->open(info.name);
        }
    }
    MESSAGE("skipped: no Vulkan device available here");
    return nullptr;
}

}  // namespace xme::test
