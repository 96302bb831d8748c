#include "picture.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

namespace xme::cli {
namespace {

std::uint8_t clamp_byte(double value) {
    return static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
}

int rounded(double value) { return static_cast<int>(std::floor(value + 0.5)); }

}  // namespace

Picture::Picture(int width, int height, Rgb fill) : width_(width), height_(height) {
    pixels_.resize(std::size_t(width) * std::size_t(height) * 3);
    for (std::size_t i = 0; i < pixels_.size(); i += 3)
        std::copy(fill.begin(), fill.end(), pixels_.begin() + long(i));
}

Picture Picture::of_frame(const Frame& frame) {
    Picture picture(frame.width(), frame.height());
    const bool colour = frame.chroma != ChromaFormat::mono && !frame.cb.empty();
    const int shift_x = frame.chroma == ChromaFormat::yuv444 ? 0 : 1;
    const int shift_y = frame.chroma == ChromaFormat::yuv420 ? 1 : 0;
    for (int y = 0; y < frame.height(); ++y) {
        for (int x = 0; x < frame.width(); ++x) {
            const double luma = frame.luma.view().at(x, y);
            if (!colour) {
                picture.set(x, y, {clamp_byte(luma), clamp_byte(luma), clamp_byte(luma)});
                continue;
            }
            // BT.601, limited range (Y 16..235, Cb and Cr 16..240), chroma sited by nearest sample.
            const double cb = frame.cb.view().at(x >> shift_x, y >> shift_y) - 128.0;
            const double cr = frame.cr.view().at(x >> shift_x, y >> shift_y) - 128.0;
            const double scaled = 1.164 * (luma - 16.0);
            picture.set(x, y,
                        {clamp_byte(scaled + 1.596 * cr), clamp_byte(scaled - 0.392 * cb - 0.813 * cr),
                         clamp_byte(scaled + 2.017 * cb)});
        }
    }
    return picture;
}

void Picture::set(int x, int y, Rgb colour) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    std::uint8_t* pixel = pixels_.data() + (std::size_t(y) * std::size_t(width_) + std::size_t(x)) * 3;
    std::copy(colour.begin(), colour.end(), pixel);
}

// Every pixel nearest to the segment's points at steps of at most one pixel along its longer axis,
// over the part of it inside the picture (a vector from a damaged file may be millions of pixels long).
void Picture::line(double x0, double y0, double x1, double y1, Rgb colour) {
    const double dx = x1 - x0;
    const double dy = y1 - y0;
    double from = 0, to = 1;
    for (const auto& [start, delta, size] : {std::tuple{x0, dx, width_}, std::tuple{y0, dy, height_}}) {
        if (delta == 0) {
            if (start < -1 || start > size) return;
            continue;
        }
        const double a = (-1 - start) / delta, b = (size - start) / delta;
        from = std::max(from, std::min(a, b));
        to = std::min(to, std::max(a, b));
    }
    if (from > to) return;
    const int steps = static_cast<int>(std::ceil(std::max(std::fabs(dx), std::fabs(dy)) * (to - from)));
    for (int i = 0; i <= steps; ++i) {
        const double t = steps == 0 ? from : from + (to - from) * i / steps;
        set(rounded(x0 + t * dx), rounded(y0 + t * dy), colour);
    }
}

void Picture::arrow(double x, double y, double dx, double dy, Rgb colour) {
    const double length = std::hypot(dx, dy);
    if (length == 0) return;
    line(x, y, x + dx, y + dy, colour);
    if (length < 3) return;  // too short for a head to tell anything
    // Two barbs 30 degrees either side of the shaft, pointing back from the tip.
    const double head = std::min(6.0, 0.4 * length);
    const double angle = std::atan2(-dy, -dx);
    for (const double side : {-std::numbers::pi / 6, std::numbers::pi / 6}) {
        line(x + dx, y + dy, x + dx + head * std::cos(angle + side), y + dy + head * std::sin(angle + side),
             colour);
    }
}

// Shapes walk only their part inside the picture: the work is bounded by the picture's size whatever
// a file's rectangle says.
void Picture::outline(int x, int y, int width, int height, Rgb colour) {
    const long long right = static_cast<long long>(x) + width - 1,
                    bottom = static_cast<long long>(y) + height - 1;
    for (long long i = std::max<long long>(x, 0); i <= std::min<long long>(right, width_ - 1); ++i) {
        set(static_cast<int>(i), y, colour);
        if (bottom >= 0 && bottom < height_) set(static_cast<int>(i), static_cast<int>(bottom), colour);
    }
    for (long long j = std::max<long long>(y, 0); j <= std::min<long long>(bottom, height_ - 1); ++j) {
        set(x, static_cast<int>(j), colour);
        if (right >= 0 && right < width_) set(static_cast<int>(right), static_cast<int>(j), colour);
    }
}

void Picture::fill(int x, int y, int width, int height, Rgb colour) {
    const long long right = std::min<long long>(static_cast<long long>(x) + width, width_);
    const long long bottom = std::min<long long>(static_cast<long long>(y) + height, height_);
    for (long long j = std::max(y, 0); j < bottom; ++j)
        for (long long i = std::max(x, 0); i < right; ++i)
            set(static_cast<int>(i), static_cast<int>(j), colour);
}

void Picture::tint(int x, int y, int width, int height, Rgb colour) {
    for (int j = std::max(0, y); j < std::min(height_, y + height); ++j) {
        for (int i = std::max(0, x); i < std::min(width_, x + width); ++i) {
            std::uint8_t* pixel =
                pixels_.data() + (std::size_t(j) * std::size_t(width_) + std::size_t(i)) * 3;
            for (int c = 0; c < 3; ++c)
                pixel[c] = static_cast<std::uint8_t>((pixel[c] + colour[std::size_t(c)]) / 2);
        }
    }
}

Rgb cost_colour(double t) {
    t = std::clamp(t, 0.0, 1.0);
    return t <= 0.5 ? Rgb{clamp_byte(510 * t), 255, 0} : Rgb{255, clamp_byte(510 * (1 - t)), 0};
}

Rgb flow_colour(double dx, double dy, double max_magnitude) {
    const double magnitude = std::hypot(dx, dy);
    const double saturation = max_magnitude > 0 ? std::min(1.0, magnitude / max_magnitude) : 0.0;
    double hue = std::atan2(dy, dx) * 180 / std::numbers::pi;  // y grows downwards, as rows do
    if (hue < 0) hue += 360;
    // HSV with value 1: the strongest channel stays at 255; saturation pulls the others down from it.
    const double sector = hue / 60;
    const double rising = sector - 2 * std::floor(sector / 2);  // 0..2 within each pair of sectors
    const double middle = 1 - std::fabs(rising - 1);            // the second-strongest channel's share
    const double chroma = saturation;
    const double low = 1 - chroma;
    double r = 0, g = 0, b = 0;
    const double mid = low + chroma * middle;
    switch (static_cast<int>(sector) % 6) {
        case 0:
            r = 1, g = mid, b = low;
            break;
        case 1:
            r = mid, g = 1, b = low;
            break;
        case 2:
            r = low, g = 1, b = mid;
            break;
        case 3:
            r = low, g = mid, b = 1;
            break;
        case 4:
            r = mid, g = low, b = 1;
            break;
        default:
            r = 1, g = low, b = mid;
            break;
    }
    return {clamp_byte(255 * r), clamp_byte(255 * g), clamp_byte(255 * b)};
}

Rgb partition_colour(int width, int height) {
    if (width == 16 && height == 16) return {255, 0, 0};
    if (width == 16 && height == 8) return {255, 128, 0};
    if (width == 8 && height == 16) return {255, 255, 0};
    if (width == 8 && height == 8) return {0, 255, 0};
    if (width == 8 && height == 4) return {0, 255, 255};
    if (width == 4 && height == 8) return {0, 64, 255};
    return {255, 0, 255};
}

}  // namespace xme::cli
