// One `xme estimate` (or `xme compare`) run: frames from a reader, pairs through the scheduler,
// fields to the writers, metrics and, under mirror, agreement between the devices.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compensation_outputs.hpp"
#include "xme/agreement.hpp"
#include "xme/metrics.hpp"
#include "xme/references.hpp"
#include "xme/scheduler.hpp"
#include "xme/video.hpp"

namespace xme::cli {

struct EstimateSettings {
    std::string input;
    RawVideoOptions raw;
    Policy policy = Policy::single;
    std::vector<std::string> devices{"auto"};
    SessionOptions session;    // params, variant, threads; the size is filled from the input
    std::int64_t start = 0;    // frames skipped before the first one read
    int read_threads = -1;     // VideoReader::set_read_threads; -1: the reader's default
    std::int64_t frames = -1;  // frames read (pairs = frames - 1); -1: to the end
    std::string output;        // .csv, .npy or .flo (pattern), or empty
    std::string json;          // summary file, or empty
    std::string export_mvs;    // --export-mvs: FFmpeg's AVMotionVector records (.mvs.npy)
    std::string vector_array;  // --vector-array, --cost-array, --candidate-array: the compact
    std::string cost_array;    // field files (.npy, xme/field_io.hpp's FieldArray)
    std::string candidate_array;
    ReferenceOptions references;                // --refs, --direction (SPEC §14)
    CompensationPaths compensation;             // --prediction, --residual, --coefficients
    std::optional<TransformOptions> transform;  // --transform, --qstep
    bool raw_options_given = false;             // --size or --pix-fmt: a notice if the input is not raw
    bool quiet = false;
    bool verbose = false;
    // --read-only: the frames read as the job would read them (same reader, threads and the devices'
    // memory) and nothing estimated: the input's own limit, to hold a whole job's pace against.
    bool read_only = false;
    // A caller that runs job after job in one process (the Python module's run_estimate) keeps its
    // registry and devices open between them (ScheduleOptions::open_device); null: the job's own.
    Registry* registry = nullptr;
    std::function<std::shared_ptr<Device>(const std::string& name)> open_device = nullptr;
    // Set by such a caller to stop the job between pairs, as SIGINT does (its outputs end whole).
    const std::atomic<bool>* stop = nullptr;
    // Each pair as it is delivered, in frame order (`xme estimate --draw`).
    std::function<void(const ScheduledPair&, const VideoInfo&)> on_pair;

    // "-" sends vectors (as CSV) or the JSON to stdout; tables and messages then go to stderr.
    [[nodiscard]] bool stdout_carries_data() const { return output == "-" || json == "-"; }
};

struct FrameRecord {
    std::int64_t frame = 0;
    FrameMetrics metrics;                // of the first device's field
    std::uint64_t residual_abs_sum = 0;  // SPEC §12, of that field's prediction
    std::optional<TransformFigures> transform;
    std::uint64_t comparisons = 0;       // pixel comparisons of that field (SPEC §7)
    std::vector<std::size_t> devices;    // which devices computed it (one, or all under mirror)
    std::vector<double> device_seconds;  // per entry of `devices`
};

// Agreement of device `second` with device `first` (SPEC §6); second == first: the device's
// reported costs against the reference's cost of its own vectors.
struct DeviceAgreement {
    std::size_t first = 0;
    std::size_t second = 0;
    std::uint32_t tolerance = 0;
    std::int64_t blocks_compared = 0;
    std::int64_t blocks_different = 0;
    std::vector<std::pair<std::int64_t, BlockMismatch>> mismatches;  // with their frame
};

// What --read-only measured: frames read and the luma bytes they hold.
struct ReadOnlyFigures {
    std::int64_t frames = 0;
    std::uint64_t luma_bytes = 0;
    double seconds = 0;  // from the first read to the last, setup excluded
};

struct EstimateReport {
    VideoInfo video;
    std::vector<ScheduledDevice> devices;
    std::vector<FrameRecord> frames;
    std::vector<DeviceAgreement> agreements;  // mirror only
    std::vector<std::string> notices;         // e.g. a device that failed under split
    std::string choice_reason;                // why "auto" chose its device
    double wall_seconds = 0;
    double setup_seconds = 0;    // of wall_seconds: opening the input and the devices, before the first read
    HostStageTimes host_times;   // the run's reading and delivering (the devices' own: in `devices`)
    double convert_seconds = 0;  // of host_times.read_seconds: converting decoded pictures to luma
    std::uint64_t comparisons_per_pair = 0;    // mean over the pairs delivered
    std::optional<std::string> error;          // the fault that ended the run early, if any
    std::optional<std::string> interrupted;    // the signal that stopped it between pairs ("SIGINT")
    std::optional<ReadOnlyFigures> read_only;  // --read-only's run, in place of frames

    [[nodiscard]] bool all_agree() const;
};

// Runs the job. Every finished frame is written before an error propagates; the JSON summary is
// written in either case, with the error in it. Every file output ends with the pairs all of them
// hold. A SIGINT or SIGTERM stops the run between pairs (interrupt.hpp): the outputs are ended so,
// the summary records the signal, and Interrupted is thrown.
EstimateReport run_estimate(const EstimateSettings& settings);

// `xme estimate ARGUMENTS...` in this process (command_line.cpp), for a caller that runs job after job
// (the Python module's run_estimate): `adjust` gives the settings its registry, devices and stop flag.
// Every failure is thrown: a bad option as Error(invalid_argument) with the parser's message, a job's
// as the job throws it, Interrupted where the stop flag (or a signal) ended the run.
void run_estimate_arguments(const std::vector<std::string>& arguments,
                            const std::function<void(EstimateSettings&)>& adjust);

// Parses them and makes the settings as run_estimate_arguments does, and runs nothing: a caller's check
// before it hands them out, and what it needs to know of the chain.
struct EstimateCheck {
    bool reads_previous_pair = false;  // SPEC §8: a pair's result depends on the pair before (operations.hpp)
    Policy policy = Policy::single;
    std::vector<std::string> devices;  // as given ("auto", "cuda", "cpu,vulkan:0" split in two)
    int refresh = 0;                   // SPEC §8's refresh period; 0: one segment
    int threads = 0;                   // --threads; 0: not given (all)
};
[[nodiscard]] EstimateCheck check_estimate_arguments(const std::vector<std::string>& arguments);
// Every option name of `xme estimate` ("-o", "--output", ...) and whether it takes a value: what a caller
// needs to tell an option's value from the words around it (the corpus's command line).
[[nodiscard]] std::vector<std::pair<std::string, bool>> estimate_option_names();

// --read-only writes the summary alone: a file that would hold estimates (set in settings) is refused with
// Error(invalid_argument), naming it. run_estimate checks it too; a command checks it first where an
// output's own set-up could refuse for another reason.
void check_read_only(const EstimateSettings& settings);

void print_summary(const EstimateReport& report, const EstimateSettings& settings, std::FILE* out);
void print_agreement(const EstimateReport& report, std::FILE* out);

}  // namespace xme::cli
