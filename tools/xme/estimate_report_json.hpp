// The JSON summary of an estimate or compare run.
#pragma once

#include "estimate_job.hpp"

namespace xme::cli {

void write_report_json(const EstimateReport& report, const EstimateSettings& settings);

}  // namespace xme::cli
