// xme.Estimator: a stream of frames through the scheduler (the CLI's own), on a thread of its own, so
// that devices work on the next pairs while Python prepares frames and reads fields.
#include <pybind11/eval.h>

#include <condition_variable>
#include <deque>
#include <optional>
#include <thread>

#include "bindings.hpp"
#include "xme/error.hpp"

namespace xme::python {

namespace {

// What the Python side and the scheduler's thread share.
struct Stream {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Frame> input;  // fed, not yet read by the scheduler
    bool input_closed = false;
    bool cancelled = false;
    std::deque<ScheduledPair> output;  // delivered, not yet returned to Python
    std::exception_ptr failure;
    bool done = false;
};

struct Cancelled {};

// Frames fed beyond this wait (the GIL released) until the scheduler reads them: a producer faster than
// the devices holds at most this many frames here, besides the scheduler's own read-ahead.
constexpr std::size_t max_waiting_frames = 2;

class Estimator {
public:
    explicit Estimator(const py::kwargs& keywords) : job_(parse_keywords(keywords, true)) {}
    ~Estimator() { stop(); }
    Estimator(const Estimator&) = delete;
    Estimator& operator=(const Estimator&) = delete;

    py::list feed(const py::handle& array) {
        const OneCall call(*this);
        refuse_if_closed("feed()");
        if (finished_)
            throw Error(ErrorKind::invalid_argument, "this Estimator has finished: make a new one");
        Frame frame = frame_from_array(array, "frame " + std::to_string(frames_fed_));
        if (!scheduler_) start(frame.width(), frame.height());
        if (frame.width() != width_ || frame.height() != height_) {
            throw Error(ErrorKind::invalid_argument,
                        "frame " + std::to_string(frames_fed_) + " is " + std::to_string(frame.width()) +
                            "x" + std::to_string(frame.height()) + " but the stream's frames are " +
                            std::to_string(width_) + "x" + std::to_string(height_));
        }
        wait_for_stream([&] { return stream_->input.size() < max_waiting_frames || stream_->done; });
        refuse_if_closed("feed()");  // by close() from another thread while this one waited
        {
            const std::lock_guard lock(stream_->mutex);
            if (!stream_->done) stream_->input.push_back(std::move(frame));
            stream_->changed.notify_all();
        }
        ++frames_fed_;
        return take_fields(false);
    }

    py::list finish() {
        const OneCall call(*this);
        refuse_if_closed("finish()");
        py::list rest;
        if (finished_) return rest;
        finished_ = true;
        if (!stream_) return rest;
        {
            const py::gil_scoped_release release;
            const std::lock_guard lock(stream_->mutex);
            stream_->input_closed = true;
            stream_->changed.notify_all();
        }
        return take_fields(true);
    }

    [[nodiscard]] py::list devices() const {
        py::list names;
        for (const auto& name : scheduler_ ? device_names_ : job_.devices) names.append(name);
        return names;
    }
    [[nodiscard]] std::string chain() const { return chain_name(job_.session.params); }

    void stop() {
        cancel();
        // Taken with the GIL held, so that of two threads closing it one joins the scheduler's thread.
        std::thread worker = std::move(worker_);
        if (worker.joinable()) {
            const py::gil_scoped_release release;
            worker.join();
        }
    }

private:
    // Closes the stream: the scheduler's thread stops at its next frame or field, dropping the pairs in
    // flight; stop() or the destructor joins it.
    void cancel() {
        closed_ = true;
        finished_ = true;
        if (!stream_) return;
        const std::lock_guard lock(stream_->mutex);
        stream_->cancelled = true;
        stream_->changed.notify_all();
    }

    void refuse_if_closed(const char* call) const {
        if (closed_) {
            throw Error(ErrorKind::invalid_argument,
                        std::string(call) +
                            " on a closed Estimator (close(), a with block's end or Ctrl-C "
                            "closed it, dropping the pairs in flight): make a new one");
        }
    }

    // Waits, the GIL released, until `ready` holds, taking the GIL every signal_check_period to let
    // Python run its signal handlers: one that raises (Ctrl-C: KeyboardInterrupt) closes the Estimator
    // and is raised at once, without waiting for the pairs in flight.
    template <typename Ready>
    void wait_for_stream(Ready ready) {
        for (;;) {
            {
                const py::gil_scoped_release release;
                std::unique_lock lock(stream_->mutex);
                if (stream_->changed.wait_for(lock, signal_check_period, ready)) return;
            }
            if (PyErr_CheckSignals() != 0) {
                cancel();
                throw py::error_already_set();
            }
        }
    }

    // feed and finish release the GIL while they wait: a second Python thread must not enter meanwhile.
    // The flag is read and set with the GIL held.
    class OneCall {
    public:
        explicit OneCall(Estimator& estimator) : estimator_(estimator) {
            if (estimator_.in_call_)
                throw Error(ErrorKind::invalid_argument,
                            "an Estimator is fed by one thread at a time: give each thread its own");
            estimator_.in_call_ = true;
        }
        ~OneCall() { estimator_.in_call_ = false; }
        OneCall(const OneCall&) = delete;
        OneCall& operator=(const OneCall&) = delete;

    private:
        Estimator& estimator_;
    };

    // Opens the devices (a device that cannot run the chain refuses here) and starts the scheduler.
    void start(int width, int height) {
        ScheduleOptions options;
        options.policy = job_.policy;
        options.devices = job_.devices;
        options.session = job_.session;
        options.session.width = width;
        options.session.height = height;
        {
            const py::gil_scoped_release release;
            auto access = registry();
            scheduler_ = std::make_unique<Scheduler>(access.registry, options);
        }
        // Read now: the scheduler's thread updates its device records as it runs.
        for (const auto& device : scheduler_->devices()) device_names_.push_back(device.info.name);
        width_ = width;
        height_ = height;
        stream_ = std::make_shared<Stream>();
        worker_ = std::thread([stream = stream_, scheduler = scheduler_.get()] { run(*stream, *scheduler); });
    }

    static void run(Stream& stream, Scheduler& scheduler) {
        auto next_frame = [&stream]() -> std::optional<Frame> {
            std::unique_lock lock(stream.mutex);
            stream.changed.wait(
                lock, [&] { return !stream.input.empty() || stream.input_closed || stream.cancelled; });
            if (stream.cancelled || stream.input.empty()) return std::nullopt;
            Frame frame = std::move(stream.input.front());
            stream.input.pop_front();
            stream.changed.notify_all();
            return frame;
        };
        auto deliver = [&stream](ScheduledPair&& pair) {
            const std::lock_guard lock(stream.mutex);
            if (stream.cancelled) throw Cancelled{};  // stops the devices
            stream.output.push_back(std::move(pair));
            stream.changed.notify_all();
        };
        try {
            scheduler.run(next_frame, 0, deliver, [](const std::string&) {});
        } catch (const Cancelled&) {
        } catch (...) {
            const std::lock_guard lock(stream.mutex);
            stream.failure = std::current_exception();
        }
        const std::lock_guard lock(stream.mutex);
        stream.done = true;
        stream.changed.notify_all();
    }

    // The fields delivered so far; with `until_done`, every one, waiting for the devices. A device's
    // failure is raised once the fields before it have been returned, and at once by finish().
    py::list take_fields(bool until_done) {
        std::deque<ScheduledPair> pairs;
        std::exception_ptr failure;
        if (until_done) {
            wait_for_stream([&] { return stream_->done; });
            refuse_if_closed("finish()");  // by close() from another thread while this one waited
        }
        {
            const std::lock_guard lock(stream_->mutex);
            const bool had_output = !stream_->output.empty();
            pairs.swap(stream_->output);
            if (stream_->done && (!had_output || until_done)) failure = stream_->failure;
        }
        py::list fields;
        for (auto& pair : pairs) {
            const DeviceResult& result = pair.results.front();
            fields.append(field_arrays(result.result.field, pair.frame, device_names_.at(result.device),
                                       result.result.device_seconds));
        }
        if (failure) {
            finished_ = true;
            std::rethrow_exception(failure);
        }
        return fields;
    }

    JobKeywords job_;
    std::unique_ptr<Scheduler> scheduler_;
    std::vector<std::string> device_names_;
    std::shared_ptr<Stream> stream_;
    std::thread worker_;
    int width_ = 0;
    int height_ = 0;
    std::int64_t frames_fed_ = 0;
    bool finished_ = false;
    bool closed_ = false;  // by close(), __exit__ or an interrupt: every later feed() or finish() raises
    bool in_call_ = false;
};

}  // namespace

void bind_estimator(py::module_& module) {
    const std::string doc = std::string(R"(Estimator(**options): motion estimation over a stream of frames.

feed(frame) queues a 2-D uint8 array (copied) and returns the fields finished so far, in frame order:
the devices keep several pairs in flight, so fields come a few frames after their frames. finish()
returns the rest. run(frames) does both over any iterable (xme.open_video(path), a list of arrays),
yielding each field. Frame i is estimated against frame i - 1, as `xme estimate` does; the temporal
predictor follows the stream. The devices are opened at the first frame (a device that cannot run
the chain refuses there); the GIL is released while waiting for them. Ctrl-C while feed() or finish()
waits raises KeyboardInterrupt at once and closes the Estimator (its pairs in flight are dropped).
devices=["cpu", "vulkan:0"] (policy "split") spreads the pairs over several devices.

)") + keywords_help();
    py::class_<Estimator>(module, "Estimator", doc.c_str())
        .def(py::init<const py::kwargs&>())
        .def("feed", &Estimator::feed, py::arg("frame"),
             "Queues the next frame; returns the fields (xme.Field) finished so far")
        .def("finish", &Estimator::finish, "Ends the stream; returns every field not yet returned")
        .def("close", &Estimator::stop,
             "Stops the devices, dropping what is still in flight; feed() and finish() then raise")
        .def_property_readonly("devices", &Estimator::devices)
        .def_property_readonly("chain", &Estimator::chain, "The chain's name, as fs+hpel")
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](Estimator& self, const py::args&) { self.stop(); });

    // A generator reads best in Python: feed each frame, yield what is finished, then the rest.
    py::dict scope;
    scope["__builtins__"] = py::module_::import("builtins");
    py::exec(R"(
def run(self, frames):
    """Feeds every frame of `frames` and yields each pair's field (xme.Field) in frame order."""
    for frame in frames:
        yield from self.feed(frame)
    yield from self.finish()
)",
             scope);
    module.attr("Estimator").attr("run") = scope["run"];
}

}  // namespace xme::python
