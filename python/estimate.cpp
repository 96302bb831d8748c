// xme.estimate(): one frame pair on a device opened once per process and name.
#include <condition_variable>
#include <map>
#include <optional>
#include <thread>
#include <vector>

#include "bindings.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"

namespace xme::python {

namespace {

std::mutex cache_mutex;
std::map<std::string, std::shared_ptr<CachedDevice>> device_cache;  // guarded by cache_mutex

// One estimate() call's input and result, kept alive by run_interruptibly while its work runs.
struct EstimateCall {
    std::string device;
    PairInput pair;
    MotionField field;
    std::string device_name;
};

FieldArrays estimate(const py::handle& reference_array, const py::handle& current_array,
                     const py::kwargs& keywords) {
    const JobKeywords job = parse_keywords(keywords, false);
    const auto call = std::make_shared<EstimateCall>(
        EstimateCall{job.devices.front(), pair_input(reference_array, current_array, job.session), {}, {}});
    // Opening a GPU and searching take no Python objects: they run without the GIL, interruptibly.
    run_interruptibly(
        [&call = *call](const std::atomic<bool>& stop) {
            const std::shared_ptr<CachedDevice> cached = cached_device(call.device);
            const std::lock_guard lock(cached->busy);  // an interrupted call's pair may still run on it
            if (stop) return;
            require_supported(cached->device->supports(call.pair.session));
            call.field = estimate_pair(*cached->device, call.pair.session, call.pair.reference.view,
                                       call.pair.current.view);
            call.device_name = cached->device->info().name;
        },
        call);
    return field_arrays(call->field, 1, call->device_name, 0);
}

// A call's work on its own thread, and whether it has ended.
struct Work {
    std::mutex mutex;
    std::condition_variable ended_changed;
    bool ended = false;  // guarded by mutex
    std::exception_ptr failure;
    std::atomic<bool> stop = false;
    std::thread thread;
    std::shared_ptr<void> keep;
};

// Work whose call was interrupted, still running or not yet joined; guarded by the GIL.
std::vector<std::shared_ptr<Work>> interrupted_work;

// Joins the interrupted work that has ended (every piece with `wait`) and releases what it kept. The
// list is taken first: another Python thread may run while this one waits without the GIL.
void reap_interrupted_work(bool wait) {
    std::vector<std::shared_ptr<Work>> pieces;
    pieces.swap(interrupted_work);
    for (auto& work : pieces) {
        bool ended = false;
        {
            const std::lock_guard lock(work->mutex);
            ended = work->ended;
        }
        if (!ended && !wait) {
            interrupted_work.push_back(std::move(work));
            continue;
        }
        {
            const py::gil_scoped_release release;
            work->thread.join();
        }
        work.reset();  // its arrays are released with the GIL held
    }
}

}  // namespace

void run_interruptibly(std::function<void(const std::atomic<bool>& stop)> work, std::shared_ptr<void> keep,
                       OnSignal on_signal) {
    reap_interrupted_work(false);
    auto running = std::make_shared<Work>();
    // The thread reads the Work through a plain pointer: the Work is joined before it is destroyed.
    running->thread = std::thread([&state = *running, work = std::move(work)] {
        std::exception_ptr failure;
        try {
            work(state.stop);
        } catch (...) {
            failure = std::current_exception();
        }
        const std::lock_guard lock(state.mutex);
        state.failure = failure;
        state.ended = true;
        state.ended_changed.notify_all();
    });
    std::optional<py::error_already_set> signalled;  // OnSignal::wait: raised once the work has ended
    for (;;) {
        {
            const py::gil_scoped_release release;
            std::unique_lock lock(running->mutex);
            if (running->ended_changed.wait_for(lock, signal_check_period, [&] { return running->ended; }))
                break;
        }
        if (!signalled && PyErr_CheckSignals() != 0) {
            running->stop = true;
            if (on_signal == OnSignal::wait) {
                signalled.emplace();  // takes the exception (KeyboardInterrupt) until the work has ended
                continue;
            }
            running->keep = std::move(keep);
            interrupted_work.push_back(std::move(running));
            throw py::error_already_set();
        }
    }
    {
        const py::gil_scoped_release release;
        running->thread.join();
    }
    if (signalled) throw std::move(*signalled);
    if (running->failure) std::rethrow_exception(running->failure);
}

void finish_interrupted_work() { reap_interrupted_work(true); }

std::shared_ptr<CachedDevice> cached_device(const std::string& name) {
    const std::lock_guard lock(cache_mutex);
    auto& entry = device_cache[name];
    if (!entry) {
        auto opened = std::make_shared<CachedDevice>();
        opened->device = registry().registry.open(name);
        entry = std::move(opened);
    }
    return entry;
}

void release_device_cache() {
    const std::lock_guard lock(cache_mutex);
    device_cache.clear();
}

void bind_estimate(py::module_& module) {
    const std::string doc = std::string(R"(estimate(reference, current, **options) -> xme.Field

The motion of `current` against `reference`: two 2-D uint8 arrays (height, width) of one size, in any
strides (viewed in place where each row's samples are adjacent, copied otherwise). The device is opened
on first use and kept for later calls; the GIL is released while it works. Ctrl-C raises
KeyboardInterrupt at once: the device finishes the pair on its own (a later call on it waits for it,
as does the interpreter's exit) and its result is dropped.

)") + keywords_help();
    module.def("estimate", &estimate, doc.c_str(), py::arg("reference"), py::arg("current"));
}

}  // namespace xme::python
