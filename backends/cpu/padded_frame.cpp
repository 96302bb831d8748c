#include "padded_frame.hpp"

#include <algorithm>

namespace xme::cpu {

PaddedFrame::PaddedFrame(PlaneView source, int margin, int width_needed, int height_needed) {
    // Rows are rounded up to 64 bytes so that each starts on a cache line.
    stride_ = (static_cast<std::ptrdiff_t>(width_needed) + 2 * margin + 63) / 64 * 64;
    const int rows = height_needed + 2 * margin;
    pixels_.resize(static_cast<std::size_t>(stride_) * static_cast<std::size_t>(rows));
    for (int row = 0; row < rows; ++row) {
        const std::uint8_t* src = source.row(std::clamp(row - margin, 0, source.height - 1));
        std::uint8_t* dst = pixels_.data() + row * stride_;
        const int left = std::min<std::ptrdiff_t>(margin, stride_);
        std::fill(dst, dst + left, src[0]);
        const int copied = std::min<int>(source.width, static_cast<int>(stride_) - margin);
        std::copy(src, src + copied, dst + margin);
        std::fill(dst + margin + copied, dst + stride_, src[source.width - 1]);
    }
    origin_ = pixels_.data() + static_cast<std::ptrdiff_t>(margin) * stride_ + margin;
}

}  // namespace xme::cpu
