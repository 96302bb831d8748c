#include "xme/registry.hpp"

#include <algorithm>
#include <string>

#include "reference_backend.hpp"
#include "xme/error.hpp"

namespace xme {
namespace {

std::string family_of(std::string_view device_name) {
    return std::string(device_name.substr(0, device_name.find(':')));
}

}  // namespace

void Registry::add(std::unique_ptr<Backend> backend) {
    backends_.push_back(std::move(backend));
    listed_ = false;
}

void Registry::add_absent(std::string backend_name, std::string reason) {
    absent_.push_back({std::move(backend_name), std::move(reason)});
    listed_ = false;
}

Registry::Registry() : reference_(make_reference_backend()) {}

const std::vector<DeviceInfo>& Registry::devices() {
    if (listed_) return devices_;
    devices_.clear();
    for (const auto& backend : backends_) {
        for (auto& info : backend->devices()) devices_.push_back(std::move(info));
    }
    for (auto& info : reference_->devices()) devices_.push_back(std::move(info));
    for (const auto& absent : absent_) {
        DeviceInfo info;
        info.name = absent.name;
        info.backend = absent.name;
        info.available = false;
        info.unavailable_reason = absent.reason;
        devices_.push_back(std::move(info));
    }
    listed_ = true;
    return devices_;
}

std::vector<Registry::BackendEntry> Registry::backends() const {
    std::vector<BackendEntry> entries;
    for (const auto& backend : backends_) entries.push_back({backend->name(), ""});
    entries.push_back({reference_->name(), ""});
    for (const auto& absent : absent_) entries.push_back({absent.name, absent.reason});
    return entries;
}

Backend* Registry::find_backend(std::string_view family) const {
    for (const auto& backend : backends_) {
        if (backend->name() == family) return backend.get();
    }
    return reference_->name() == family ? reference_.get() : nullptr;
}

std::string Registry::best_device_name(std::string* reason) {
    const DeviceInfo* best = nullptr;
    for (const auto& info : devices()) {
        if (info.available && (best == nullptr || info.preference > best->preference)) best = &info;
    }
    if (best == nullptr)
        throw Error(ErrorKind::device, "no device is available: run 'xme devices' to see why");
    if (reason != nullptr) {
        *reason =
            best->name + " (" + best->description + ") has the highest preference among available devices";
    }
    return best->name;
}

void Registry::refuse_absent_index(std::string_view name) {
    // "cuda:0" names a device of a known family by its index: where the family has no such device
    // (not built, no driver, fewer devices) the device is unavailable (exit 5, as "cuda" alone is),
    // not unknown. Names without an index ("cpu:0": the CPU's device is "cpu") stay unknown.
    const std::size_t colon = name.find(':');
    if (colon == std::string_view::npos || colon + 1 == name.size() ||
        name.find_first_not_of("0123456789", colon + 1) != std::string_view::npos)
        return;
    const std::string family = family_of(name);
    const DeviceInfo* family_entry = nullptr;
    std::string indexed;
    for (const auto& info : devices()) {
        if (info.backend != family) continue;
        if (info.name == family)
            family_entry = &info;
        else
            indexed += (indexed.empty() ? "" : ", ") + info.name;
    }
    if (family_entry != nullptr && !family_entry->available) {
        throw Error(ErrorKind::device,
                    "device " + std::string(name) + " is unavailable: " + family_entry->unavailable_reason);
    }
    if (!indexed.empty()) {
        throw Error(ErrorKind::device, "device " + std::string(name) + " is unavailable: this machine's " +
                                           family + " devices are " + indexed + " (xme devices says more)");
    }
}

std::unique_ptr<Device> Registry::open(std::string_view name) {
    if (name == "auto") return open(best_device_name());
    // Until the whole list is made, only the named family is asked for its devices: opening cuda:0 or cpu
    // need not start a Vulkan instance too (issue 56's setup; docs/scheduler.md, "Setup").
    std::vector<DeviceInfo> family_devices;
    const std::vector<DeviceInfo>* list = nullptr;
    if (!listed_) {
        if (Backend* backend = find_backend(family_of(name)); backend != nullptr) {
            family_devices = backend->devices();
            list = &family_devices;
        }
    }
    if (list == nullptr) list = &devices();
    const DeviceInfo* match = nullptr;
    for (const auto& info : *list) {
        const bool exact = info.name == name;
        const bool first_of_family = info.backend == name && info.available && match == nullptr;
        if (exact || first_of_family) match = &info;
        if (exact) break;
    }
    if (match == nullptr) {
        refuse_absent_index(name);
        std::string listing;
        for (const auto& info : devices())
            listing += (listing.empty() ? " " : ", ") + info.name + (info.available ? "" : " (unavailable)");
        throw Error(ErrorKind::invalid_argument, "unknown device '" + std::string(name) +
                                                     "'; the devices are" + listing +
                                                     " (xme devices says more)");
    }
    if (!match->available) {
        throw Error(ErrorKind::device,
                    "device " + match->name + " is unavailable: " + match->unavailable_reason);
    }
    Backend* backend = find_backend(family_of(match->name));
    if (backend == nullptr)
        throw Error(ErrorKind::device, "device " + match->name + " has no backend in this build");
    return backend->open(match->name);
}

}  // namespace xme
