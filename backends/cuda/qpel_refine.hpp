// SPEC §10's quarter-pel refinement as a pass of its own (host-only declarations; qpel_refine.cu).
// The device function that other kernels call per block is refine_qpel_warp in qpel_refine.cuh.
#pragma once

#include <cuda_runtime.h>

#include "kernels.hpp"

namespace xme::cuda {

// Refines every block's integer winner in job.records (rate.active chains) in place: one warp per image
// block, predictor p = job.rate.temporal[block]'s vector when temporal is set, else (0, 0); lambda =
// job.rate.lambda. The result is {refined vector, J = SATD + lambda * R(mv - p), the record's candidates}.
// cudaErrorInvalidValue, with nothing launched, for a block size other than 4, 8, 16, 32, lambda outside
// 0..65535, or frames whose words are not 4-byte aligned.
cudaError_t launch_qpel_refine(const SearchJob& job, cudaStream_t stream);
// The same with the integer winners taken from the fast search's keys (job.keys, rate_fast.hpp) instead
// of job.records, which it writes: launch_rate_records's work folded in, one launch less per frame.
cudaError_t launch_qpel_refine_keys(const SearchJob& job, cudaStream_t stream);
// The same from the plain fast search's keys (launch_full_search_fast, xme/search_key.hpp): for lambda 0 with
// no predictor and the window centred on 0, where the rate kernel's key orders candidates as the plain
// key does and its rate rows are work for nothing.
cudaError_t launch_qpel_refine_plain_keys(const SearchJob& job, cudaStream_t stream);

}  // namespace xme::cuda
