// An RGB picture to draw motion on, and the colours `xme draw` uses (xme(1), `xme draw`).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "xme/frame.hpp"

namespace xme::cli {

using Rgb = std::array<std::uint8_t, 3>;

class Picture {
public:
    Picture(int width, int height, Rgb fill = {0, 0, 0});
    // Luma as gray (R = G = B = Y, no range change); with chroma, BT.601 limited-range YUV to RGB.
    static Picture of_frame(const Frame& frame);

    [[nodiscard]] int width() const { return width_; }
    [[nodiscard]] int height() const { return height_; }
    [[nodiscard]] const std::uint8_t* row(int y) const {
        return pixels_.data() + std::size_t(y) * std::size_t(width_) * 3;
    }
    // Pixels outside the picture are left out, so that shapes may cross its edges.
    void set(int x, int y, Rgb colour);
    void line(double x0, double y0, double x1, double y1, Rgb colour);
    // A line from (x, y) along (dx, dy) with a head at its end; nothing for a zero vector.
    void arrow(double x, double y, double dx, double dy, Rgb colour);
    void outline(int x, int y, int width, int height, Rgb colour);
    void fill(int x, int y, int width, int height, Rgb colour);
    // Mixes `colour` into the rectangle's pixels: out = (pixel + colour) / 2.
    void tint(int x, int y, int width, int height, Rgb colour);

private:
    int width_;
    int height_;
    std::vector<std::uint8_t> pixels_;  // RGB24, tightly packed
};

// The cost ramp: t = 0 green (0, 255, 0), 0.5 yellow (255, 255, 0), 1 red (255, 0, 0), linear between;
// t is clamped to 0..1.
[[nodiscard]] Rgb cost_colour(double t);

// The flow colour wheel: hue = the vector's angle, measured from +x (right) towards +y (down, as
// image rows grow), 0 degrees red, 60 yellow, 120 green, 180 cyan, 240 blue, 300 magenta;
// saturation = |v| / max_magnitude (clamped to 1), value 1: a zero vector is white.
[[nodiscard]] Rgb flow_colour(double dx, double dy, double max_magnitude);

// One colour per partition shape (SPEC §9): 16x16 red, 16x8 orange, 8x16 yellow, 8x8 green,
// 8x4 cyan, 4x8 blue, 4x4 magenta.
[[nodiscard]] Rgb partition_colour(int width, int height);

}  // namespace xme::cli
