// The rate-constrained searches of SPEC §8 (host side): which kernel a job takes, and their launchers.
//
// - Centre 0 with no predictor or the temporal one: the fast full search with the rate term folded into
//   its keys (full_search_fast.cu), records after (rate_fast_support.cu), then the usual refinement
//   kernels. Its 32-bit keys bound J; when the bound
//   does not hold (huge lambda, huge range, a predictor far outside the window) the job takes:
// - The block kernel (rate_search_block.cu): one CUDA block per image block, its threads over the
//   candidates, the refinement inside. It runs every chain, and the only one for the spatial predictor
//   (a wavefront: one CUDA block per row of image blocks, each waiting for the row above to be two blocks
//   ahead) and for a window centred on the predictor.
#pragma once

#include <cstdint>

#include "kernels.hpp"
#include "xme/params.hpp"

namespace xme::cuda {

// The fast kernel's per-block row terms (rate_row_term), dy in -range .. range + 10, built by each CUDA
// block in shared memory for the image blocks its items cover.
struct RateRows {
    int stride = 0;
    int rank_bits = 0;
};

[[nodiscard]] int rate_row_stride(int range);
[[nodiscard]] int rate_rank_bits(int range);
// Whether the fast kernel's 32-bit keys hold J << rank_bits for this job when every predictor
// component lies within +-predictor_bound (quarter-pel).
[[nodiscard]] bool fast_rate_fits(int block_size, int range, int lambda, int predictor_bound);

// The fast search with the rate term; `keys` must hold ~0 before it runs.
cudaError_t launch_full_search_fast_rate(const SearchJob& job, const RateRows& rows, cudaStream_t stream);
// The fast search's keys to job.records (candidates 0 marks a block that got no key).
cudaError_t launch_rate_records(const SearchJob& job, cudaStream_t stream);
enum class Refinement { none, half, quarter };

// Every chain of fs, fs+hpel and fs+qpel, writing job.records; wavefront_order jobs need job.rate.wavefront
// zeroed.
cudaError_t launch_full_search_block(const SearchJob& job, Refinement refinement, cudaStream_t stream);
// SPEC §11's fast searches with the refinement, one warp per block (walk_search_kernel.cuh), writing
// job.records; wavefront_order jobs need job.rate.wavefront zeroed; ehds needs job.pyramid
// (launch_mean_pyramid); a search whose row needs the predictor set (umh) job.rate.predictor_set, and
// job.rate.previous past a segment's start.
// The launcher of each search's walk, from the table of search kernels (search_kernels.cpp); null for a
// search this backend has no walk for.
using SearchLauncher = cudaError_t (*)(const SearchJob& job, Refinement refinement, cudaStream_t stream);
[[nodiscard]] const SearchLauncher* find_search_launcher(SearchMethod search);

}  // namespace xme::cuda
