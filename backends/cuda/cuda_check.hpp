// Every CUDA call of the backend goes through check(): a failure becomes Error(device) naming the call,
// the device and the frame, with CUDA's own error name and text. Running out of memory says how much
// was asked and what to try; a lost device says the job cannot go on.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace xme::cuda {

// What a failing call was doing, for the message: "cuda:0, frame 12".
struct CallSite {
    std::string device;          // "cuda:0"
    std::int64_t frame = -1;     // the frame (current id) being worked on; -1: none
    std::string frame_size;      // "1920x1080, block 16, range 16": for out-of-memory advice
};

// "cudaErrorMemoryAllocation: out of memory"
[[nodiscard]] std::string describe(cudaError_t error);

// Errors after which the CUDA context is unusable (the device was lost, a kernel faulted).
[[nodiscard]] bool is_sticky(cudaError_t error);

// Throws Error(ErrorKind::device) when error != cudaSuccess. `bytes` is the size of the allocation
// the call made, if it was one (for the out-of-memory message).
void check(cudaError_t error, const char* call, const CallSite& site, std::size_t bytes = 0);

}  // namespace xme::cuda

// Checks a runtime call and names it by its source text.
#define XME_CUDA_CHECK(call, site) ::xme::cuda::check((call), #call, (site))
#define XME_CUDA_CHECK_ALLOC(call, site, bytes) ::xme::cuda::check((call), #call, (site), (bytes))
