// Holds all but KEEP_MIB of the GPU's free memory for SECONDS, so that xme's out-of-memory path can be
// provoked for real (issue 15): tools/device/fill_gpu_memory KEEP_MIB SECONDS &
// Build: nvcc -O2 -o fill_gpu_memory tools/device/fill_gpu_memory.cu
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    const std::size_t keep = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64) << 20;
    const int seconds = argc > 2 ? std::atoi(argv[2]) : 60;
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return 1;
    std::vector<void*> blocks;
    std::size_t held = 0;
    // Plain allocations in 256 MiB pieces, then smaller ones, until only `keep` bytes are left.
    for (std::size_t piece = std::size_t{256} << 20; piece >= (std::size_t{1} << 20); piece /= 2) {
        for (;;) {
            cudaMemGetInfo(&free_bytes, &total_bytes);
            if (free_bytes < keep + piece) break;
            void* p = nullptr;
            if (cudaMalloc(&p, piece) != cudaSuccess) break;
            blocks.push_back(p);
            held += piece;
        }
    }
    cudaMemGetInfo(&free_bytes, &total_bytes);
    std::printf("fill_gpu_memory: holding %zu MiB, %zu MiB free of %zu MiB\n", held >> 20, free_bytes >> 20,
                total_bytes >> 20);
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    return 0;
}
