// A luma plane copied once into a buffer with an edge-replicated margin (SPEC §1), so that search
// kernels read any candidate without clamping. One padded copy serves as current and as reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "xme/frame.hpp"

namespace xme::cpu {

class PaddedFrame {
public:
    PaddedFrame() = default;
    // Pixels from (-margin, -margin) to (width_needed + margin, height_needed + margin), exclusive.
    PaddedFrame(PlaneView source, int margin, int width_needed, int height_needed);
    // The same for another plane, reusing this one's memory (no allocation when the size is unchanged).
    void assign(PlaneView source, int margin, int width_needed, int height_needed);

    // Pointer to pixel (0, 0); valid from -margin in both directions.
    [[nodiscard]] const std::uint8_t* origin() const { return origin_; }
    [[nodiscard]] std::ptrdiff_t stride() const { return stride_; }

private:
    std::vector<std::uint8_t> pixels_;
    const std::uint8_t* origin_ = nullptr;
    std::ptrdiff_t stride_ = 0;
};

}  // namespace xme::cpu
