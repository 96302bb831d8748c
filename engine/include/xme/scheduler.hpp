// One scheduler through which every job runs: frame pairs from a reader go to one device (single),
// to every device (mirror), or are spread over several devices at once (split). Results come back
// in frame order. Each device has its own worker thread and keeps several pairs in flight, so an
// asynchronous device uploads the next frame while it computes the current one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xme/device.hpp"
#include "xme/registry.hpp"

namespace xme {

enum class Policy {
    single,  // one device
    mirror,  // every device computes every pair, for comparison
    split,   // each pair goes to whichever device has room next: faster devices take more pairs
};

[[nodiscard]] Policy parse_policy(std::string_view name);
[[nodiscard]] std::string_view to_string(Policy policy);

struct ScheduleOptions {
    Policy policy = Policy::single;
    std::vector<std::string> devices;  // names as Registry::open takes them; single: exactly one
    SessionOptions session;            // variant applies to devices that have it; others use their default
    int pairs_in_flight = 2;           // per device
};

struct DeviceResult {
    std::size_t device = 0;  // index into Scheduler::devices()
    PairResult result;
};

struct ScheduledPair {
    std::int64_t frame = 0;  // index of the current frame; the reference is frame - 1
    std::shared_ptr<const Frame> reference;
    std::shared_ptr<const Frame> current;
    std::vector<DeviceResult> results;  // one; or, for mirror, one per device in device order
};

struct ScheduledDevice {
    DeviceInfo info;
    std::string variant;
    Support support;  // the device's answer for the job's chain: how its results are checked (SPEC §6)
    std::int64_t pairs_done = 0;
    std::optional<std::string> failure;  // why it stopped, if it did
};

class Scheduler {
public:
    Scheduler(Registry& registry, const ScheduleOptions& options);
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    [[nodiscard]] const std::vector<ScheduledDevice>& devices() const { return devices_; }

    // Reads frames with `next_frame` (nothing at the end), numbering them from `first_index`, and
    // hands every pair to `deliver` on this thread, in frame order. Under split, a device that fails
    // hands its unfinished pairs to the others and `notice` says so; when no device is left, or
    // under single or mirror, the first failure is rethrown after every pair finished before it
    // has been delivered. A reader error is rethrown likewise.
    void run(const std::function<std::optional<Frame>()>& next_frame, std::int64_t first_index,
             const std::function<void(ScheduledPair&&)>& deliver, const std::function<void(const std::string&)>& notice);

private:
    struct Shared;
    void work(std::size_t device_index, Shared& shared);

    ScheduleOptions options_;
    std::vector<std::unique_ptr<Device>> opened_;
    std::vector<ScheduledDevice> devices_;
};

}  // namespace xme
