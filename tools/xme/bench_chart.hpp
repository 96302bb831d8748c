// A bar chart of a bench run as a self-contained SVG file, readable in any browser.
#pragma once

#include <string>
#include <vector>

#include "bench_job.hpp"

namespace xme::cli {

// One horizontal bar per row: device-time frames/s on a log scale (devices differ by orders of
// magnitude), labelled with the cell and its fraction of the device's SAD peak.
void write_bench_chart(const std::vector<BenchRow>& rows, const std::string& path);

}  // namespace xme::cli
