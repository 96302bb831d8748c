// Internal to the scheduler: the state its reader (run's thread), its device workers and its
// watchdog share, under one mutex. Workers hold it by shared_ptr, so that a hung one that the run
// leaves behind never touches freed memory.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "xme/scheduler.hpp"

namespace xme {

struct Scheduler::Shared {
    using Clock = std::chrono::steady_clock;

    ScheduleOptions options;
    std::vector<std::shared_ptr<Device>> opened;
    std::vector<ScheduledDevice> devices;  // copied back to the Scheduler when the run ends
    std::int64_t first_index = 0;

    std::mutex mutex;
    std::condition_variable changed;
    // Wakes only the workers of devices left out of a split (left_out): a device failing, or the run
    // ending. On `changed` such a worker woke with every frame read, result and delivery (~3 times a
    // pair) and took the lock the working devices' workers wait on.
    std::condition_variable left_out_changed;
    std::map<std::int64_t, std::shared_ptr<const Frame>> frames;  // read and still needed
    std::vector<std::deque<std::int64_t>>
        queues;  // pairs to do, by current-frame index: one shared (split) or one per device
    struct Taken {
        std::int64_t pair = 0;
        Clock::time_point at;
    };
    std::vector<std::deque<Taken>> holding;  // pairs each device has been given and not finished, in order
    std::set<std::int64_t> backed_up;        // split: pairs given to a second device (backup_for)
    std::map<std::int64_t, ScheduledPair> results;  // finished or partly finished pairs, not yet delivered
    std::int64_t last_pair = -1;                    // highest pair index queued so far
    // After a failure under single or mirror: the last pair still worth finishing, the last one
    // every failed device finished (the others finish it too, so that it can be delivered).
    std::int64_t last_wanted = std::numeric_limits<std::int64_t>::max();
    bool reading_done = false;
    bool stopping = false;  // the run is over: workers leave
    std::int64_t next_delivery = 0;
    std::size_t devices_alive = 0;
    std::size_t workers_running = 0;  // not counting abandoned ones
    std::vector<double> rates;        // measured pairs per second of each device; 0: not yet, or failed
    // Each device's first pair's busy time (0: none yet), which rates leave out (a GPU loads its
    // kernels then): for a device on the host's cores, an upper bound worth_taking uses before it
    // is measured.
    std::vector<double> first_pair_seconds;
    std::vector<std::optional<Clock::time_point>> call_started;  // a device call under way since
    std::vector<bool> session_open;  // the device's worker opened its session: out of a call, it waits
    std::vector<bool> abandoned;                                 // hung: left behind, must touch nothing more
    std::exception_ptr failure;  // ends the run once the pairs before it are delivered
    std::vector<std::string> notices;
    // SPEC §8's temporal predictor under split: each finished pair's field, kept while a later pair
    // of its segment may still go to a device that did not compute it (FramePair::previous).
    std::map<std::int64_t, std::shared_ptr<const MotionField>> temporal_fields;

    std::deque<std::int64_t>& queue_of(std::size_t device) {
        return queues.size() == 1 ? queues[0] : queues[device];
    }

    // Split's balance by measured throughput: a device takes the next pair only if it would finish it
    // before the other devices, at their measured rates, would empty the queue without it; otherwise
    // a slow device holding the last pairs would make the job slower than the fast ones alone. A
    // device not measured yet takes one pair, to be measured; but a device on the host's cores takes
    // its second only once the devices off them are measured, and none if its first pair took over 50
    // times their pair time (a CPU beside a GPU: each pair it is measured on costs the GPU's pipeline
    // more than the CPU could add).
    [[nodiscard]] bool worth_taking(std::size_t device) const;
    // Split: whether `device`, measured, leaves `pair` to a device not yet measured that is idle now
    // and would take it. In a host-bound split the queue is mostly empty and the first worker to wake
    // takes each new pair: a measured device with a free slot won most of those races, and on two
    // H200s a GPU was left with 2-3 pairs of a job, never measured, so never given more.
    [[nodiscard]] bool leaves_to_unmeasured(std::size_t device, std::int64_t pair) const;
    // Split: whether `device`, on the host's cores, takes no more pairs for the rest of the run unless
    // another device fails: its first pair took over far_slower_ratio times the fastest measured one's.
    [[nodiscard]] bool left_out(std::size_t device) const;
    // Whether a device taking this long a pair is more than far_slower_ratio (scheduler_worker.cpp)
    // times slower than the fastest measured one: it could add under 2% to a split.
    [[nodiscard]] bool far_slower(double seconds_per_pair) const;
    // Split: the pair that holds delivery back, for an idle `device` to compute too, when another
    // device holds it and this one would finish it sooner than that one is expected to (never measured
    // yet, or slowed down: a CPU beside a GPU). The first result is delivered, the other discarded, so a
    // slow device's pair never stalls the fast ones once they have done the rest of the read-ahead.
    [[nodiscard]] std::optional<std::int64_t> backup_for(std::size_t device, std::int64_t last_submitted,
                                                         Clock::time_point now) const;
    // The host threads `device`'s session may use: the job's (0: all), but for a device on the host's
    // cores beside one that is not (split: a CPU beside a GPU), half the processors: the other half
    // read frames (at most half the cores by default), deliver results and feed the GPU, which a CPU
    // device on every core held back for as long as each of its pairs took.
    [[nodiscard]] int session_threads(std::size_t device) const;
    // SPEC §8: whether `pair` starts a temporal segment (the run's first pair, or every refresh).
    [[nodiscard]] bool segment_start(std::int64_t pair) const;
    // The next pair `device` may take from its queue (its position there), or none. Without the
    // temporal predictor, the front. With it, the first pair that starts a segment, follows the pair
    // this device submitted last, or follows a pair whose field is kept: so a segment stays with one
    // device, whose session holds its previous result, and another device takes it over only with
    // that result in hand (after a failure).
    [[nodiscard]] std::optional<std::size_t> next_for(std::size_t device, std::int64_t last_submitted);
    // Whether `device` may start on `pair` with SPEC §8's temporal predictor: it starts a segment, the
    // device computed the pair before it, or that pair's field is kept.
    [[nodiscard]] bool has_previous(std::int64_t pair, std::int64_t last_submitted) const;
    [[nodiscard]] bool finished() const { return reading_done && next_delivery > last_pair; }
    // Whether the run has nothing more to wait for: every pair delivered, or a failure and every
    // pair still worth finishing delivered (or no device left to finish it).
    [[nodiscard]] bool over() const {
        return finished() || (failure && (next_delivery > last_wanted || devices_alive == 0));
    }
    // A device stopped (failed, or hung and abandoned), with `why`: under split its unfinished pairs
    // go to the others while any is left; otherwise the run ends with `error`. Lock held.
    void device_failed(std::size_t device, const std::string& why, std::exception_ptr error);
    // Abandons every device whose current call has run past the timeout. Lock held.
    void abandon_hung_devices();
    // How long the run's thread waits before looking for hung devices again.
    [[nodiscard]] Clock::duration watch_interval() const;
};

}  // namespace xme
