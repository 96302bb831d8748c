// SPEC §11's tz on CUDA (fast_search_kernel.cuh, tz_walk.cuh).
#include "fast_search_kernel.cuh"

namespace xme::cuda {

cudaError_t launch_fast_search_tz(const SearchJob& job, Refinement refinement, cudaStream_t stream) {
    return fast_search::launch_walk<Walk::tz>(job, false, refinement, stream);
}

}  // namespace xme::cuda
