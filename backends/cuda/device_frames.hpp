// Device resources of a session: owning handles, and the frames kept resident by id (frame i's current
// frame is frame i+1's reference, and SPEC §14's references are frames before and after: each frame is
// uploaded and padded once; SessionOptions::resident_frames says how many).
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "kernels.hpp"
#include "xme/session_support.hpp"

namespace xme::cuda {

// Owns one CUDA object and releases it with Destroy (errors on release are ignored: nothing can be
// done about them in a destructor, and a lost device reports itself on the next call).
template <class T, cudaError_t (*Destroy)(T)>
class Handle {
public:
    Handle() = default;
    explicit Handle(T handle) : handle_(handle) {}
    Handle(Handle&& other) noexcept : handle_(std::exchange(other.handle_, T{})) {}
    Handle& operator=(Handle&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, T{});
        }
        return *this;
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() { reset(); }

    [[nodiscard]] T get() const { return handle_; }
    void reset() {
        if (handle_ != T{}) static_cast<void>(Destroy(handle_));
        handle_ = T{};
    }

private:
    T handle_{};
};

using Stream = Handle<cudaStream_t, cudaStreamDestroy>;
using Event = Handle<cudaEvent_t, cudaEventDestroy>;
using DeviceMemory = Handle<void*, cudaFree>;
using PinnedMemory = Handle<void*, cudaFreeHost>;
using Texture = Handle<cudaTextureObject_t, cudaDestroyTextureObject>;

[[nodiscard]] Stream make_stream(const CallSite& site);
[[nodiscard]] Event make_event(bool timing, const CallSite& site);
[[nodiscard]] DeviceMemory allocate_device(std::size_t bytes, const CallSite& site);
[[nodiscard]] PinnedMemory allocate_pinned(std::size_t bytes, const CallSite& site);

// The padded layout for a frame size and search (margins cover the window, the fast kernel's extra
// rows and the half-pel sample; rows start 256-byte aligned).
[[nodiscard]] FrameLayout make_layout(int width, int height, int block_size, int range);

// The fast kernel's table of rank(dy) = 2|dy| - (dy < 0) for -range <= dy <= range (the tie order of
// SPEC §3 for a fixed dx), on the device; SearchJob::dy_ranks points at its middle.
[[nodiscard]] DeviceMemory make_rank_table(int range, const CallSite& site);

// What a frame slot holds besides the padded pixels.
struct FrameExtras {
    bool expanded = false;                // the fast variants' expanded copy
    bool texture = false;                 // fast-texture's texture object
    std::size_t texture_alignment = 512;  // cudaDeviceProp::textureAlignment
    bool pyramid = false;                 // ehds's levels 1 and 2 (launch_mean_pyramid)
};

class ResidentFrames {
public:
    ResidentFrames(const FrameLayout& layout, FrameExtras extras, std::size_t count, const CallSite& site);

    // The slots of a pair's frames (xme/session_support.hpp); a claimed one the caller uploads and pads,
    // in stream order after every earlier search that read the slot.
    [[nodiscard]] ResidentFrameSlots::PairSlots place(std::int64_t reference_id, std::int64_t current_id) {
        return ids_.place(reference_id, current_id);
    }
    [[nodiscard]] const DeviceFrame& frame(int slot) const {
        return slots_[static_cast<std::size_t>(slot)].frame;
    }
    // Forgets every id (after an error left a slot half written).
    void forget() { ids_.forget(); }

private:
    struct Slot {
        DeviceMemory pixels;
        DeviceMemory expanded;
        Texture texture;
        DeviceMemory levels;
        DeviceFrame frame;
    };
    std::vector<Slot> slots_;
    ResidentFrameSlots ids_;
};

}  // namespace xme::cuda
