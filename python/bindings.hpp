// Shared by the Python module's files: the process's registry and devices, the options every entry point
// takes (the CLI's), and the conversions between numpy arrays and xme's planes and fields.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "xme/device.hpp"
#include "xme/frame.hpp"
#include "xme/motion_field.hpp"
#include "xme/registry.hpp"
#include "xme/scheduler.hpp"

namespace xme::python {

namespace py = pybind11;

// A Python object's type name, for messages ("... is a list").
[[nodiscard]] std::string type_name(const py::handle& object);

// One registry for the process (listing devices probes drivers once); every use holds the lock.
struct RegistryAccess {
    std::unique_lock<std::mutex> lock;
    Registry& registry;
};
[[nodiscard]] RegistryAccess registry();
// Closes every device and the registry: at interpreter exit, before a GPU driver shuts down.
void release_registry();

// A device opened once for estimate() calls, used by one call at a time.
struct CachedDevice {
    std::mutex busy;
    std::unique_ptr<Device> device;
};
// Opens `name` as Registry::open does, the first time it is asked for.
[[nodiscard]] std::shared_ptr<CachedDevice> cached_device(const std::string& name);
void release_device_cache();

// The keyword options of estimate() and Estimator(): the CLI's `estimate` options, under their names
// without dashes (lambda_ for --lambda, center for --center).
struct JobKeywords {
    std::vector<std::string> devices{"auto"};  // device= (one name) or devices= (several, split)
    Policy policy = Policy::single;
    SessionOptions session;  // params, variant, threads; the size comes with the frames
};
// Throws Error(invalid_argument) naming an unknown keyword, a value of the wrong type, or what the CLI's
// own parser refuses (chain_options.cpp).
[[nodiscard]] JobKeywords parse_keywords(const py::kwargs& keywords, bool several_devices);
// What the docstrings list.
[[nodiscard]] std::string keywords_help();

// A 2-D uint8 array as a plane: viewed in place when each row's samples are adjacent (any row stride),
// copied into `copy` otherwise. `owner` keeps the viewed array alive.
struct PlaneInput {
    PlaneView view;
    Plane copy;
    py::object owner;
};
// `what` names the argument in messages ("reference"). Throws Error(invalid_argument) for anything but a
// 2-D uint8 numpy array of 1..16384 rows and columns.
[[nodiscard]] PlaneInput plane_input(const py::handle& array, const std::string& what);
// A mono Frame holding a copy of the array (the scheduler owns the frames it is given).
[[nodiscard]] Frame frame_from_array(const py::handle& array, const std::string& what);
// The plane as an (height, width) uint8 array that owns its pixels (no copy).
[[nodiscard]] py::array array_from_plane(Plane&& plane);

// One pair's result as Python sees it (xme.Field).
struct FieldArrays {
    std::int64_t frame = 1;  // the current frame's index; the reference is frame - 1
    std::string device;
    int block_size = 0;
    std::string cost_kind;
    int cost_scale = 1;
    double device_seconds = 0;
    py::array vectors;     // (by, bx, 2) int16: (mv_x, mv_y) in quarter pel
    py::array cost;        // (by, bx) uint32
    py::array candidates;  // (by, bx) uint32
    // SPEC §9 with partitions="all", else None: (by, bx, 41, 2), (by, bx, 41), (by, bx, 41) and the
    // chosen mode's partitions (by, bx, 41) bool, in xme.PARTITIONS' order.
    py::object partition_vectors = py::none();
    py::object partition_cost = py::none();
    py::object partition_candidates = py::none();
    py::object partition_chosen = py::none();
};
[[nodiscard]] FieldArrays field_arrays(const MotionField& field, std::int64_t frame,
                                       const std::string& device, double device_seconds);

// One frame pair's arrays as planes (plane_input), and a job's session options sized to them.
struct PairInput {
    PlaneInput reference;
    PlaneInput current;
    SessionOptions session;
};
// Throws Error(invalid_argument) for an array plane_input refuses, or planes of two sizes.
[[nodiscard]] PairInput pair_input(const py::handle& reference, const py::handle& current,
                                   const SessionOptions& job_session);

// How often a call waiting for C++ work takes the GIL to let Python run its signal handlers.
inline constexpr std::chrono::milliseconds signal_check_period{50};

// Runs `work` on a thread of its own while this thread waits, the GIL released, taking it every
// signal_check_period to check for signals (Python runs its handlers only in the main thread, and
// only when C++ code returns to it or calls PyErr_CheckSignals). A signal whose handler raises
// (Ctrl-C: KeyboardInterrupt) is raised at once: `stop` is then set, for work that can stop between
// its steps (devices, pairs), and the work is left to end on its thread; `keep`, what it reads (the
// arrays, the devices), stays alive until it has, and is released with the GIL at the next call or
// at the interpreter's exit, which waits for such work. The work's own exception is rethrown here.
// With OnSignal::wait the call instead sets `stop` and waits for the work to end before raising (a whole
// job, whose outputs must end whole before the caller goes on).
enum class OnSignal { leave_running, wait };
void run_interruptibly(std::function<void(const std::atomic<bool>& stop)> work, std::shared_ptr<void> keep,
                       OnSignal on_signal = OnSignal::leave_running);
// Waits for work left by interrupted calls and releases what it kept: at the interpreter's exit,
// before the devices close.
void finish_interrupted_work();

void bind_field(py::module_& module);
void bind_compare(py::module_& module);
void bind_video(py::module_& module);
void bind_estimate(py::module_& module);
void bind_references(py::module_& module);
void bind_estimator(py::module_& module);
void bind_run_estimate(py::module_& module);
// Closes the devices run_estimate() kept open: at the interpreter's exit, as release_registry().
void release_job_devices();

}  // namespace xme::python
