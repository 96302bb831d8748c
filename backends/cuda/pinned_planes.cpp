#include "pinned_planes.hpp"

#include <cuda_runtime.h>

namespace xme::cuda {

PinnedPlanes::~PinnedPlanes() {
    for (const auto& [bytes, data] : kept_) static_cast<void>(cudaFreeHost(data));
}

std::uint8_t* PinnedPlanes::allocate(std::size_t bytes) {
    {
        const std::lock_guard lock(mutex_);
        if (const auto found = kept_.find(bytes); found != kept_.end()) {
            std::uint8_t* data = found->second;
            kept_.erase(found);
            return data;
        }
    }
    void* data = nullptr;
    if (cudaHostAlloc(&data, bytes, cudaHostAllocPortable) != cudaSuccess) {
        static_cast<void>(cudaGetLastError());  // not sticky; clear it for the next call's check
        return nullptr;
    }
    return static_cast<std::uint8_t*>(data);
}

void PinnedPlanes::release(std::uint8_t* data, std::size_t bytes) noexcept {
    {
        const std::lock_guard lock(mutex_);
        if (kept_.size() < kMaxKept) {
            kept_.emplace(bytes, data);
            return;
        }
    }
    static_cast<void>(cudaFreeHost(data));
}

bool is_pinned(const void* data) {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, data) != cudaSuccess) {
        static_cast<void>(cudaGetLastError());
        return false;
    }
    return attributes.type == cudaMemoryTypeHost;
}

}  // namespace xme::cuda
