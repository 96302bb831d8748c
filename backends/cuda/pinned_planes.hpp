// Pinned host memory for the frames a reader fills (Device::plane_memory): a session uploads such a
// plane with one asynchronous copy, without first copying it into its own staging (0.18 ms of a
// 1080p pair on the worker's thread: docs/scheduler.md, "Reading"). Portable, so every GPU of the process
// reads it. cudaHostAlloc takes milliseconds, so released buffers are kept for reuse, by size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "xme/frame.hpp"

namespace xme::cuda {

class PinnedPlanes final : public PlaneMemory {
public:
    PinnedPlanes() = default;
    ~PinnedPlanes() override;
    PinnedPlanes(const PinnedPlanes&) = delete;
    PinnedPlanes& operator=(const PinnedPlanes&) = delete;

    // Null where the driver has no pinned memory to give (the plane then takes ordinary memory, which
    // sessions stage as before).
    [[nodiscard]] std::uint8_t* allocate(std::size_t bytes) override;
    void release(std::uint8_t* data, std::size_t bytes) noexcept override;

private:
    static constexpr std::size_t kMaxKept = 64;  // buffers kept for reuse (a job's window of frames)
    std::mutex mutex_;
    std::multimap<std::size_t, std::uint8_t*> kept_;
};

// Whether `data` is pinned host memory (a PinnedPlanes buffer, or any the CUDA runtime pinned).
[[nodiscard]] bool is_pinned(const void* data);

}  // namespace xme::cuda
