// SPEC §9 on CUDA, host side: the launchers of partition_search.cu.
#pragma once

#include <cuda_runtime.h>

#include "kernels.hpp"
#include "partition_search.cuh"

namespace xme::cuda {

// One CUDA block per macroblock (job.block_size 16), writing records[mb] (the 41 partitions, the mode
// decision) for every macroblock. Centre 0; `tables` from make_partition_tables(range, lambda, predictor),
// which must fit, with this pair's temporal predictors (or none). Both need job.reference_words (the
// expanded reference).
cudaError_t launch_partitions_fast(const SearchJob& job, const p41::Tables& tables,
                                   p41::PartitionRecord* records, cudaStream_t stream);
cudaError_t launch_partitions_positions(const SearchJob& job, const p41::Tables& tables,
                                  p41::PartitionRecord* records, cudaStream_t stream);

// With the spatial predictor (tables.spatial = records, whose neighbours' 16x16 vectors give each p): one
// CUDA block per row of macroblocks in a wavefront, each macroblock searched (fast or positions design),
// refined when quarter_pel and decided before the next row reads it. rows_done: blocks_y + 1 zeroed ints.
cudaError_t launch_partitions_spatial(const SearchJob& job, const p41::Tables& tables, int lambda,
                                      bool quarter_pel, bool positions_design, p41::PartitionRecord* records,
                                      int* rows_done, cudaStream_t stream);

// SPEC §9's sub-pel stage: refines the 41 integer results in `records` in place by SPEC §10 (the
// predictor of `tables`, `lambda`), then decides the mode again on the refined J.
cudaError_t launch_partitions_qpel(const SearchJob& job, const p41::Tables& tables, int lambda,
                                   p41::PartitionRecord* records, cudaStream_t stream);

}  // namespace xme::cuda
