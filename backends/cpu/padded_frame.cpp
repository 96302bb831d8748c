#include "padded_frame.hpp"

#include <algorithm>

namespace xme::cpu {

namespace {

constexpr std::ptrdiff_t cache_line = 64;

std::ptrdiff_t round_up_to_line(std::ptrdiff_t bytes) {
    return (bytes + cache_line - 1) / cache_line * cache_line;
}

}  // namespace

PaddedFrame::PaddedFrame(PlaneView source, int margin, int width_needed, int height_needed) {
    assign(source, margin, width_needed, height_needed);
}

void PaddedFrame::assign(PlaneView source, int margin, int width_needed, int height_needed) {
    // Column 0 and every row start on a cache line, so that loads of the current block never split one.
    const std::ptrdiff_t left = round_up_to_line(margin);
    stride_ = round_up_to_line(left + width_needed + margin);
    const int rows = height_needed + 2 * margin;
    pixels_.resize(static_cast<std::size_t>(stride_) * static_cast<std::size_t>(rows) + cache_line);
    std::uint8_t* aligned =
        pixels_.data() +
        (cache_line - reinterpret_cast<std::uintptr_t>(pixels_.data()) % cache_line) % cache_line;
    const int copied = std::min(source.width, width_needed + margin);
    for (int row = 0; row < rows; ++row) {
        const std::uint8_t* src = source.row(std::clamp(row - margin, 0, source.height - 1));
        std::uint8_t* dst = aligned + row * stride_;
        std::fill(dst, dst + left, src[0]);
        std::copy(src, src + copied, dst + left);
        std::fill(dst + left + copied, dst + stride_, src[source.width - 1]);
    }
    origin_ = aligned + static_cast<std::ptrdiff_t>(margin) * stride_ + left;
}

}  // namespace xme::cpu
