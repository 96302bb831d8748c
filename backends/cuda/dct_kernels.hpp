// SPEC §13's 8x8 DCT and inverse DCT on the device: the launcher dct_kernels.cu exports. Host-only
// types, as kernels.hpp: no xme headers (they are C++20; nvcc compiles this backend as C++17).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace xme::cuda {

// xme::TransformAlgorithm and xme::TransformDirection, mirrored.
enum class DctVariant { matrix, loeffler };
enum class DctDirection { forward, inverse };

// The transform of `count` blocks of 64 int16 each (xme::Block8x8's layout: row-major, 128 bytes), from
// `in` to `out` (distinct buffers, both 16-byte aligned, as cudaMalloc's are), bit-identical with
// xme::reference::transform_block. Forward inputs must lie in -2048..2047 (the caller checks: see
// xme::check_forward_inputs); an inverse output is rounded and clipped to -256..255. One launch, on
// `stream`; returns cudaGetLastError() after it (count 0 launches nothing and returns cudaSuccess).
cudaError_t launch_dct(DctVariant variant, DctDirection direction, const std::int16_t* in, std::int16_t* out,
                       std::size_t count, cudaStream_t stream);

}  // namespace xme::cuda
