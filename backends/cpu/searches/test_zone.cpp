#include "tz_search_impl.hpp"

namespace xme::cpu {

IntegerResult tz_search(const IntegerBlock& block) {
    if (block.size == 16 && block.kernels->tz_search16 != nullptr) return block.kernels->tz_search16(block);
    return tz_search_with<CandidateSearch>(block);
}

XME_CPU_SEARCH(test_zone) { return tz_search(block); }

}  // namespace xme::cpu
