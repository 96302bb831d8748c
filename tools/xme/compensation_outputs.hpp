// `--prediction`, `--residual` and `--coefficients`: the per-pair planes of SPEC §12-§13 written as the
// run goes, to temporary files renamed onto their paths when it ends (xme/staged_file.hpp). All are
// opened before the run, so a bad path or extension is reported at once.
#pragma once

#include <memory>
#include <string>

#include "xme/compensation.hpp"
#include "xme/plane_io.hpp"
#include "xme/video.hpp"

namespace xme::cli {

struct CompensationPaths {
    std::string prediction;    // .y4m (gray)
    std::string residual;      // .npy (int16, (pairs, H, W)) or .y4m (residual + 128, clipped to 0..255)
    std::string coefficients;  // .npy (int16, (pairs, H, W)); needs a transform

    [[nodiscard]] bool any() const {
        return !prediction.empty() || !residual.empty() || !coefficients.empty();
    }
};

class CompensationOutputs {
public:
    // Throws Error(invalid_argument) for an extension the output cannot take, Error(io) for a file
    // that cannot be created.
    CompensationOutputs(const CompensationPaths& paths, int width, int height);
    void write(const CompensatedFrame& frame);
    // Keeps the first `frames` pairs in every file and renames them onto their paths (all are tried;
    // the first error is thrown).
    void finish(std::int64_t frames);

private:
    std::unique_ptr<Y4mWriter> prediction_;
    std::unique_ptr<Y4mWriter> residual_view_;
    std::unique_ptr<Int16StackWriter> residual_;
    std::unique_ptr<Int16StackWriter> coefficients_;
};

}  // namespace xme::cli
