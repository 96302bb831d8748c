// 8-bit planes and frames. Motion estimation reads only luma; chroma travels through I/O untouched.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
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

// Where planes a reader fills may live instead of ordinary memory: a GPU device offers pinned host
// memory, which it uploads from without a staging copy (Device::plane_memory). Called from any thread.
class PlaneMemory {
public:
    virtual ~PlaneMemory() = default;
    // `bytes` of memory, or null where this memory has none to give (the plane then takes ordinary
    // memory).
    [[nodiscard]] virtual std::uint8_t* allocate(std::size_t bytes) = 0;
    virtual void release(std::uint8_t* data, std::size_t bytes) noexcept = 0;
};

namespace detail {
// Gives a plane's samples back to the PlaneMemory they came from (which it keeps alive), else delete[].
struct PlaneRelease {
    std::shared_ptr<PlaneMemory> memory;
    std::size_t bytes = 0;
    void operator()(std::uint8_t* data) const noexcept {
        if (memory) {
            memory->release(data, bytes);
        } else {
            delete[] data;
        }
    }
};
}  // namespace detail

// An owning, tightly packed 8-bit plane.
class Plane {
public:
    // Asks for a plane whose every sample the caller writes next (a reader filling a frame): its
    // samples start undefined, without the pass that zeroing would cost (2 MB of writes a 1080p frame),
    // in `memory` where given.
    struct ForOverwrite {
        std::shared_ptr<PlaneMemory> memory;
    };

    Plane() = default;
    Plane(int width, int height, std::uint8_t fill = 0) : Plane(width, height, ForOverwrite{}) {
        std::fill_n(pixels_.get(), size_, fill);
    }
    Plane(int width, int height, const ForOverwrite& overwrite)
        : width_(width),
          height_(height),
          size_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
        std::uint8_t* data = overwrite.memory && size_ > 0 ? overwrite.memory->allocate(size_) : nullptr;
        if (data != nullptr) {
            pixels_ = Pixels(data, Release{overwrite.memory, size_});
        } else {
            pixels_ = Pixels(new std::uint8_t[size_], Release{});
        }
    }
    Plane(const Plane& other) : Plane(other.width_, other.height_, ForOverwrite{}) {
        std::copy_n(other.pixels_.get(), size_, pixels_.get());
    }
    Plane& operator=(const Plane& other) {
        if (this != &other) *this = Plane(other);
        return *this;
    }
    Plane(Plane&& other) noexcept { swap(other); }
    Plane& operator=(Plane&& other) noexcept {
        Plane(std::move(other)).swap(*this);
        return *this;
    }
    ~Plane() = default;

    [[nodiscard]] int width() const { return width_; }
    [[nodiscard]] int height() const { return height_; }
    [[nodiscard]] std::uint8_t* data() { return pixels_.get(); }
    [[nodiscard]] const std::uint8_t* data() const { return pixels_.get(); }
    [[nodiscard]] std::size_t size_bytes() const { return size_; }
    [[nodiscard]] std::uint8_t* row(int y) { return pixels_.get() + static_cast<std::size_t>(y) * width_; }
    [[nodiscard]] std::uint8_t& at(int x, int y) { return row(y)[x]; }
    [[nodiscard]] PlaneView view() const { return {pixels_.get(), width_, height_, width_}; }
    [[nodiscard]] bool empty() const { return size_ == 0; }

private:
    using Release = detail::PlaneRelease;
    using Pixels = std::unique_ptr<std::uint8_t[], Release>;

    void swap(Plane& other) noexcept {
        std::swap(width_, other.width_);
        std::swap(height_, other.height_);
        std::swap(size_, other.size_);
        std::swap(pixels_, other.pixels_);
    }

    int width_ = 0;
    int height_ = 0;
    std::size_t size_ = 0;
    Pixels pixels_;
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

// Allocates a frame with every plane sized for `format`, zeroed (or, for a reader that writes every
// sample, left for it to overwrite); throws Error(unsupported) "... too large for this machine's
// memory" where the allocation fails.
[[nodiscard]] Frame make_frame(int width, int height, ChromaFormat format);
[[nodiscard]] Frame make_frame(int width, int height, ChromaFormat format,
                               const Plane::ForOverwrite& overwrite);

}  // namespace xme
