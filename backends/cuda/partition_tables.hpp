// SPEC §9 on CUDA: the partition kernels' key tables, shared with the Vulkan backend in
// xme/partition_keys.hpp; named here in xme::cuda, where the kernels and the emulation test use them.
#pragma once

#include "xme/partition_keys.hpp"

namespace xme::cuda {

using xme::make_partition_tables;
using xme::partition_predictor_bound;
using xme::partition_radius;
using xme::partition_tables_fit;
using xme::PartitionTables;

}  // namespace xme::cuda
