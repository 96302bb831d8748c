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
    // A variant that some devices have applies to those; the others use their default. A variant
    // that none of the devices has is an error.
    SessionOptions session;
    // Per device; 0: 3. Three, so that a GPU's pair after next is queued, its frame uploading, while the
    // worker converts a result and submits: with two, CUDA's upload of the next pair (41 us for a 1080p
    // plane on the H100 machine) started only after that, and the device idled ~20% of a 1080p range-16
    // job's steady state (docs/scheduler.md, "Pairs in flight and the read-ahead window"). Sessions that
    // hold fewer wait inside submit instead. Negative: an error.
    int pairs_in_flight = 0;
    // A device call (opening a session, submitting a pair, receiving a result) that has not returned
    // after this long is taken as a hung device: it is abandoned and the run goes on as if it had
    // failed. Generous, since one pair of a large frame on a slow CPU variant takes minutes; <= 0:
    // no limit.
    double device_timeout_seconds = 600;
    // Where the devices come from: null opens each one from the registry for this scheduler alone; a
    // caller that runs job after job in one process (the Python module's run_estimate, the corpus's
    // workers) passes one that keeps them open, so that a job does not pay a GPU's context and first
    // launches again. It may be called from several threads at once. A device it returns serves this
    // scheduler alone while the scheduler lives.
    std::function<std::shared_ptr<Device>(const std::string& name)> open_device = nullptr;
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
    // Whether the pair starts a segment of SPEC §8's temporal predictor (the first pair, and every
    // `refresh`-th after it): its predictors did not come from the pair before.
    bool segment_start = true;
};

struct ScheduledDevice {
    DeviceInfo info;
    std::string variant;
    Support support;  // the device's answer for the job's chain: how its results are checked (SPEC §6)
    std::int64_t pairs_done = 0;  // pairs whose result is this device's
    // Split: pairs it finished after another device had (one of the two computed it as a backup of the
    // other, SPEC-identical results): computed, not delivered.
    std::int64_t pairs_discarded = 0;
    std::optional<std::string> failure;  // why it stopped, if it did
    // Host time of this device's worker inside the session's calls, so that a job can say where its
    // time goes: submit (copying each pair's new frames to what the device reads, and queueing its
    // work) and receive (waiting for results, and converting them).
    double submit_seconds = 0;
    double receive_seconds = 0;
    // The pace the scheduler last judged the device by, pairs per second (the median of its latest pairs'
    // busy times; 0 while fewer than three after its first were in): under split, why a device took
    // the share it did.
    double measured_pairs_per_second = 0;
};

// The run's own threads' time per stage: reading (next_frame: decoding and converting frames) and
// delivering (deliver: writing outputs, measuring).
struct HostStageTimes {
    double read_seconds = 0;
    double deliver_seconds = 0;
};

class Scheduler {
public:
    Scheduler(Registry& registry, const ScheduleOptions& options);
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    [[nodiscard]] const std::vector<ScheduledDevice>& devices() const { return devices_; }
    // Where the frames this job reads had best live: the first of its devices' plane_memory (a GPU's
    // pinned memory is pinned for all GPUs of the process, and any device reads it), else null.
    [[nodiscard]] std::shared_ptr<PlaneMemory> plane_memory() const;
    // The last run's reading and delivering time.
    [[nodiscard]] const HostStageTimes& host_times() const { return host_times_; }

    // Reads frames with `next_frame` (nothing at the end) on this thread, numbering them from
    // `first_index`, and hands every pair to `deliver`, in frame order, on a delivery thread of its
    // own: reading the next frames and delivering (writing outputs) overlap, so a job goes as fast as
    // the slower of the two, not their sum. `deliver` and `notice` are called one at a time, but
    // concurrently with `next_frame`: what both touch needs a lock. Under split, a device that fails
    // (or hangs past the timeout) hands its unfinished pairs to the others and `notice` says so; when
    // no device is left, or under single or mirror, the first failure is rethrown once every pair
    // that all devices can still finish has been delivered: under mirror the other devices first
    // finish every pair the failed one finished. A reader error is rethrown likewise. An exception
    // from `deliver` or `notice` (an output that cannot be written) stops the devices and is
    // rethrown at once. Every worker thread has been joined when run returns or throws, but for
    // a hung one, which is left behind detached (it owns what it still uses).
    void run(const std::function<std::optional<Frame>()>& next_frame, std::int64_t first_index,
             const std::function<void(ScheduledPair&&)>& deliver,
             const std::function<void(const std::string&)>& notice);

private:
    struct Shared;
    static void work(std::size_t device_index, Shared& shared);

    ScheduleOptions options_;
    std::vector<std::shared_ptr<Device>> opened_;  // shared with workers, which a hung one may outlive
    std::vector<ScheduledDevice> devices_;
    HostStageTimes host_times_;
};

}  // namespace xme
