// `xme bench --transforms matrix,loeffler`: the 8x8 DCT variants' throughput on the host (SPEC §13,
// the engine's code), against the memory bandwidth measured in the same run.
#pragma once

#include <utility>
#include <vector>

#include "xme/dct.hpp"

namespace xme::cli {

// Prints one row per (size, variant, direction) to stdout: 8x8 blocks per second, bytes per second
// (int16 in and out) and that as a fraction of memcpy's read + write bytes per second.
void run_transform_bench(const std::vector<std::pair<int, int>>& sizes,
                         const std::vector<TransformAlgorithm>& variants, int repetitions);

}  // namespace xme::cli
