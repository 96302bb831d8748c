// The contract a backend implements. The engine and the tools see backends only through this.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xme/device.hpp"

namespace xme {

class Backend {
public:
    virtual ~Backend() = default;
    // The family name, the part of a device name before ':' ("cpu", "cuda", "vulkan").
    [[nodiscard]] virtual std::string name() const = 0;
    // Every device found, available or not. A backend that cannot start at all (no driver, no
    // loader) returns one unavailable entry named after itself, with the reason.
    [[nodiscard]] virtual std::vector<DeviceInfo> devices() = 0;
    // Opens a device listed by devices(); throws Error(device) with the reason otherwise. Called from
    // several threads at once for different devices (the scheduler opens a job's devices in parallel).
    [[nodiscard]] virtual std::unique_ptr<Device> open(std::string_view device_name) = 0;
};

// Optional base for devices that compute each pair synchronously inside submit().
class SynchronousSession : public MotionSession {
public:
    void submit(const FramePair& pair) final;
    [[nodiscard]] PairResult receive() final;
    [[nodiscard]] std::size_t pending() const final { return done_.size(); }

protected:
    [[nodiscard]] virtual PairResult compute(const FramePair& pair) = 0;

private:
    std::deque<PairResult> done_;
};

// The answer of a device whose kernels compute full search and the bilinear half-pel refinement of
// SPEC §3-§4 only (no rate term, predictor or fast search yet): yes for those chains, with
// `halfpel_tolerance` for fs+hpel (SPEC §6; 0 when exact), and a reason naming what is missing
// otherwise. `other_variant`: a variant of the same device that runs every chain, named in the reason
// (the reason then speaks of options.variant, not of the whole device).
[[nodiscard]] Support full_search_chains_only(const DeviceInfo& device, const SessionOptions& options,
                                              std::uint32_t halfpel_tolerance = 0,
                                              const std::string& other_variant = {});

// The GPU backends' answer for SPEC §9's 41 partitions (their kernels run fs+p41 and fs+p41+qpel with
// any predictor, lambda and window centre, on 16x16 macroblocks, with the 32-bit keys of
// xme/partition_keys.hpp): yes, or what they lack of `params`' chain and what to do. `device` names
// who answers ("cuda:0 variant fast"). One answer, so that CUDA and Vulkan refuse alike.
[[nodiscard]] Support gpu_partition_support(const std::string& device, const SearchParams& params);

// A width x height plane from the tile-major layout the GPU compensation kernels write (the residual,
// the coefficients; tile_element in compensation_pixel.cuh and compensation_common.glsl): 8x8 tiles of
// 64 int16, row by row within a tile, tiles row-major with ceil(width / 8) per row. `tiles` need not
// be aligned (a mapped readback buffer at any offset).
[[nodiscard]] Int16Plane plane_from_tiles(const void* tiles, int width, int height);

// Throws Error(unsupported) with the support answer's reason when it is no.
void require_supported(const Support& support);

// Throws Error(invalid_argument) naming the first block with a sample outside the forward transform's
// range (SPEC §13): what transform_blocks checks before it changes any block.
void check_forward_inputs(std::span<const Block8x8> blocks);

// Checks options shared by every backend: parameters, frame size, variant name. Returns the
// variant to use (the default when options.variant is empty).
[[nodiscard]] std::string checked_variant(const DeviceInfo& device, const SessionOptions& options);
// The variant `options` names on `device` (a former name resolved; empty: the default), unchecked.
[[nodiscard]] std::string variant_named(const DeviceInfo& device, const SessionOptions& options);

}  // namespace xme
