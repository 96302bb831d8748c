// A plane of the operations path: an edge-padded copy (SPEC §1) read at any position. A block whose
// top-left lies beyond the margin reads the same samples as the block clamped to the margin (every one
// of its samples is an edge sample either way, since the margin is at least the block's size), so any
// displacement, however far a predictor moved the window, is one pointer into the padded copy.
#pragma once

#include <algorithm>
#include <cstdint>

#include "padded_frame.hpp"

namespace xme::cpu {

// The widest region read at once: the 6-tap neighbourhood of a 32x32 block, (32 + 2) + 5 samples.
inline constexpr int search_plane_margin = 48;

class SearchPlane {
public:
    SearchPlane() = default;
    explicit SearchPlane(PlaneView source) { assign(source); }
    // Pads another plane into this one's memory.
    void assign(PlaneView source) {
        frame_.assign(source, search_plane_margin, source.width, source.height);
        origin_ = frame_.origin();
        stride_ = frame_.stride();
        margin_ = search_plane_margin;
        width_ = source.width;
        height_ = source.height;
    }
    // Reads `source` in place, without a margin, for searches whose every block lies inside the frame
    // (SPEC §2's restrict mode on a frame of whole blocks, integer vectors only): no copy per frame.
    void view(PlaneView source) {
        origin_ = source.data;
        stride_ = source.stride;
        margin_ = 0;
        width_ = source.width;
        height_ = source.height;
    }

    // Reads a frame another path padded already (origin: its pixel (0, 0); `margin` edge-replicated samples
    // on every side, at least), without a copy.
    void view_padded(const std::uint8_t* origin, std::ptrdiff_t stride, int width, int height, int margin) {
        origin_ = origin;
        stride_ = stride;
        margin_ = margin;
        width_ = width;
        height_ = height;
    }

    // The top-left of the w x h block at (x, y); w and h at most the margin (or the frame, in place).
    [[nodiscard]] const std::uint8_t* block(int x, int y, int w, int h) const {
        const int cx = std::clamp(x, -margin_, width_ + margin_ - w);
        const int cy = std::clamp(y, -margin_, height_ + margin_ - h);
        return origin_ + cy * stride_ + cx;
    }
    [[nodiscard]] std::ptrdiff_t stride() const { return stride_; }
    [[nodiscard]] int width() const { return width_; }
    [[nodiscard]] int height() const { return height_; }
    // search_plane_margin when padded; 0 when read in place.
    [[nodiscard]] int margin() const { return margin_; }

private:
    PaddedFrame frame_;
    const std::uint8_t* origin_ = nullptr;
    std::ptrdiff_t stride_ = 0;
    int margin_ = 0;
    int width_ = 0;
    int height_ = 0;
};

}  // namespace xme::cpu
