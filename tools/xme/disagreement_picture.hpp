// `xme compare --disagreement out.png`: a picture of where the first two devices disagree.
#pragma once

#include <string>

#include "estimate_job.hpp"
#include "output_files.hpp"

namespace xme::cli {

class DisagreementPicture {
public:
    // Checks, before the run, that this build can write it (FFmpeg), that `path` is one PNG, that
    // there are two devices to compare, and that the file can be written (Error, exits 4, 2, 2, 7).
    DisagreementPicture(const EstimateSettings& settings, std::string path);
    // Draws the first frame where the first two devices disagree, each block they disagree on
    // tinted and outlined in red; where they agree, the first pair's frame unmarked. Returns a line
    // saying which.
    std::string write(const EstimateReport& report);

private:
    EstimateSettings settings_;
    std::string path_;
    ClaimedOutput claim_;
};

}  // namespace xme::cli
