// SPEC §1 on the device: the raw upload (tightly packed W x H) becomes the edge-replicated padded frame,
// and for the fast variants also its expanded copy, where word c of a row holds bytes c..c+3: any
// unaligned 4-byte run of the frame is then one aligned 32-bit load.
#include "kernels.hpp"

namespace xme::cuda {
namespace {

__device__ __forceinline__ std::uint32_t sample(const std::uint8_t* raw, const FrameLayout& f, int column, int row) {
    const int x = min(max(column - f.margin_x, 0), f.width - 1);
    const int y = min(max(row - f.margin_y, 0), f.height - 1);
    return raw[static_cast<std::size_t>(y) * f.width + x];
}

// One thread per 4 columns of one row: writes one word of the padded frame and 4 expanded words.
__global__ void pad_frame_kernel(const std::uint8_t* __restrict__ raw, FrameLayout f, DeviceFrame out) {
    const int groups = f.pitch / 4;
    const int group = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int row = static_cast<int>(blockIdx.y);
    if (group >= groups) return;
    const int c = 4 * group;
    std::uint32_t bytes[7];
#pragma unroll
    for (int i = 0; i < 7; ++i) bytes[i] = sample(raw, f, min(c + i, f.pitch - 1), row);
    const std::size_t at = static_cast<std::size_t>(row) * f.pitch + c;
    reinterpret_cast<std::uint32_t*>(out.pixels + at)[0] =
        bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (bytes[3] << 24);
    if (out.expanded != nullptr) {
        uint4 words;
        words.x = bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (bytes[3] << 24);
        words.y = bytes[1] | (bytes[2] << 8) | (bytes[3] << 16) | (bytes[4] << 24);
        words.z = bytes[2] | (bytes[3] << 8) | (bytes[4] << 16) | (bytes[5] << 24);
        words.w = bytes[3] | (bytes[4] << 8) | (bytes[5] << 16) | (bytes[6] << 24);
        reinterpret_cast<uint4*>(out.expanded + at)[0] = words;
    }
}

}  // namespace

cudaError_t launch_pad_frame(const std::uint8_t* raw, const FrameLayout& layout, DeviceFrame frame, cudaStream_t stream) {
    constexpr int threads = 128;
    const int groups = layout.pitch / 4;
    const dim3 grid(static_cast<unsigned>((groups + threads - 1) / threads), static_cast<unsigned>(layout.rows));
    pad_frame_kernel<<<grid, threads, 0, stream>>>(raw, layout, frame);
    return cudaGetLastError();
}

}  // namespace xme::cuda
