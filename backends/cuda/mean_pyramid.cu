// ehds's mean pyramid on the device: one thread per level-2 pixel (mean_pyramid.cuh), so one launch
// builds both levels of a frame once, right after its upload.
#include "kernels.hpp"
#include "mean_pyramid.cuh"

namespace xme::cuda {
namespace {

__global__ void mean_pyramid_kernel(const std::uint8_t* __restrict__ raw, int width, int height,
                                    std::uint8_t* __restrict__ level1, std::uint8_t* __restrict__ level2) {
    const int x2 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y2 = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x2 >= pyramid_side(width, 2) || y2 >= pyramid_side(height, 2)) return;
    pyramid_pixel(raw, width, height, x2, y2, level1, level2);
}

}  // namespace

cudaError_t launch_mean_pyramid(const std::uint8_t* raw, const FrameLayout& layout, DeviceFrame frame,
                                cudaStream_t stream) {
    const dim3 threads(32, 8);
    const int w2 = pyramid_side(layout.width, 2);
    const int h2 = pyramid_side(layout.height, 2);
    const dim3 grid(static_cast<unsigned>((w2 + 31) / 32), static_cast<unsigned>((h2 + 7) / 8));
    mean_pyramid_kernel<<<grid, threads, 0, stream>>>(raw, layout.width, layout.height, frame.levels[0],
                                                      frame.levels[1]);
    return cudaGetLastError();
}

}  // namespace xme::cuda
