// SPEC §11's ehds on CUDA (fast_search_kernel.cuh, ehds_walk.cuh); its pyramid is mean_pyramid.cu's.
#include "fast_search_kernel.cuh"

namespace xme::cuda {

cudaError_t launch_fast_search_ehds(const SearchJob& job, Refinement refinement, cudaStream_t stream) {
    return fast_search::launch_walk<Walk::ehds>(job, false, refinement, stream);
}

}  // namespace xme::cuda
