// 8-bit planes and frames. Motion estimation reads only luma; chroma travels through I/O untouched.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace xme {

// A read-only view of an 8-bit plane; the owner keeps the pixels alive.
struct PlaneView {
    const std::uint8_t* data = nullptr;
    int width = 0;
    int height = 0;
    std::ptrdiff_t stride = 0;  // bytes from one row to the next, >= width

    [[nodiscard]] const std::uint8_t* row(int y) const { return data + y * stride; }
    [[nodiscard]] std::uint8_t at(int x, int y) const { return row(y)[x]; }
    // SPEC §1: every read outside the plane is edge-replicated.
    [[nodiscard]] std::uint8_t at_clamped(int x, int y) const {
        return at(std::clamp(x, 0, width - 1), std::clamp(y, 0, height - 1));
    }
};

// An owning, tightly packed 8-bit plane.
class Plane {
public:
    Plane() = default;
    Plane(int width, int height, std::uint8_t fill = 0)
        : width_(width), height_(height),
          pixels_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), fill) {}

    [[nodiscard]] int width() const { return width_; }
    [[nodiscard]] int height() const { return height_; }
    [[nodiscard]] std::uint8_t* data() { return pixels_.data(); }
    [[nodiscard]] const std::uint8_t* data() const { return pixels_.data(); }
    [[nodiscard]] std::size_t size_bytes() const { return pixels_.size(); }
    [[nodiscard]] std::uint8_t* row(int y) { return pixels_.data() + static_cast<std::size_t>(y) * width_; }
    [[nodiscard]] std::uint8_t& at(int x, int y) { return row(y)[x]; }
    [[nodiscard]] PlaneView view() const { return {pixels_.data(), width_, height_, width_}; }
    [[nodiscard]] bool empty() const { return pixels_.empty(); }

private:
    int width_ = 0;
    int height_ = 0;
    std::vector<std::uint8_t> pixels_;
};

// Chroma subsampling of a frame; mono frames have no chroma planes.
enum class ChromaFormat { mono, yuv420, yuv422, yuv444 };

// Chroma plane size for a luma size, rounding up as Y4M and FFmpeg do.
[[nodiscard]] int chroma_width(ChromaFormat format, int luma_width);
[[nodiscard]] int chroma_height(ChromaFormat format, int luma_height);
[[nodiscard]] const char* to_string(ChromaFormat format);

struct Frame {
    ChromaFormat chroma = ChromaFormat::mono;
    Plane luma;
    Plane cb;  // empty for mono
    Plane cr;  // empty for mono

    [[nodiscard]] int width() const { return luma.width(); }
    [[nodiscard]] int height() const { return luma.height(); }
};

// Allocates a frame with every plane sized for `format`; throws Error(unsupported) "... too large
// for this machine's memory" where the allocation fails.
[[nodiscard]] Frame make_frame(int width, int height, ChromaFormat format);

}  // namespace xme
