// SPEC §11's dia and hex on CUDA (fast_search_kernel.cuh), and the launcher of every fast search.
#include "fast_search_kernel.cuh"

namespace xme::cuda {

cudaError_t launch_fast_search(const SearchJob& job, FastSearch search, Refinement refinement,
                               cudaStream_t stream) {
    switch (search) {
        case FastSearch::test_zone:
            return launch_fast_search_tz(job, refinement, stream);
        case FastSearch::ehds:
            return launch_fast_search_ehds(job, refinement, stream);
        default:
            return fast_search::launch_walk<Walk::dia_hex>(job, search == FastSearch::hexagon, refinement,
                                                           stream);
    }
}

}  // namespace xme::cuda
