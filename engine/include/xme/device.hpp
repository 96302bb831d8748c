// The abstract device: what a user of xme (and the scheduler) sees of any backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "xme/compensation.hpp"
#include "xme/dct.hpp"
#include "xme/frame.hpp"
#include "xme/motion_field.hpp"
#include "xme/params.hpp"

namespace xme {

struct DeviceInfo {
    std::string name;         // how it is opened: "cpu", "cuda:0", "vulkan:1"
    std::string backend;      // the family: "cpu", "cuda", "vulkan"
    std::string description;  // model, memory, instruction set: one line for people
    bool available = true;
    std::string unavailable_reason;     // when not available: why, and what to do about it
    std::vector<std::string> variants;  // implementation strategies; the first is the default
    // Names variants had before, still accepted for users' scripts: (former name, variant).
    std::vector<std::pair<std::string, std::string>> former_variant_names;
    int preference = 0;  // "best available" opens the available device with the highest value
    // It computes on the host's CPU cores (the CPU backend, the reference, a CPU-type Vulkan device
    // such as lavapipe): two such devices in one split job compete for the same cores.
    bool on_host_cores = false;
};

struct SessionOptions {
    SearchParams params;
    std::string variant;  // empty: the device's default variant
    int threads = 0;      // host threads a device may use; 0: all
    int width = 0;        // frame size of every pair submitted to the session
    int height = 0;
    // SPEC §12-§13 after each pair's search, into PairResult::compensation; nothing when empty.
    std::optional<CompensationRequest> compensation{};
    // The frames the session keeps resident by id (uploaded and prepared once, the least recently used
    // given up first): 2 for consecutive pairs; SPEC §14's runs keep every frame their references span
    // (ReferenceOptions::resident_frames). Sessions check it with resident_frame_count().
    int resident_frames = 2;
};

inline constexpr int max_resident_frames = 34;  // SPEC §14: 16 past, the current frame, 16 future, 1 spare

// A device's answer, before a job, to "can you run this chain with this variant?" (ggml's
// supports_op). A device that can says how its results are checked (SPEC §6).
struct Support {
    bool supported = true;
    std::string reason;  // when not supported: what is missing, named for people
    // SPEC §6: how far the reference cost of each of its vectors may exceed the reference cost of the
    // reference's vector, in the result's cost units; 0: bit-exact (vectors and costs identical).
    std::uint32_t tolerance = 0;

    [[nodiscard]] static Support yes(std::uint32_t tolerance = 0) { return {true, {}, tolerance}; }
    [[nodiscard]] static Support no(std::string reason) { return {false, std::move(reason), 0}; }
};

// One frame pair. An id names a frame's pixels: a device may keep a frame it has seen resident and
// skip its upload when the same id comes back (frame i's current frame is frame i+1's reference).
struct FramePair {
    FramePair() = default;
    FramePair(std::int64_t reference_frame_id, PlaneView reference_plane, std::int64_t current_frame_id,
              PlaneView current_plane)
        : reference_id(reference_frame_id),
          reference(reference_plane),
          current_id(current_frame_id),
          current(current_plane) {}

    std::int64_t reference_id = 0;
    PlaneView reference;
    std::int64_t current_id = 0;
    PlaneView current;
    // SPEC §8's temporal predictor (read only by chains that use it): whether this pair starts a
    // segment (then p = 0), and otherwise the previous pair's result. When `previous` is null the
    // session uses the result it computed last: the scheduler submits a segment's pairs in order and
    // gives `previous` whenever that session did not compute the pair before.
    bool segment_start = true;
    std::shared_ptr<const MotionField> previous;
};

struct PairResult {
    std::int64_t current_id = 0;
    MotionField field;
    // The device's own time for this pair (events, timestamps, clocks): its computation, without the
    // copies of frames and results to and from it, which the wall clock has.
    double device_seconds = 0;
    // SessionOptions::compensation's result for this pair's field (every device gives the same).
    std::optional<CompensatedFrame> compensation{};
    // The frames of this pair the device had to take in (upload and prepare): 0 when both were
    // resident, else 1 or 2 (SessionOptions::resident_frames).
    int frames_taken_in = 0;
};

// A stream of frame pairs on one device, with fixed options. Devices may work asynchronously.
class MotionSession {
public:
    virtual ~MotionSession() = default;
    // Queues a pair; its planes must stay valid until its result has been received.
    virtual void submit(const FramePair& pair) = 0;
    // The oldest queued pair's result, waiting for it if needed.
    [[nodiscard]] virtual PairResult receive() = 0;
    [[nodiscard]] virtual std::size_t pending() const = 0;
};

// The measured peak of the packed SAD instruction a device's kernels are built on.
struct SadPeak {
    std::string instruction;       // e.g. "vpsadbw zmm", "vabsdiff4"
    double pixels_per_second = 0;  // absolute differences per second, all cores or SMs busy
};

class Device {
public:
    virtual ~Device() = default;
    [[nodiscard]] virtual const DeviceInfo& info() const = 0;
    // Whether open_session would accept these options' chain and variant, and how results are
    // checked; asked before any work, so that a job refuses at once what a device cannot do.
    [[nodiscard]] virtual Support supports(const SessionOptions& options) const = 0;
    // Throws Error(unsupported) or Error(invalid_argument) naming what this device cannot do.
    [[nodiscard]] virtual std::unique_ptr<MotionSession> open_session(const SessionOptions& options) = 0;
    // Optional: a microbenchmark of that instruction, so that benchmarks can report the fraction of
    // peak a kernel reaches. Devices without one return nothing.
    [[nodiscard]] virtual std::optional<SadPeak> measure_sad_peak() { return std::nullopt; }

    // Whether the device computes SessionOptions::compensation itself, after the search, and why not
    // when it does not: open_compensating_session then computes it on the host. A device's own
    // open_session ignores the request when this says no. The default: not yet.
    [[nodiscard]] virtual Support supports_compensation(const SessionOptions& options) const;

    // SPEC §13 on the device: whether it computes `variant` (bit-identical to the reference, as every
    // device must), and what is missing when not. The default: not yet.
    [[nodiscard]] virtual Support supports_transform(TransformAlgorithm algorithm) const;
    // The 8x8 transforms of `blocks` in place, forward (samples in dct_input_min..dct_input_max, else
    // Error(invalid_argument) naming the block, before any is changed) or inverse. Throws
    // Error(unsupported) with supports_transform's reason when it says no.
    virtual void transform_blocks(TransformAlgorithm algorithm, TransformDirection direction,
                                  std::span<Block8x8> blocks);

    // Host memory for frames that this device's sessions upload without a staging copy (a GPU's
    // pinned memory), for readers to fill (VideoReader::set_plane_memory); null where there is none.
    [[nodiscard]] virtual std::shared_ptr<PlaneMemory> plane_memory() { return nullptr; }
};

// A session of `device` whose results carry options.compensation's CompensatedFrame: the device's own
// when supports_compensation says yes, else computed on the host from each pair's planes as its
// result comes back (the scheduler opens every session so, for every policy).
[[nodiscard]] std::unique_ptr<MotionSession> open_compensating_session(Device& device,
                                                                       const SessionOptions& options);

// Convenience for one pair: opens a session, submits, receives.
[[nodiscard]] MotionField estimate_pair(Device& device, const SessionOptions& options, PlaneView reference,
                                        PlaneView current);

}  // namespace xme
