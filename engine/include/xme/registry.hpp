// Every backend compiled into a program, the devices they find, and opening one by name.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "xme/backend.hpp"

namespace xme {

// Every registry holds the scalar reference as device "reference" (never chosen by "auto").
class Registry {
public:
    Registry();
    void add(std::unique_ptr<Backend> backend);
    // A backend left out of this build, so that listings can say why it is missing.
    void add_absent(std::string backend_name, std::string reason);

    // Every device of every backend, unavailable ones and absent backends included.
    [[nodiscard]] const std::vector<DeviceInfo>& devices();
    // Opens "cpu", "cuda:0", a family name alone ("vulkan": its first available device), or
    // "auto" (the available device with the highest preference). Unknown names throw
    // Error(invalid_argument) with the list of what exists; unavailable ones, a known family's "cuda:0"
    // where it has no such device included, Error(device) saying why. Several threads may open devices
    // at once once devices() has listed them (the scheduler opens a job's devices in parallel). Before
    // that, only the named device's family is asked for its devices (no other backend is started).
    [[nodiscard]] std::unique_ptr<Device> open(std::string_view name);
    // The name "auto" resolves to, and why it was chosen.
    [[nodiscard]] std::string best_device_name(std::string* reason = nullptr);

    struct BackendEntry {
        std::string name;           // the family name: "cpu", "cuda", "vulkan", "reference"
        std::string absent_reason;  // empty when the backend is in this build
    };
    // Every backend of this build and every one left out, without looking for devices.
    [[nodiscard]] std::vector<BackendEntry> backends() const;

private:
    struct Absent {
        std::string name;
        std::string reason;
    };
    [[nodiscard]] Backend* find_backend(std::string_view family) const;
    // Throws Error(device) for "family:N" where the family is known but has no such device.
    void refuse_absent_index(std::string_view name);

    std::unique_ptr<Backend> reference_;
    std::vector<std::unique_ptr<Backend>> backends_;
    std::vector<Absent> absent_;
    std::vector<DeviceInfo> devices_;
    bool listed_ = false;
};

}  // namespace xme
