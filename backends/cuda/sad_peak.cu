// The packed-SAD microbenchmark behind Device::measure_sad_peak(): vabsdiff4 with accumulate (the
// instruction of full_search_fast.cu, sad4()), 16 independent chains per thread, 2048 threads on every
// SM, timed with events. Each instruction is 4 pixel differences.
#include <algorithm>

#include "device_common.cuh"

namespace xme::cuda {
namespace {

constexpr int kChains = 16;
constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) sad_peak_kernel(std::uint32_t* out, std::uint32_t seed, int iterations) {
    std::uint32_t a[kChains];
    std::uint32_t sums[kChains];
    const std::uint32_t b = seed * 0x9E3779B9u ^ threadIdx.x;
#pragma unroll
    for (int i = 0; i < kChains; ++i) {
        a[i] = (seed + static_cast<std::uint32_t>(i)) * 0x01010101u ^ (blockIdx.x << 8);
        sums[i] = 0;
    }
    for (int n = 0; n < iterations; ++n) {
#pragma unroll
        for (int i = 0; i < kChains; ++i) sums[i] = sad4(a[i], b, sums[i]);
    }
    std::uint32_t total = 0;
#pragma unroll
    for (int i = 0; i < kChains; ++i) total += sums[i];
    out[blockIdx.x * kThreads + threadIdx.x] = total;
}

}  // namespace

double measure_vabsdiff4_per_second(int device, cudaError_t* error, const char** failed_call) {
    std::uint32_t* out = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    double best = -1;
    auto fail = [&](cudaError_t e, const char* call) {
        if (*error == cudaSuccess && e != cudaSuccess) {
            *error = e;
            *failed_call = call;
        }
        return e != cudaSuccess;
    };
    *error = cudaSuccess;
    cudaDeviceProp prop{};
    if (fail(cudaSetDevice(device), "cudaSetDevice") ||
        fail(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties")) {
        return -1;
    }
    const int blocks = prop.multiProcessorCount * std::max(1, prop.maxThreadsPerMultiProcessor / kThreads);
    constexpr int iterations = 1 << 13;
    if (!fail(cudaMalloc(&out, sizeof(std::uint32_t) * static_cast<std::size_t>(blocks) * kThreads), "cudaMalloc") &&
        !fail(cudaEventCreate(&start), "cudaEventCreate") && !fail(cudaEventCreate(&stop), "cudaEventCreate")) {
        for (int run = 0; run < 4; ++run) {  // the first run warms up clocks and module loading
            sad_peak_kernel<<<blocks, kThreads>>>(out, 12345u + static_cast<std::uint32_t>(run), iterations);  // untimed
            if (fail(cudaGetLastError(), "sad_peak_kernel<<<>>>")) break;
            cudaEventRecord(start);
            sad_peak_kernel<<<blocks, kThreads>>>(out, 777u + static_cast<std::uint32_t>(run), iterations);
            if (fail(cudaGetLastError(), "sad_peak_kernel<<<>>>")) break;
            cudaEventRecord(stop);
            if (fail(cudaEventSynchronize(stop), "cudaEventSynchronize")) break;
            float ms = 0;
            if (fail(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime")) break;
            const double instructions = static_cast<double>(blocks) * kThreads * kChains * iterations;
            if (run > 0) best = std::max(best, instructions / (static_cast<double>(ms) * 1e-3));
        }
    }
    if (start != nullptr) cudaEventDestroy(start);
    if (stop != nullptr) cudaEventDestroy(stop);
    if (out != nullptr) cudaFree(out);
    return *error == cudaSuccess ? best : -1;
}

}  // namespace xme::cuda
