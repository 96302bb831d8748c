// `xme estimate --refs LIST` and `--direction both` (SPEC §14), on one device.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "estimate_job.hpp"

namespace xme::cli {

// Runs the job: -o's rows (.csv, .npy or - for CSV on stdout; xme/decided_field_io.hpp) and the JSON
// summary (modes' shares, MC-PSNR, consistency), every decided frame written before an error
// propagates. What §14 does not do yet in this command (another policy, the other outputs) is refused
// with Error(unsupported) before any work, named.
// `draw` (may be empty): --draw's pictures, each decided frame's chosen vectors over it (arrows: past
// green, future orange, a bi-predicted block both), with both directions its flagged blocks outlined
// red (consistency above consistency_flag_threshold).
void run_reference_estimate(const EstimateSettings& settings, const std::string& draw = {});

// `xme compare --refs LIST` / `--direction both`: the same frames through ReferenceRun on every device of
// --backends, each decided frame (decision, consistency, backward field) compared bit for bit with the
// first device's (SPEC §14 is bit-exact wherever a device's pairs are; a device whose pairs are within a
// tolerance is refused). Prints the table, writes the JSON; Error(mismatch) when a device disagrees.
void run_reference_compare(const EstimateSettings& settings);

// Shared by the two (reference_job.cpp): the run's input, checked and positioned at --start (luma only
// unless pictures need the colour); the caller's registry or one of the run's own; the JSON's
// "parameters".
[[nodiscard]] std::unique_ptr<VideoReader> open_reference_input(const EstimateSettings& settings,
                                                                bool keep_colour);
[[nodiscard]] Registry& reference_registry(const EstimateSettings& settings, std::optional<Registry>& own);
[[nodiscard]] nlohmann::json reference_parameters_json(const EstimateSettings& settings);

}  // namespace xme::cli
