// The contract a backend implements. The engine and the tools see backends only through this.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "xme/device.hpp"

namespace xme {

class Backend {
public:
    virtual ~Backend() = default;
    // The family name, the part of a device name before ':' ("cpu", "cuda", "vulkan").
    [[nodiscard]] virtual std::string name() const = 0;
    // Every device found, available or not. A backend that cannot start at all (no driver, no
    // loader) returns one unavailable entry named after itself, with the reason.
    [[nodiscard]] virtual std::vector<DeviceInfo> devices() = 0;
    // Opens a device listed by devices(); throws Error(device) with the reason otherwise.
    [[nodiscard]] virtual std::unique_ptr<Device> open(std::string_view device_name) = 0;
};

// Optional base for devices that compute each pair synchronously inside submit().
class SynchronousSession : public MotionSession {
public:
    void submit(const FramePair& pair) final;
    [[nodiscard]] PairResult receive() final;
    [[nodiscard]] std::size_t pending() const final { return done_.size(); }

protected:
    [[nodiscard]] virtual PairResult compute(const FramePair& pair) = 0;

private:
    std::deque<PairResult> done_;
};

// Checks options shared by every backend: parameters, frame size, variant name. Returns the
// variant to use (the default when options.variant is empty).
[[nodiscard]] std::string checked_variant(const DeviceInfo& device, const SessionOptions& options);

}  // namespace xme
