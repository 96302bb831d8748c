// One `xme estimate` run: frames from a reader, pairs through a device, fields to the writers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "xme/device.hpp"
#include "xme/metrics.hpp"
#include "xme/video.hpp"

namespace xme::cli {

struct EstimateSettings {
    std::string input;
    RawVideoOptions raw;
    std::string device = "auto";
    SessionOptions session;      // params, variant, threads; the size is filled from the input
    std::int64_t start = 0;      // frames skipped before the first one read
    std::int64_t frames = -1;    // frames read (pairs = frames - 1); -1: to the end
    std::string output;          // .csv or .npy, or empty
    std::string json;            // summary file, or empty
    bool quiet = false;
};

struct FrameRecord {
    std::int64_t frame = 0;
    FrameMetrics metrics;
    double device_seconds = 0;
    double wall_seconds = 0;
};

struct EstimateReport {
    VideoInfo video;
    DeviceInfo device;
    std::string variant;
    std::vector<FrameRecord> frames;
    double wall_seconds = 0;
    std::uint64_t comparisons_per_pair = 0;
    std::optional<std::string> error;  // the fault that ended the run early, if any
};

// Runs the job. Every finished frame is written before an error propagates; the JSON summary is
// written in either case, with the error in it.
EstimateReport run_estimate(const EstimateSettings& settings);

void print_summary(const EstimateReport& report, const EstimateSettings& settings);

}  // namespace xme::cli
