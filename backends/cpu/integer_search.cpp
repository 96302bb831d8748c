#include "integer_search_impl.hpp"

namespace xme::cpu {

template class BasicCandidateSearch<KernelSadX4>;
template void search_start(CandidateSearch&);
template void small_diamond_moves(CandidateSearch&, int);
template void square_neighbours(CandidateSearch&);

}  // namespace xme::cpu
