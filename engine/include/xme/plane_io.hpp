// Writing a run's int16 planes (residuals, DCT coefficients) as one NPY array of shape (frames, H, W),
// appended frame by frame and valid after every frame, like the motion-field files (xme/field_io.hpp).
#pragma once

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
};

// `path` must end in ".npy" (any case): Error(invalid_argument) otherwise; Error(io) when it cannot be
// created.
[[nodiscard]] std::unique_ptr<Int16StackWriter> open_int16_stack_writer(const std::string& path, int width,
                                                                        int height);

}  // namespace xme
