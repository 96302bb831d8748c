#include <algorithm>
#include <cstring>
#include <string>

#include "xme/backend.hpp"
#include "xme/error.hpp"
#include "xme/kernel_table.hpp"
#include "xme/macroblock.hpp"
#include "xme/operations.hpp"
#include "xme/partition_keys.hpp"
#include "xme/session_support.hpp"

namespace xme {

MotionField estimate_pair(Device& device, const SessionOptions& options, PlaneView reference,
                          PlaneView current) {
    auto session = device.open_session(options);
    session->submit({0, reference, 1, current});
    return session->receive().field;
}

void SynchronousSession::submit(const FramePair& pair) { done_.push_back(compute(pair)); }

PairResult SynchronousSession::receive() {
    if (done_.empty()) throw no_pair_submitted();
    PairResult result = std::move(done_.front());
    done_.pop_front();
    return result;
}

Support search_kernel_support(const std::string& device, SearchMethod search, bool has_kernel) {
    if (has_kernel) return Support::yes();
    const StageDescription& row = describe(search);
    return Support::no(
        device + " has no kernel for the " + std::string(row.name) + " search (SPEC " +
        std::string(row.spec) + ": " + std::string(row.summary) +
        "): this backend does not implement it; 'xme devices' lists the searches each device runs");
}

Support full_search_chains_only(const DeviceInfo& device, const SessionOptions& options,
                                std::uint32_t halfpel_tolerance, const std::string& other_variant) {
    const SearchParams& p = options.params;
    std::string missing;
    const auto lacks = [&](bool condition, const std::string& what) {
        if (condition) missing += (missing.empty() ? "" : ", ") + what;
    };
    lacks(p.search != SearchMethod::full, "the " + std::string(to_string(p.search)) + " search");
    lacks(p.subpel == Subpel::qpel, "quarter-pel refinement");
    lacks(p.partitions == Partitions::all, "the 41 partitions of SPEC §9");
    lacks(p.lambda > 0, "the rate term (lambda > 0)");
    lacks(p.predictor != Predictor::none, "the " + std::string(to_string(p.predictor)) + " predictor");
    if (missing.empty()) return Support::yes(p.subpel == Subpel::hpel ? halfpel_tolerance : 0);
    const std::string subject =
        other_variant.empty() ? device.name : device.name + "'s " + options.variant + " variant";
    const std::string elsewhere = other_variant.empty() ? "" : "--variant " + other_variant + ", ";
    return Support::no(
        subject + " computes fs and fs+hpel only, without " + missing + ": run this chain with " + elsewhere +
        "--backend cpu (it computes every chain) or --backend reference (the scalar oracle: slow)");
}

Support gpu_partition_support(const std::string& device, const SearchParams& p) {
    std::string missing;
    const auto lacks = [&](bool condition, const std::string& what) {
        if (condition) missing += (missing.empty() ? "" : ", ") + what;
    };
    lacks(p.search != SearchMethod::full, "the " + std::string(to_string(p.search)) + " search (SPEC §11)");
    lacks(p.subpel == Subpel::hpel, "the bilinear half-pel refinement");
    if (!missing.empty()) {
        return Support::no(device +
                           " runs the 41 partitions of SPEC §9 as fs+p41 and fs+p41+qpel (any predictor, any "
                           "lambda, either window centre), not with " +
                           missing +
                           ": run this chain with --backend cpu (it computes every chain) or --backend "
                           "reference (the scalar oracle: slow)");
    }
    if (p.block_size != macroblock_size) {
        return Support::no(device + ": SPEC §9's partitions need --block 16, got " +
                           std::to_string(p.block_size));
    }
    const bool predictor = p.predictor != Predictor::none;
    if (!partition_tables_fit(p.range, p.lambda, predictor,
                              predictor && p.centre == WindowCentre::predictor)) {
        return Support::no(device + ": the partition search's 32-bit keys cannot hold range " +
                           std::to_string(p.range) + " with lambda " + std::to_string(p.lambda) +
                           " (J << rank bits, xme/partition_keys.hpp): use a smaller range or lambda, or "
                           "--backend cpu");
    }
    return Support::yes();
}

Int16Plane plane_from_tiles(const void* tiles, int width, int height) {
    const auto* bytes = static_cast<const unsigned char*>(tiles);
    const auto tiles_x = static_cast<std::size_t>((width + 7) / 8);
    Int16Plane plane(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const std::size_t tile =
                static_cast<std::size_t>(y >> 3) * tiles_x + static_cast<std::size_t>(x >> 3);
            const std::size_t element = tile * 64 + static_cast<std::size_t>((y & 7) * 8 + (x & 7));
            std::memcpy(&plane.at(x, y), bytes + element * sizeof(std::int16_t), sizeof(std::int16_t));
        }
    }
    return plane;
}

Support Device::supports_compensation(const SessionOptions& /*options*/) const {
    return Support::no(info().name +
                       " does not compute SPEC §12-§13's compensation itself: the host "
                       "computes it from each pair's result");
}

Support Device::supports_transform(TransformAlgorithm algorithm) const {
    return Support::no(info().name + " does not compute SPEC §13's " + to_string(algorithm) +
                       " transform yet: the cpu and cuda devices and the reference do");
}

void Device::transform_blocks(TransformAlgorithm algorithm, TransformDirection /*direction*/,
                              std::span<Block8x8> /*blocks*/) {
    require_supported(supports_transform(algorithm));
    throw Error(ErrorKind::unsupported, info().name + " says it supports the " +
                                            std::string(to_string(algorithm)) +
                                            " transform but does not implement transform_blocks");
}

void check_forward_inputs(std::span<const Block8x8> blocks) {
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        for (const std::int16_t sample : blocks[b]) {
            if (sample < dct_input_min || sample > dct_input_max) {
                throw Error(ErrorKind::invalid_argument,
                            "block " + std::to_string(b) + " holds the sample " + std::to_string(sample) +
                                ", outside the forward transform's " + std::to_string(dct_input_min) + ".." +
                                std::to_string(dct_input_max) + " (SPEC §13)");
            }
        }
    }
}

void require_supported(const Support& support) {
    if (!support.supported) throw Error(ErrorKind::unsupported, support.reason);
}

std::string variant_named(const DeviceInfo& device, const SessionOptions& options) {
    if (options.variant.empty()) return device.variants.empty() ? std::string{} : device.variants.front();
    for (const auto& [former, variant] : device.former_variant_names) {
        if (options.variant == former) return variant;
    }
    return options.variant;
}

std::string checked_variant(const DeviceInfo& device, const SessionOptions& options) {
    options.params.validate();
    if (options.width < 1 || options.height < 1 || options.width > max_frame_dimension ||
        options.height > max_frame_dimension) {
        throw Error(ErrorKind::unsupported, "frame size " + std::to_string(options.width) + "x" +
                                                std::to_string(options.height) +
                                                " is not supported: width and height must be 1.." +
                                                std::to_string(max_frame_dimension));
    }
    const std::string variant = variant_named(device, options);
    if (std::find(device.variants.begin(), device.variants.end(), variant) != device.variants.end())
        return variant;
    if (variant.empty()) return variant;
    std::string allowed;
    for (const auto& v : device.variants) allowed += (allowed.empty() ? "" : ", ") + v;
    throw Error(ErrorKind::invalid_argument,
                "device " + device.name + " has no variant '" + options.variant + "': use one of " + allowed);
}

}  // namespace xme
