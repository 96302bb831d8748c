// The scheduler's device side: each device's worker thread, what happens when a device fails, and
// the watchdog that abandons a device whose call never returns.
#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <thread>

#include "scheduler_state.hpp"
#include "xme/error.hpp"
#include "xme/operations.hpp"

namespace xme {
namespace {

std::string describe(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
    }
    return "unknown error";
}

// A device's rate, in pairs per second, from its latest pairs' busy times; 0 (not yet measured: it
// takes one pair at a time, and an idle device backs up the pairs it holds) until there are
// min_rated_pairs. The first pair is never among them: it carries the session's one-time costs (CUDA
// loads its kernels at their first launch: ~15 ms on the H100 machine against 0.09 ms a 1080p pair),
// which made a GPU look 100 times slower than it is. The median, not the mean: one slow pair among
// the first few (two H200s: a GPU of a split computed 1 to 4 of 7,679 pairs in 5 of 12 jobs) rated
// a device so slow that it was never given another pair, so never measured again.
constexpr std::size_t rate_window = 8;
constexpr std::size_t min_rated_pairs = 3;

double rate_of(const std::deque<double>& recent_seconds) {
    if (recent_seconds.size() < min_rated_pairs) return 0;
    std::array<double, rate_window> sorted{};  // per result: no allocation
    const auto end = std::copy(recent_seconds.begin(), recent_seconds.end(), sorted.begin());
    const auto middle = sorted.begin() + (end - sorted.begin()) / 2;
    std::nth_element(sorted.begin(), middle, end);
    return 1 / std::max(*middle, 1e-9);
}

// A device left idle under split because its rate said it was too slow is measured again (its rate
// forgotten: it takes pairs one at a time, and idle devices back them up) once it has been idle this
// long, then after twice as long each time. A rate comes from a few pairs, and on two H200s 1 in 6
// splits left a GPU whose first pairs had run slow (its clocks still rising) with 1-4 of 7,679 pairs.
constexpr double first_remeasure_seconds = 0.1;
// A device more than this many times slower than the fastest measured one would add under 2% to a
// split: it is not measured again after idling, and one on the host's cores takes no pair after a first
// that slow. Each pair a CPU beside a GPU (~70-160 times slower at 1080p) computed held cores that the
// GPU's reader, delivery and worker needed: such splits ran at 0.69-0.90x of the GPU alone on two
// H200s' host, 0.81-0.84x while the CPU was measured again (docs/scheduler.md, "Split: who takes a pair").
constexpr double far_slower_ratio = 50;

std::string seconds_text(double seconds) {
    std::string text = std::to_string(seconds);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
    return text;
}

}  // namespace

bool Scheduler::Shared::far_slower(double seconds_per_pair) const {
    return *std::max_element(rates.begin(), rates.end()) * seconds_per_pair > far_slower_ratio;
}

bool Scheduler::Shared::left_out(std::size_t device) const {
    const double first = first_pair_seconds[device];
    return queues.size() == 1 && rates.size() > 1 && devices[device].info.on_host_cores && first > 0 &&
           rates[device] == 0 && far_slower(first);
}

bool Scheduler::Shared::worth_taking(std::size_t device) const {
    if (queues.size() != 1 || rates.size() == 1) return true;
    if (rates[device] == 0) {
        if (left_out(device)) return false;
        if (devices[device].info.on_host_cores && first_pair_seconds[device] > 0) {
            // After its first pair, a device on the host's cores waits until the devices off them are
            // measured (a GPU within ~20 ms), then takes more only if its first was not over 50x theirs.
            for (std::size_t d = 0; d < devices.size(); ++d) {
                if (!devices[d].info.on_host_cores && !devices[d].failure && rates[d] == 0) return false;
            }
        }
        return holding[device].empty();
    }
    double others_rate = 0;
    std::size_t others_holding = 0;
    for (std::size_t d = 0; d < rates.size(); ++d) {
        if (d == device) continue;
        others_rate += rates[d];
        others_holding += holding[d].size();
    }
    if (others_rate == 0) return true;
    const double own_finish = static_cast<double>(holding[device].size() + 1) / rates[device];
    const double others_drain = static_cast<double>(queues[0].size() + others_holding) / others_rate;
    // No margin on either side: then the fastest idle device always takes the next pair (1 / its rate
    // <= queue / the others' rate for a queue of one), and some device always does. A margin made two
    // equal devices each leave the last pair to the other.
    return own_finish <= others_drain;
}

bool Scheduler::Shared::leaves_to_unmeasured(std::size_t device, std::int64_t pair) const {
    if (queues.size() != 1 || rates[device] == 0) return false;
    // With the previous field read (SPEC §8's temporal predictor) only a pair any device may start: another would not take the rest of
    // this device's segment, and the pair would wait.
    const bool anyone_may_start = !needs_previous_field(options.session.params) ||
                                  segment_start(pair) || temporal_fields.contains(pair - 1);
    if (!anyone_may_start) return false;
    for (std::size_t d = 0; d < rates.size(); ++d) {
        // Out of a call with its session open, it is waiting: it takes the pair when it wakes.
        const bool idle =
            session_open[d] && holding[d].empty() && !call_started[d] && !abandoned[d] && !devices[d].failure;
        if (d != device && rates[d] == 0 && idle && worth_taking(d)) return true;
    }
    return false;
}

int Scheduler::Shared::session_threads(std::size_t device) const {
    const int threads = options.session.threads;
    if (threads != 0 || options.policy != Policy::split || !devices[device].info.on_host_cores)
        return threads;
    const bool beside_off_host = std::any_of(devices.begin(), devices.end(),
                                             [](const ScheduledDevice& d) { return !d.info.on_host_cores; });
    if (!beside_off_host) return threads;
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
}

bool Scheduler::Shared::segment_start(std::int64_t pair) const {
    const std::int64_t refresh = options.session.params.refresh;
    const std::int64_t pair_index = pair - (first_index + 1);
    return refresh > 0 ? pair_index % refresh == 0 : pair_index == 0;
}

std::optional<std::size_t> Scheduler::Shared::next_for(std::size_t device, std::int64_t last_submitted) {
    const auto& queue = queue_of(device);
    if (queue.empty() || queue.front() > last_wanted) return std::nullopt;
    if (!needs_previous_field(options.session.params) || queues.size() != 1) return 0;
    for (std::size_t i = 0; i < queue.size() && queue[i] <= last_wanted; ++i) {
        if (has_previous(queue[i], last_submitted)) return i;
    }
    return std::nullopt;
}

bool Scheduler::Shared::has_previous(std::int64_t pair, std::int64_t last_submitted) const {
    return !needs_previous_field(options.session.params) || segment_start(pair) ||
           pair - 1 == last_submitted || temporal_fields.contains(pair - 1);
}

std::optional<std::int64_t> Scheduler::Shared::backup_for(std::size_t device, std::int64_t last_submitted,
                                                          Clock::time_point now) const {
    const std::int64_t head = next_delivery;
    if (queues.size() != 1 || rates[device] == 0 || head > last_pair || head > last_wanted ||
        results.contains(head) || backed_up.contains(head) || !has_previous(head, last_submitted))
        return std::nullopt;
    for (std::size_t d = 0; d < holding.size(); ++d) {
        const auto& held = holding[d];
        const auto it =
            std::find_if(held.begin(), held.end(), [&](const Taken& t) { return t.pair == head; });
        if (d == device || it == held.end()) continue;
        if (rates[d] == 0) return head;  // not measured yet: its first pairs may take any time
        const double holder_left = static_cast<double>(it - held.begin() + 1) / rates[d] -
                                   std::chrono::duration<double>(now - held.front().at).count();
        return 1 / rates[device] < holder_left ? std::optional(head) : std::nullopt;
    }
    return std::nullopt;
}

void Scheduler::Shared::device_failed(std::size_t device, const std::string& why, std::exception_ptr error) {
    devices[device].failure = why;
    --devices_alive;
    rates[device] = 0;
    auto& unfinished = holding[device];
    if (options.policy == Policy::split && devices_alive > 0) {
        // Its unfinished pairs go back to the front of the shared queue, for the others, but for those
        // another device finished as a backup.
        auto& queue = queues[0];
        std::erase_if(unfinished,
                      [&](const Taken& t) { return t.pair < next_delivery || results.contains(t.pair); });
        for (const Taken& t : unfinished) queue.push_back(t.pair);
        std::sort(queue.begin(), queue.end());
        notices.push_back("device " + devices[device].info.name + " failed: " + why +
                          (unfinished.empty() ? "; the other devices finished its pairs"
                                              : "; its " + std::to_string(unfinished.size()) +
                                                    " unfinished frame pair(s) go to the other devices"));
    } else {
        // A device does its pairs in order, so it finished exactly the first pairs_done of them.
        last_wanted = std::min(last_wanted, first_index + devices[device].pairs_done);
        if (!failure) failure = error;
    }
    unfinished.clear();
    changed.notify_all();
    left_out_changed.notify_all();
}

void Scheduler::Shared::abandon_hung_devices() {
    if (options.device_timeout_seconds <= 0) return;
    const auto limit = std::chrono::duration<double>(options.device_timeout_seconds);
    const auto now = Clock::now();
    for (std::size_t d = 0; d < devices.size(); ++d) {
        if (abandoned[d] || !call_started[d] || now - *call_started[d] <= limit) continue;
        abandoned[d] = true;
        --workers_running;
        const std::string why = "no answer from the device in " +
                                seconds_text(options.device_timeout_seconds) +
                                " s; it is taken as hung and abandoned";
        device_failed(
            d, why,
            std::make_exception_ptr(Error(ErrorKind::device, "device " + devices[d].info.name + ": " + why)));
    }
}

Scheduler::Shared::Clock::duration Scheduler::Shared::watch_interval() const {
    using namespace std::chrono_literals;
    if (options.device_timeout_seconds <= 0) return 3600s;
    const auto quarter = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options.device_timeout_seconds / 4));
    return std::clamp<Clock::duration>(quarter, 1ms, 1s);
}

void Scheduler::work(std::size_t index, Shared& shared) {
    using Clock = Shared::Clock;
    // What the device holds: the frames stay alive here until its result is in, whatever the run
    // does meanwhile (it may hand the pair to another device and deliver it).
    struct Held {
        std::int64_t pair = 0;
        std::shared_ptr<const Frame> reference;
        std::shared_ptr<const Frame> current;
        Clock::time_point submitted;
    };
    std::deque<Held> in_flight;
    std::int64_t last_submitted = -2;  // no pair yet
    bool refused = false;              // the last pair in flight was refused by submit
    std::unique_ptr<MotionSession> session;
    // The device's busy time per pair, for each pair after the first: from when the device could start
    // on it (its submission, or the previous result, whichever is later) to its result. Waiting for
    // frames is not counted. The last few are kept for the rate.
    Clock::time_point last_result{};
    std::deque<double> recent_seconds;
    double remeasure_after = first_remeasure_seconds;
    ScheduledDevice& stats = shared.devices[index];
    std::unique_lock lock(shared.mutex);
    // One call into the device, without the lock, watched by the run's thread. False when the run
    // abandoned this device meanwhile: the worker must then leave, touching nothing.
    auto device_call = [&](auto&& call) {
        shared.call_started[index] = Clock::now();
        lock.unlock();
        try {
            call();
        } catch (...) {
            lock.lock();
            shared.call_started[index].reset();
            throw;
        }
        lock.lock();
        shared.call_started[index].reset();
        return !shared.abandoned[index];
    };
    std::int64_t computed = 0;  // pairs_done and the late ones discarded
    auto record = [&](PairResult&& result) {
        const Held held = std::move(in_flight.front());
        in_flight.pop_front();
        shared.holding[index].pop_front();
        ++computed;
        // Split: another device finished it first (one of them computed it as a backup).
        const bool late = shared.options.policy == Policy::split &&
                          (held.pair < shared.next_delivery || shared.results.contains(held.pair));
        if (late) {
            ++stats.pairs_discarded;
        } else if (shared.options.policy == Policy::split &&
                   needs_previous_field(shared.options.session.params)) {
            // Kept until every pair of the read-ahead is past it: fields are small next to frames.
            shared.temporal_fields[held.pair] = std::make_shared<const MotionField>(result.field);
            shared.temporal_fields.erase(shared.temporal_fields.begin(),
                                         shared.temporal_fields.lower_bound(shared.next_delivery - 1));
        }
        if (!late) {
            ScheduledPair& slot = shared.results[held.pair];
            slot.frame = held.pair;
            slot.results.push_back({index, std::move(result)});
            ++stats.pairs_done;
        }
        const auto now = Clock::now();
        if (computed == 1)
            shared.first_pair_seconds[index] = std::chrono::duration<double>(now - held.submitted).count();
        if (computed > 1) {
            recent_seconds.push_back(
                std::chrono::duration<double>(now - std::max(held.submitted, last_result)).count());
            if (recent_seconds.size() > rate_window) recent_seconds.pop_front();
        }
        last_result = now;
        shared.rates[index] = rate_of(recent_seconds);
        shared.changed.notify_all();
    };
    // Gives the device `pair` as its next in flight: false when the run abandoned it meanwhile.
    auto submit = [&](std::int64_t pair) {
        const auto now = Clock::now();
        in_flight.push_back({pair, shared.frames.at(pair - 1), shared.frames.at(pair), now});
        shared.holding[index].push_back({pair, now});
        const Held& held = in_flight.back();
        refused = true;
        FramePair frame_pair{pair - 1, held.reference->luma.view(), pair, held.current->luma.view()};
        // SPEC §8: a session's temporal predictor is the result it computed last, except at a
        // segment's start, or when another device computed the previous pair (split).
        frame_pair.segment_start = shared.segment_start(pair);
        if (!frame_pair.segment_start && pair - 1 != last_submitted) {
            const auto kept = shared.temporal_fields.find(pair - 1);
            if (kept != shared.temporal_fields.end()) frame_pair.previous = kept->second;
        }
        if (!device_call([&] { session->submit(frame_pair); })) return false;
        stats.submit_seconds += std::chrono::duration<double>(Clock::now() - now).count();
        refused = false;
        last_submitted = pair;
        return true;
    };
    try {
        SessionOptions options = shared.options.session;
        options.variant = stats.variant;
        options.threads = shared.session_threads(index);
        if (!device_call([&] { session = open_compensating_session(*shared.opened[index], options); }))
            return;
        shared.session_open[index] = true;
        while (!shared.stopping) {
            auto& queue = shared.queue_of(index);
            // Top up the device with pairs whose frames have been read.
            std::optional<std::size_t> next;
            while (static_cast<int>(in_flight.size()) < shared.options.pairs_in_flight &&
                   (next = shared.next_for(index, last_submitted)) && shared.worth_taking(index) &&
                   !shared.leaves_to_unmeasured(index, queue[*next])) {
                const std::int64_t pair = queue[*next];
                queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(*next));
                if (!submit(pair)) return;
            }
            if (in_flight.empty()) {
                const auto now = Clock::now();
                if (shared.queues.size() == 1 && shared.rates[index] > 0 && !queue.empty() &&
                    std::chrono::duration<double>(now - last_result).count() > remeasure_after &&
                    !shared.far_slower(1 / shared.rates[index])) {
                    recent_seconds.clear();
                    shared.rates[index] = 0;
                    remeasure_after *= 2;
                    continue;
                }
                if (const auto backup = shared.backup_for(index, last_submitted, now)) {
                    shared.backed_up.erase(shared.backed_up.begin(),
                                           shared.backed_up.lower_bound(shared.next_delivery));
                    shared.backed_up.insert(*backup);
                    if (!submit(*backup)) return;
                    continue;
                }
                if (shared.left_out(index)) {  // until another device fails or the run ends
                    shared.left_out_changed.wait(lock);
                    continue;
                }
                // Another device's pair may become worth backing up as time passes, and a pair left
                // to another device (leaves_to_unmeasured) may stay, with nothing to notify: look
                // again soon.
                const bool others_hold = std::any_of(shared.holding.begin(), shared.holding.end(),
                                                     [](const auto& held) { return !held.empty(); });
                if (shared.queues.size() == 1 && (others_hold || !queue.empty())) {
                    shared.changed.wait_for(lock, std::chrono::milliseconds(1));
                } else {
                    shared.changed.wait(lock);
                }
                continue;
            }
            PairResult result;
            const auto receive_start = Clock::now();
            if (!device_call([&] { result = session->receive(); })) return;
            stats.receive_seconds += std::chrono::duration<double>(Clock::now() - receive_start).count();
            record(std::move(result));
        }
    } catch (...) {
        const std::exception_ptr error = std::current_exception();
        if (!lock.owns_lock()) lock.lock();
        if (shared.abandoned[index]) return;
        // Pairs the device finished before it refused one still count: collect them first.
        while (session && refused && in_flight.size() > 1) {
            try {
                PairResult result;
                if (!device_call([&] { result = session->receive(); })) return;
                record(std::move(result));
            } catch (...) {
                break;
            }
        }
        shared.device_failed(index, describe(error), error);
    }
    --shared.workers_running;
    shared.changed.notify_all();
}

}  // namespace xme
