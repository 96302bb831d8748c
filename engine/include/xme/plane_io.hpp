// Writing a run's int16 planes (residuals, DCT coefficients) as one NPY array of shape (frames, H, W),
// appended frame by frame to a temporary file renamed onto the path at the end, like the motion-field
// files (xme/field_io.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "xme/motion_compensation.hpp"

namespace xme {

class Int16StackWriter {
public:
    virtual ~Int16StackWriter() = default;
    // Appends one plane; it must be width x height. When the write fails, the file is cut back to the
    // planes written before and Error(io) names the file and the OS's reason.
    virtual void write(const Int16Plane& plane) = 0;
    // As FieldWriter::finish (xme/field_io.hpp): keeps the first `frames` planes (every plane when
    // negative) and renames the file onto its path; the destructor keeps every plane without it.
    virtual void finish(std::int64_t frames) = 0;
};

// `path` must end in ".npy" (any case): Error(invalid_argument) otherwise; Error(io) when it cannot be
// created.
[[nodiscard]] std::unique_ptr<Int16StackWriter> open_int16_stack_writer(const std::string& path, int width,
                                                                        int height);

}  // namespace xme
