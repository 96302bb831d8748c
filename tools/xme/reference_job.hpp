// `xme estimate --refs LIST` and `--direction both` (SPEC §14), on one device.
#pragma once

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

}  // namespace xme::cli
