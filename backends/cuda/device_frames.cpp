#include "device_frames.hpp"

#include <cstring>
#include <vector>

#include "mean_pyramid.cuh"
#include "xme/params.hpp"

namespace xme::cuda {
namespace {

int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

Stream make_stream(const CallSite& site) {
    cudaStream_t stream = nullptr;
    XME_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), site);
    return Stream(stream);
}

Event make_event(bool timing, const CallSite& site) {
    cudaEvent_t event = nullptr;
    XME_CUDA_CHECK(cudaEventCreateWithFlags(&event, timing ? cudaEventDefault : cudaEventDisableTiming),
                   site);
    return Event(event);
}

DeviceMemory allocate_device(std::size_t bytes, const CallSite& site) {
    void* pointer = nullptr;
    XME_CUDA_CHECK_ALLOC(cudaMalloc(&pointer, bytes), site, bytes);
    return DeviceMemory(pointer);
}

PinnedMemory allocate_pinned(std::size_t bytes, const CallSite& site) {
    void* pointer = nullptr;
    XME_CUDA_CHECK_ALLOC(cudaHostAlloc(&pointer, bytes, cudaHostAllocDefault), site, bytes);
    return PinnedMemory(pointer);
}

DeviceMemory make_rank_table(int range, const CallSite& site) {
    std::vector<std::uint32_t> ranks;
    for (int dy = -range; dy <= range; ++dy)
        ranks.push_back(static_cast<std::uint32_t>(dy < 0 ? -2 * dy - 1 : 2 * dy));
    const std::size_t bytes = ranks.size() * sizeof(std::uint32_t);
    DeviceMemory table = allocate_device(bytes, site);
    XME_CUDA_CHECK(cudaMemcpy(table.get(), ranks.data(), bytes, cudaMemcpyHostToDevice), site);
    return table;
}

FrameLayout make_layout(int width, int height, int block_size, int range) {
    FrameLayout f;
    f.width = width;
    f.height = height;
    f.padded_width = blocks_across(width, block_size) * block_size;
    f.padded_height = blocks_across(height, block_size) * block_size;
    // range + 1 for the half-pel sample, + up to 10 rows past the window for the fast kernel's last
    // chunk of candidate rows, + 3 bytes for the last expanded word: 16 covers them all.
    f.margin_x = round_up(range + 16, 16);
    f.margin_y = range + 16;
    f.pitch = round_up(f.padded_width + 2 * f.margin_x, 256);
    f.rows = f.padded_height + 2 * f.margin_y;
    return f;
}

ResidentFrames::ResidentFrames(const FrameLayout& layout, FrameExtras extras, std::size_t count,
                               const CallSite& site)
    : slots_(count), ids_(count) {
    const std::size_t bytes = static_cast<std::size_t>(layout.pitch) * static_cast<std::size_t>(layout.rows);
    for (Slot& slot : slots_) {
        // Texture base addresses must be aligned to textureAlignment: allocate that much more.
        slot.pixels = allocate_device(bytes + extras.texture_alignment, site);
        const auto base = reinterpret_cast<std::uintptr_t>(slot.pixels.get());
        const auto aligned =
            (base + extras.texture_alignment - 1) / extras.texture_alignment * extras.texture_alignment;
        slot.frame.pixels = reinterpret_cast<std::uint8_t*>(aligned);
        if (extras.expanded) {
            slot.expanded = allocate_device(bytes * sizeof(std::uint32_t), site);
            slot.frame.expanded = static_cast<std::uint32_t*>(slot.expanded.get());
        }
        if (extras.pyramid) {
            const auto level_bytes = [&](int level) {
                return static_cast<std::size_t>(pyramid_side(layout.width, level)) *
                       static_cast<std::size_t>(pyramid_side(layout.height, level));
            };
            slot.levels = allocate_device(level_bytes(1) + level_bytes(2), site);
            slot.frame.levels[0] = static_cast<std::uint8_t*>(slot.levels.get());
            slot.frame.levels[1] = slot.frame.levels[0] + level_bytes(1);
        }
        if (extras.texture) {
            cudaResourceDesc resource;
            std::memset(&resource, 0, sizeof(resource));
            resource.resType = cudaResourceTypePitch2D;
            resource.res.pitch2D.devPtr = slot.frame.pixels;
            resource.res.pitch2D.desc = cudaCreateChannelDesc<unsigned char>();
            resource.res.pitch2D.width = static_cast<std::size_t>(layout.pitch);
            resource.res.pitch2D.height = static_cast<std::size_t>(layout.rows);
            resource.res.pitch2D.pitchInBytes = static_cast<std::size_t>(layout.pitch);
            cudaTextureDesc texture;
            std::memset(&texture, 0, sizeof(texture));
            texture.addressMode[0] = cudaAddressModeClamp;
            texture.addressMode[1] = cudaAddressModeClamp;
            texture.filterMode = cudaFilterModeLinear;
            texture.readMode = cudaReadModeNormalizedFloat;
            texture.normalizedCoords = 0;
            cudaTextureObject_t object = 0;
            XME_CUDA_CHECK(cudaCreateTextureObject(&object, &resource, &texture, nullptr), site);
            slot.texture = Texture(object);
            slot.frame.texture = object;
        }
    }
}

}  // namespace xme::cuda
