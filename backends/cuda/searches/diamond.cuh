// SPEC §11's dia on fast_walk.cuh's tracker: §11's start, then the small diamond (at most R moves).
#pragma once

#include "fast_walk.cuh"

namespace xme::cuda::walk {

template <>
struct Walk<SearchMethod::diamond> {
    template <class Warp, class T>
    XME_QPEL_HD static std::uint32_t run(Warp& /*warp*/, T& t, const SearchJob& /*job*/, int /*x*/, int /*y*/,
                                         const PredictorSet& /*set*/) {
        start(t);
        small_diamond(t, t.bounds.range);
        return 0;
    }
};

}  // namespace xme::cuda::walk
