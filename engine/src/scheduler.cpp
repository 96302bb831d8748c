#include "xme/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "xme/backend.hpp"
#include "xme/error.hpp"

namespace xme {

Policy parse_policy(std::string_view name) {
    if (name == "single") return Policy::single;
    if (name == "mirror") return Policy::mirror;
    if (name == "split") return Policy::split;
    throw Error(ErrorKind::invalid_argument, "unknown policy '" + std::string(name) + "': use single, mirror or split");
}

std::string_view to_string(Policy policy) {
    switch (policy) {
        case Policy::single: return "single";
        case Policy::mirror: return "mirror";
        case Policy::split: return "split";
    }
    return "?";
}

// Everything the reader (run's thread) and the device workers share, under one mutex.
struct Scheduler::Shared {
    std::mutex mutex;
    std::condition_variable changed;
    std::map<std::int64_t, std::shared_ptr<const Frame>> frames;  // read and still needed
    std::vector<std::deque<std::int64_t>> queues;  // pairs to do, by current-frame index: one shared (split) or one per device
    std::map<std::int64_t, ScheduledPair> results;  // finished or partly finished pairs, not yet delivered
    std::int64_t last_pair = -1;                   // highest pair index queued so far
    std::int64_t first_pair = 0;                   // the run's first pair: a temporal segment starts there
    bool reading_done = false;
    std::int64_t next_delivery = 0;
    std::size_t devices_alive = 0;
    std::vector<double> rates;          // measured pairs per second of each device; 0: not yet, or failed
    std::vector<std::size_t> in_flight;  // pairs each device holds
    std::exception_ptr failure;  // ends the run once the pairs before it are delivered
    std::vector<std::string> notices;

    std::deque<std::int64_t>& queue_of(std::size_t device) { return queues.size() == 1 ? queues[0] : queues[device]; }

    // Split's balance by measured throughput: a device takes the next pair only if it would finish it
    // before the other devices, at their measured rates, would empty the queue without it; otherwise
    // a slow device holding the last pairs would make the job slower than the fast ones alone. A
    // device not measured yet takes one pair, to be measured.
    [[nodiscard]] bool worth_taking(std::size_t device) const {
        if (queues.size() != 1 || rates.size() == 1) return true;
        if (rates[device] == 0) return in_flight[device] == 0;
        double others_rate = 0;
        std::size_t others_holding = 0;
        for (std::size_t d = 0; d < rates.size(); ++d) {
            if (d == device) continue;
            others_rate += rates[d];
            others_holding += in_flight[d];
        }
        if (others_rate == 0) return true;
        const double own_finish = static_cast<double>(in_flight[device] + 1) / rates[device];
        const double others_drain = static_cast<double>(queues[0].size() + others_holding) / others_rate;
        return own_finish <= others_drain;
    }
    [[nodiscard]] bool finished() const { return reading_done && next_delivery > last_pair; }
};

Scheduler::Scheduler(Registry& registry, const ScheduleOptions& options) : options_(options) {
    if (options.devices.empty()) throw Error(ErrorKind::invalid_argument, "no device given to schedule on");
    if (options.policy == Policy::single && options.devices.size() != 1) {
        throw Error(ErrorKind::invalid_argument, "policy single takes one device; use mirror or split for several");
    }
    // Split hands pairs to whichever device has room, so a pair's temporal predictor may still be in
    // another device's hands; handing out whole segments is the next step (docs/scheduler-notes.md).
    if (options.policy == Policy::split && options.session.params.predictor == Predictor::temporal) {
        throw Error(ErrorKind::unsupported,
                    "--policy split does not run the temporal predictor yet: use --policy single or mirror");
    }
    for (const auto& name : options.devices) {
        auto device = registry.open(name);
        const auto& variants = device->info().variants;
        const bool has_variant = std::find(variants.begin(), variants.end(), options.session.variant) != variants.end();
        SessionOptions session = options.session;
        session.variant = has_variant ? options.session.variant : variants.front();
        // Asked before any work: a device that cannot run the chain refuses the job at once.
        const Support support = device->supports(session);
        require_supported(support);
        devices_.push_back({device->info(), session.variant, support, 0, std::nullopt});
        opened_.push_back(std::move(device));
    }
}

Scheduler::~Scheduler() = default;

void Scheduler::work(std::size_t index, Shared& shared) {
    std::deque<std::int64_t> in_flight;  // submitted, result not yet received
    std::optional<std::int64_t> refused;  // taken from the queue, but the device refused it
    std::unique_ptr<MotionSession> session;
    // The device's busy time: each pair from when the device could start on it (its submission, or
    // the previous result, whichever is later) to its result. Waiting for frames is not counted.
    using Clock = std::chrono::steady_clock;
    std::deque<Clock::time_point> submitted;
    Clock::time_point last_result{};
    double busy_seconds = 0;
    // Called with the lock held.
    auto record = [&](PairResult&& result) {
        const std::int64_t pair = in_flight.front();
        in_flight.pop_front();
        ScheduledPair& slot = shared.results[pair];
        slot.frame = pair;
        slot.results.push_back({index, std::move(result)});
        ++devices_[index].pairs_done;
        shared.in_flight[index] = in_flight.size();
        const auto now = Clock::now();
        busy_seconds += std::chrono::duration<double>(now - std::max(submitted.front(), last_result)).count();
        submitted.pop_front();
        last_result = now;
        shared.rates[index] = static_cast<double>(devices_[index].pairs_done) / std::max(busy_seconds, 1e-9);
        shared.changed.notify_all();
    };
    try {
        SessionOptions options = options_.session;
        options.variant = devices_[index].variant;
        session = opened_[index]->open_session(options);
        std::unique_lock lock(shared.mutex);
        while (!shared.finished() && !shared.failure) {
            auto& queue = shared.queue_of(index);
            // Top up the device with pairs whose frames have been read.
            while (static_cast<int>(in_flight.size()) < options_.pairs_in_flight && !queue.empty() &&
                   shared.worth_taking(index)) {
                const std::int64_t pair = queue.front();
                queue.pop_front();
                const auto reference = shared.frames.at(pair - 1);
                const auto current = shared.frames.at(pair);
                lock.unlock();
                submitted.push_back(Clock::now());
                try {
                    FramePair frame_pair{pair - 1, reference->luma.view(), pair, current->luma.view()};
                    // SPEC §8: under single and mirror each session sees every pair in order, so the
                    // temporal predictor is the result it computed last, except at a segment's start.
                    const std::int64_t refresh = options_.session.params.refresh;
                    const std::int64_t pair_index = pair - shared.first_pair;
                    frame_pair.segment_start = refresh > 0 ? pair_index % refresh == 0 : pair_index == 0;
                    session->submit(frame_pair);
                } catch (...) {
                    refused = pair;
                    submitted.pop_back();
                    throw;
                }
                lock.lock();
                in_flight.push_back(pair);
                shared.in_flight[index] = in_flight.size();
            }
            if (in_flight.empty()) {
                shared.changed.wait(lock);
                continue;
            }
            lock.unlock();
            PairResult result = session->receive();
            lock.lock();
            record(std::move(result));
        }
    } catch (...) {
        const std::exception_ptr error = std::current_exception();
        // Pairs the device finished before it failed still count: collect them first.
        while (session && refused && !in_flight.empty()) {
            try {
                PairResult result = session->receive();
                std::lock_guard lock(shared.mutex);
                record(std::move(result));
            } catch (...) {
                break;
            }
        }
        if (refused) in_flight.push_back(*refused);
        std::lock_guard lock(shared.mutex);
        std::string what = "unknown error";
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        devices_[index].failure = what;
        --shared.devices_alive;
        shared.rates[index] = 0;
        shared.in_flight[index] = 0;
        if (options_.policy == Policy::split && shared.devices_alive > 0) {
            // Its unfinished pairs go back to the front of the shared queue, for the others.
            auto& queue = shared.queues[0];
            queue.insert(queue.begin(), in_flight.begin(), in_flight.end());
            std::sort(queue.begin(), queue.end());
            shared.notices.push_back("device " + devices_[index].info.name + " failed: " + what + "; its " +
                                     std::to_string(in_flight.size()) + " unfinished frame pair(s) go to the other devices");
        } else if (!shared.failure) {
            shared.failure = error;
        }
        shared.changed.notify_all();
    }
}

void Scheduler::run(const std::function<std::optional<Frame>()>& next_frame, std::int64_t first_index,
                    const std::function<void(ScheduledPair&&)>& deliver, const std::function<void(const std::string&)>& notice) {
    std::optional<Frame> first = next_frame();
    if (!first) return;
    Shared shared;
    shared.frames[first_index] = std::make_shared<const Frame>(std::move(*first));
    shared.queues.resize(options_.policy == Policy::mirror ? devices_.size() : 1);
    shared.next_delivery = first_index + 1;
    shared.first_pair = first_index + 1;
    shared.last_pair = first_index;
    shared.devices_alive = devices_.size();
    shared.rates.assign(devices_.size(), 0.0);
    shared.in_flight.assign(devices_.size(), 0);
    const std::size_t expected_results = options_.policy == Policy::mirror ? devices_.size() : 1;
    // Frames read ahead. Results are delivered in order, so while a slow device holds one pair, the
    // fast ones go on only as far as the read-ahead reaches: it must cover what they do meanwhile
    // (on the H100, CUDA does ~10 pairs of 1080p while the CPU does one). A memory budget bounds
    // it, so that a long video is never held whole.
    constexpr std::int64_t read_ahead_bytes = std::int64_t{512} << 20;
    const std::int64_t frame_bytes = std::max<std::int64_t>(1, static_cast<std::int64_t>(shared.frames.begin()->second->luma.size_bytes()) * 2);
    const auto minimum = static_cast<std::int64_t>(devices_.size()) * options_.pairs_in_flight * 2 + 2;
    const std::int64_t window = devices_.size() == 1 ? minimum : std::clamp(read_ahead_bytes / frame_bytes, minimum, std::int64_t{256});

    std::vector<std::thread> workers;
    for (std::size_t i = 0; i < devices_.size(); ++i) workers.emplace_back([this, i, &shared] { work(i, shared); });

    std::exception_ptr reader_failure;
    std::unique_lock lock(shared.mutex);
    // Delivers, in order, every pair that is complete; the caller holds the lock.
    auto deliver_ready = [&] {
        for (;;) {
            for (const auto& text : shared.notices) {
                lock.unlock();
                notice(text);
                lock.lock();
            }
            shared.notices.clear();
            auto it = shared.results.find(shared.next_delivery);
            if (it == shared.results.end() || it->second.results.size() < expected_results) return;
            ScheduledPair pair = std::move(it->second);
            shared.results.erase(it);
            pair.reference = shared.frames.at(pair.frame - 1);
            pair.current = shared.frames.at(pair.frame);
            std::sort(pair.results.begin(), pair.results.end(),
                      [](const DeviceResult& a, const DeviceResult& b) { return a.device < b.device; });
            shared.frames.erase(pair.frame - 1);  // no later pair needs it
            ++shared.next_delivery;
            shared.changed.notify_all();
            lock.unlock();
            deliver(std::move(pair));
            lock.lock();
        }
    };
    while (!shared.reading_done && !shared.failure) {
        deliver_ready();
        if (shared.last_pair - shared.next_delivery + 1 >= window) {
            shared.changed.wait(lock);
            continue;
        }
        lock.unlock();
        std::optional<Frame> frame;
        try {
            frame = next_frame();
        } catch (...) {
            reader_failure = std::current_exception();
        }
        lock.lock();
        if (!frame) {
            shared.reading_done = true;
            break;
        }
        const std::int64_t pair = ++shared.last_pair;
        shared.frames[pair] = std::make_shared<const Frame>(std::move(*frame));
        for (auto& queue : shared.queues) queue.push_back(pair);
        shared.changed.notify_all();
    }
    shared.reading_done = true;
    shared.changed.notify_all();
    while (!shared.finished() && !shared.failure) {
        deliver_ready();
        if (!shared.finished() && !shared.failure) shared.changed.wait(lock);
    }
    deliver_ready();  // pairs finished before a failure are still delivered
    const std::exception_ptr device_failure = shared.failure;
    if (!shared.failure) shared.failure = std::make_exception_ptr(0);  // wakes idle workers to stop
    shared.changed.notify_all();
    lock.unlock();
    for (auto& worker : workers) worker.join();
    if (device_failure) std::rethrow_exception(device_failure);
    if (reader_failure) std::rethrow_exception(reader_failure);
}

}  // namespace xme
