// Reads the records `xme estimate --export-mvs` writes (xme/mvs_io.hpp) back into FFmpeg's
// AVMotionVector, grouped by frame.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include <libavutil/motion_vector.h>
}

namespace xme::codecview {

// Each frame's vectors, by the frame index the file gives them. Throws xme::Error(bad_input) naming
// the file when it is not such a file (another dtype, Fortran order, a size that is not whole records).
[[nodiscard]] std::map<std::int64_t, std::vector<AVMotionVector>> read_mvs_file(const std::string& path);

}  // namespace xme::codecview
