#include "xme/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>
#include <utility>

#include "scheduler_state.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"

namespace xme {

Policy parse_policy(std::string_view name) {
    if (name == "single") return Policy::single;
    if (name == "mirror") return Policy::mirror;
    if (name == "split") return Policy::split;
    throw Error(ErrorKind::invalid_argument,
                "unknown policy '" + std::string(name) + "': use single, mirror or split");
}

namespace {

// Every device at once: a GPU's context takes ~0.1 s to create (H100 machine), which a job over two
// GPUs paid twice, one after the other, before its first pair. The first failure in the list's order
// is the one reported, as when they opened one by one.
std::vector<std::shared_ptr<Device>> open_all(Registry& registry, const ScheduleOptions& options) {
    const std::vector<std::string>& names = options.devices;
    auto open = [&](const std::string& name) -> std::shared_ptr<Device> {
        if (options.open_device) return options.open_device(name);
        return registry.open(name);
    };
    std::vector<std::shared_ptr<Device>> devices(names.size());
    if (names.size() == 1) {
        devices.front() = open(names.front());
        return devices;
    }
    static_cast<void>(registry.devices());  // listed here, so that the threads below only read the list
    std::vector<std::exception_ptr> failures(names.size());
    {
        std::vector<std::jthread> openers;
        for (std::size_t i = 0; i < names.size(); ++i) {
            openers.emplace_back([&, i] {
                try {
                    devices[i] = open(names[i]);
                } catch (...) {
                    failures[i] = std::current_exception();
                }
            });
        }
    }
    for (const std::exception_ptr& failure : failures) {
        if (failure) std::rethrow_exception(failure);
    }
    return devices;
}

// The devices that compute on the host's cores, "a and b" or "a, b and c", when there are two or more
// (dev machine: split over cpu and lavapipe took 0.34 s where cpu alone took 0.10-0.15 s, 31 pairs:
// lavapipe's one measured pair held both cores while the CPU backend computed).
std::string host_core_devices(const std::vector<ScheduledDevice>& devices) {
    std::vector<std::string> names;
    for (const ScheduledDevice& device : devices) {
        if (device.info.on_host_cores) names.push_back(device.info.name);
    }
    if (names.size() < 2) return {};
    std::string text = names.front();
    for (std::size_t i = 1; i < names.size(); ++i)
        text += (i + 1 == names.size() ? " and " : ", ") + names[i];
    return text;
}

}  // namespace

std::string_view to_string(Policy policy) {
    switch (policy) {
        case Policy::single:
            return "single";
        case Policy::mirror:
            return "mirror";
        case Policy::split:
            return "split";
    }
    return "?";
}

Scheduler::Scheduler(Registry& registry, const ScheduleOptions& options) : options_(options) {
    if (options.devices.empty()) throw Error(ErrorKind::invalid_argument, "no device given to schedule on");
    int& in_flight = options_.pairs_in_flight;
    if (in_flight < 0) {
        throw Error(
            ErrorKind::invalid_argument,
            std::to_string(in_flight) + " pairs in flight per device: expected 0 (automatic) or more");
    }
    if (in_flight == 0) in_flight = 3;
    if (options.policy == Policy::single && options.devices.size() != 1) {
        throw Error(ErrorKind::invalid_argument,
                    "policy single takes one device; use mirror or split for several");
    }
    std::string offered;  // each device's variants, for the message when none has the one asked for
    bool variant_found = options.session.variant.empty();
    for (std::shared_ptr<Device>& device : open_all(registry, options)) {
        if (!device) throw Error(ErrorKind::device, "no device was opened for this job");
        for (const auto& earlier : devices_) {
            if (earlier.info.name == device->info().name) {
                throw Error(ErrorKind::invalid_argument,
                            "device " + earlier.info.name + " is given twice: list each device once");
            }
        }
        const auto& variants = device->info().variants;
        const bool has_variant =
            std::find(variants.begin(), variants.end(), options.session.variant) != variants.end();
        variant_found = variant_found || has_variant;
        std::string listed;
        for (const auto& variant : variants) listed += (listed.empty() ? "" : ", ") + variant;
        offered += (offered.empty() ? "" : "; ") + device->info().name + ": " + listed;
        ScheduledDevice scheduled;
        scheduled.info = device->info();
        scheduled.variant = has_variant || variants.empty() ? options.session.variant : variants.front();
        devices_.push_back(std::move(scheduled));
        opened_.push_back(std::move(device));
    }
    if (!variant_found && devices_.size() == 1) {
        throw Error(ErrorKind::invalid_argument,
                    "device " + devices_.front().info.name + " has no variant '" + options.session.variant +
                        "': use one of " + offered.substr(offered.find(": ") + 2));
    }
    if (!variant_found) {
        throw Error(ErrorKind::invalid_argument, "none of the devices has the variant '" +
                                                     options.session.variant +
                                                     "'; their variants: " + offered);
    }
    // Asked before any work: a device that cannot run the chain refuses the job at once.
    for (std::size_t i = 0; i < devices_.size(); ++i) {
        SessionOptions session = options.session;
        session.variant = devices_[i].variant;
        devices_[i].support = opened_[i]->supports(session);
        require_supported(devices_[i].support);
    }
}

Scheduler::~Scheduler() = default;

std::shared_ptr<PlaneMemory> Scheduler::plane_memory() const {
    for (const std::shared_ptr<Device>& device : opened_) {
        if (std::shared_ptr<PlaneMemory> memory = device->plane_memory()) return memory;
    }
    return nullptr;
}

void Scheduler::run(const std::function<std::optional<Frame>()>& next_frame, std::int64_t first_index,
                    const std::function<void(ScheduledPair&&)>& deliver,
                    const std::function<void(const std::string&)>& notice) {
    host_times_ = {};
    using Clock = std::chrono::steady_clock;
    auto seconds_since = [](Clock::time_point start) {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    auto timed_next_frame = [&] {
        const auto start = Clock::now();
        std::optional<Frame> frame = next_frame();
        host_times_.read_seconds += seconds_since(start);
        return frame;
    };
    std::optional<Frame> first = timed_next_frame();
    if (!first) return;
    const auto owner = std::make_shared<Shared>();
    Shared& shared = *owner;
    shared.options = options_;
    shared.opened = opened_;
    shared.devices = devices_;
    shared.first_index = first_index;
    shared.frames[first_index] = std::make_shared<const Frame>(std::move(*first));
    shared.queues.resize(options_.policy == Policy::mirror ? devices_.size() : 1);
    shared.holding.resize(devices_.size());
    shared.next_delivery = first_index + 1;
    shared.last_pair = first_index;
    shared.devices_alive = devices_.size();
    shared.workers_running = devices_.size();
    shared.rates.assign(devices_.size(), 0.0);
    shared.first_pair_seconds.assign(devices_.size(), 0.0);
    shared.call_started.resize(devices_.size());
    shared.session_open.assign(devices_.size(), false);
    shared.abandoned.assign(devices_.size(), false);
    if (options_.policy == Policy::split) {
        if (const std::string sharing = host_core_devices(devices_); !sharing.empty()) {
            shared.notices.push_back(sharing +
                                     " compute on the same CPU cores: under split they compete for them, and "
                                     "the job may take longer than on the faster one alone");
        }
    }
    const std::size_t expected_results = options_.policy == Policy::mirror ? devices_.size() : 1;
    // Frames read ahead: enough to keep every device busy (its pairs in flight, and as many again
    // queued under split) and no more. More frames in flight are colder in the caches when a device
    // uploads them and delivery measures them: on the H100 machine a window of 128 1080p frames took a
    // job 1.2-1.5x the time of 6 (docs/scheduler.md, "Pairs in flight and the read-ahead window"). Under
    // split a slow device's pair does not hold the fast ones back for long either way: once idle, they
    // compute it too (backup_for).
    const auto in_flight = static_cast<std::int64_t>(devices_.size()) * options_.pairs_in_flight;
    const std::int64_t window = options_.policy == Policy::split ? 4 * in_flight : 2 * in_flight + 2;

    std::vector<std::thread> workers;
    for (std::size_t i = 0; i < devices_.size(); ++i) workers.emplace_back([owner, i] { work(i, *owner); });

    std::exception_ptr reader_failure;
    std::exception_ptr caller_failure;  // from deliver or notice (an output not writable), or our own
    std::unique_lock lock(shared.mutex);
    // Waits for a change, then abandons the devices hung meanwhile (the reader's and the delivery
    // thread's waits both watch them).
    auto wait = [&](std::unique_lock<std::mutex>& held) {
        shared.changed.wait_for(held, shared.watch_interval());
        shared.abandon_hung_devices();
    };
    // Delivers, in order, every pair that is complete; the caller holds the lock.
    auto deliver_ready = [&](std::unique_lock<std::mutex>& held) {
        for (;;) {
            for (const auto& text : shared.notices) {
                held.unlock();
                notice(text);
                held.lock();
            }
            shared.notices.clear();
            auto it = shared.results.find(shared.next_delivery);
            if (it == shared.results.end() || it->second.results.size() < expected_results) return;
            ScheduledPair pair = std::move(it->second);
            shared.results.erase(it);
            pair.reference = shared.frames.at(pair.frame - 1);
            pair.current = shared.frames.at(pair.frame);
            pair.segment_start = shared.segment_start(pair.frame);
            std::sort(pair.results.begin(), pair.results.end(),
                      [](const DeviceResult& a, const DeviceResult& b) { return a.device < b.device; });
            shared.frames.erase(pair.frame - 1);  // no later pair needs it
            ++shared.next_delivery;
            shared.changed.notify_all();
            held.unlock();
            const auto deliver_start = Clock::now();
            deliver(std::move(pair));
            host_times_.deliver_seconds += seconds_since(deliver_start);
            held.lock();
        }
    };
    // The delivery thread: until the run is over or stopped, or deliver or notice throws (then the
    // reader stops too). It also watches for hung devices while the reader waits in next_frame.
    bool delivery_failed = false;
    std::thread delivery([&] {
        std::unique_lock held(shared.mutex);
        try {
            for (deliver_ready(held); !shared.over() && !shared.stopping; deliver_ready(held)) wait(held);
        } catch (...) {
            if (!held.owns_lock()) held.lock();
            caller_failure = std::current_exception();
            delivery_failed = true;
            shared.changed.notify_all();
        }
    });
    try {
        while (!shared.reading_done && !shared.failure && !delivery_failed) {
            if (shared.last_pair - shared.next_delivery + 1 >= window) {
                wait(lock);
                continue;
            }
            lock.unlock();
            std::optional<Frame> frame;
            try {
                frame = timed_next_frame();
            } catch (...) {
                reader_failure = std::current_exception();
            }
            lock.lock();
            if (!frame) break;
            const std::int64_t pair = ++shared.last_pair;
            shared.frames[pair] = std::make_shared<const Frame>(std::move(*frame));
            for (auto& queue : shared.queues) queue.push_back(pair);
            shared.changed.notify_all();
        }
    } catch (...) {
        if (!lock.owns_lock()) lock.lock();
        if (!caller_failure) caller_failure = std::current_exception();
        delivery_failed = true;  // our own failure (memory): the delivery thread stops too
    }
    shared.reading_done = true;
    shared.changed.notify_all();
    // The delivery thread ends once every pair is delivered, a failure ends the run, or it failed.
    while (!delivery_failed && !shared.over()) wait(lock);
    shared.stopping = true;
    shared.changed.notify_all();
    shared.left_out_changed.notify_all();
    lock.unlock();
    delivery.join();
    lock.lock();
    // Every worker leaves: those inside a device call when it returns, or, past the timeout, not
    // at all (they are abandoned and left behind).
    while (shared.workers_running > 0) wait(lock);
    for (std::size_t i = 0; i < shared.devices.size(); ++i)
        shared.devices[i].measured_pairs_per_second = shared.rates[i];
    devices_ = shared.devices;
    const std::exception_ptr device_failure = shared.failure;
    const std::vector<bool> abandoned = shared.abandoned;
    // A device that failed after its pairs were delivered (its last one computed as a backup by
    // another device, then abandoned as hung) still says so.
    const std::vector<std::string> late_notices = std::exchange(shared.notices, {});
    lock.unlock();
    try {
        for (const std::string& text : late_notices) notice(text);
    } catch (...) {
        if (!caller_failure) caller_failure = std::current_exception();
    }
    for (std::size_t i = 0; i < workers.size(); ++i) {
        if (abandoned[i]) {
            workers[i].detach();
        } else {
            workers[i].join();
        }
    }
    if (caller_failure) std::rethrow_exception(caller_failure);
    if (device_failure) std::rethrow_exception(device_failure);
    if (reader_failure) std::rethrow_exception(reader_failure);
}

}  // namespace xme
