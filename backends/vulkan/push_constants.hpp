// The push-constant blocks of the shaders, as C++ structs. Pipeline creation compares each with the
// layout SPIRV-Cross reflected from the SPIR-V (size, member names and offsets) and refuses to run
// when shader and C++ disagree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "shader_binary.hpp"

namespace xme::vulkan {

struct Int2 {
    std::int32_t x = 0;
    std::int32_t y = 0;
};

struct FullSearchParams {
    Int2 frame_size;
    Int2 padded_size;
    std::int32_t blocks_x = 0;
    std::int32_t block_count = 0;
    std::int32_t range = 0;
    std::int32_t restrict_border = 0;
    std::int32_t tiles_x = 0;
    std::int32_t tiles_y = 0;
    std::int32_t splits = 1;
    std::int32_t lambda = 0;    // RATE_KEY only
    std::int32_t temporal = 0;  // RATE_KEY only: 1 when p is the previous pair's vector
};

struct HpelRefineParams {
    Int2 frame_size;
    Int2 padded_size;
    std::int32_t blocks_x = 0;
    std::int32_t block_count = 0;
    std::int32_t splits = 1;
    std::int32_t restrict_border = 0;
    std::int32_t refine = 0;
    std::int32_t lambda = 0;    // RATE_KEY only
    std::int32_t temporal = 0;  // RATE_KEY only
};

struct LegacyPass1Params {
    Int2 padded_size;
    Int2 blocks;
    std::int32_t range = 0;
    std::int32_t restrict_border = 0;
    std::int32_t pe_count = 0;
    std::int32_t pe_width = 0;
    std::int32_t pe_height = 0;
};

struct LegacyPass2Params {
    Int2 padded_size;
    Int2 blocks;
    std::int32_t restrict_border = 0;
    std::int32_t refine = 0;
    std::int32_t pe_count = 0;
    std::int32_t pe_width = 0;
};

struct SadPeakParams {
    std::int32_t iterations = 0;
};

struct RateSearchParams {
    Int2 frame_size;
    Int2 padded_size;
    std::int32_t blocks_x = 0;
    std::int32_t blocks_y = 0;
    std::int32_t range = 0;
    std::int32_t restrict_border = 0;
    std::int32_t refine = 0;
    std::int32_t lambda = 0;
    std::int32_t predictor = 0;  // p: 0: zero, 1: temporal, 2: spatial (rate_search.comp)
    std::int32_t centre_on_predictor = 0;
    std::int32_t wavefront = 0;      // 1: blocks in SPEC §8's wavefront steps (record_wavefront)
    std::int32_t has_previous = 0;   // 1: Previous holds the previous pair of this segment
    std::int32_t predictor_set = 0;  // 1: the search reads SPEC §8's predictor set
    std::int32_t step = 0;
    std::int32_t first_row = 0;
};

// partition_search.comp (SPEC §9).
struct PartitionSearchParams {
    Int2 frame_size;
    Int2 padded_size;
    std::int32_t blocks_x = 0;
    std::int32_t range = 0;
    std::int32_t restrict_border = 0;
    std::int32_t lambda = 0;
    std::int32_t predictor = 0;  // 1: temporal, 2: spatial, 0: none or a segment's first pair
    std::int32_t centred = 0;
    std::int32_t rank_bits = 0;  // xme/partition_keys.hpp's tables
    std::int32_t radius = 0;
    std::int32_t side = 0;
    std::int32_t step = 0;  // spatial: the wavefront step (record_wavefront)
    std::int32_t first_row = 0;
};

struct MeanPyramidParams {
    Int2 frame_size;
};

struct DctParams {
    std::uint32_t block_count = 0;
    std::uint32_t first_block = 0;
};

// predict_residual.comp, quantise.comp and reconstruct.comp (compensation_common.glsl).
struct CompensationParams {
    Int2 frame_size;
    std::int32_t blocks_x = 0;
    std::int32_t tiles_x = 0;
    std::int32_t prediction_pitch = 0;
    std::int32_t quantiser_step = 1;
};

// What a push-constant struct looks like, for the comparison with the reflected block.
struct PushConstantLayout {
    std::uint32_t size = 0;
    std::span<const ShaderMember> members;
};

template <class Params>
struct PushConstantsOf;

#define XME_MEMBER(type, member) \
    ShaderMember { #member, static_cast < std::uint32_t>(offsetof(type, member)) }

template <>
struct PushConstantsOf<FullSearchParams> {
    using P = FullSearchParams;
    static constexpr std::array members{
        XME_MEMBER(P, frame_size),  XME_MEMBER(P, padded_size), XME_MEMBER(P, blocks_x),
        XME_MEMBER(P, block_count), XME_MEMBER(P, range),       XME_MEMBER(P, restrict_border),
        XME_MEMBER(P, tiles_x),     XME_MEMBER(P, tiles_y),     XME_MEMBER(P, splits),
        XME_MEMBER(P, lambda),      XME_MEMBER(P, temporal)};
};

template <>
struct PushConstantsOf<HpelRefineParams> {
    using P = HpelRefineParams;
    static constexpr std::array members{
        XME_MEMBER(P, frame_size),  XME_MEMBER(P, padded_size), XME_MEMBER(P, blocks_x),
        XME_MEMBER(P, block_count), XME_MEMBER(P, splits),      XME_MEMBER(P, restrict_border),
        XME_MEMBER(P, refine),      XME_MEMBER(P, lambda),      XME_MEMBER(P, temporal)};
};

template <>
struct PushConstantsOf<LegacyPass1Params> {
    using P = LegacyPass1Params;
    static constexpr std::array members{XME_MEMBER(P, padded_size), XME_MEMBER(P, blocks),
                                        XME_MEMBER(P, range),       XME_MEMBER(P, restrict_border),
                                        XME_MEMBER(P, pe_count),    XME_MEMBER(P, pe_width),
                                        XME_MEMBER(P, pe_height)};
};

template <>
struct PushConstantsOf<LegacyPass2Params> {
    using P = LegacyPass2Params;
    static constexpr std::array members{XME_MEMBER(P, padded_size),     XME_MEMBER(P, blocks),
                                        XME_MEMBER(P, restrict_border), XME_MEMBER(P, refine),
                                        XME_MEMBER(P, pe_count),        XME_MEMBER(P, pe_width)};
};

template <>
struct PushConstantsOf<SadPeakParams> {
    using P = SadPeakParams;
    static constexpr std::array members{XME_MEMBER(P, iterations)};
};

template <>
struct PushConstantsOf<RateSearchParams> {
    using P = RateSearchParams;
    static constexpr std::array members{XME_MEMBER(P, frame_size),    XME_MEMBER(P, padded_size),
                                        XME_MEMBER(P, blocks_x),      XME_MEMBER(P, blocks_y),
                                        XME_MEMBER(P, range),         XME_MEMBER(P, restrict_border),
                                        XME_MEMBER(P, refine),        XME_MEMBER(P, lambda),
                                        XME_MEMBER(P, predictor),     XME_MEMBER(P, centre_on_predictor),
                                        XME_MEMBER(P, wavefront),     XME_MEMBER(P, has_previous),
                                        XME_MEMBER(P, predictor_set), XME_MEMBER(P, step),
                                        XME_MEMBER(P, first_row)};
};

template <>
struct PushConstantsOf<PartitionSearchParams> {
    using P = PartitionSearchParams;
    static constexpr std::array members{XME_MEMBER(P, frame_size),
                                        XME_MEMBER(P, padded_size),
                                        XME_MEMBER(P, blocks_x),
                                        XME_MEMBER(P, range),
                                        XME_MEMBER(P, restrict_border),
                                        XME_MEMBER(P, lambda),
                                        XME_MEMBER(P, predictor),
                                        XME_MEMBER(P, centred),
                                        XME_MEMBER(P, rank_bits),
                                        XME_MEMBER(P, radius),
                                        XME_MEMBER(P, side),
                                        XME_MEMBER(P, step),
                                        XME_MEMBER(P, first_row)};
};

template <>
struct PushConstantsOf<MeanPyramidParams> {
    using P = MeanPyramidParams;
    static constexpr std::array members{XME_MEMBER(P, frame_size)};
};

template <>
struct PushConstantsOf<DctParams> {
    using P = DctParams;
    static constexpr std::array members{XME_MEMBER(P, block_count), XME_MEMBER(P, first_block)};
};

template <>
struct PushConstantsOf<CompensationParams> {
    using P = CompensationParams;
    static constexpr std::array members{XME_MEMBER(P, frame_size), XME_MEMBER(P, blocks_x),
                                        XME_MEMBER(P, tiles_x), XME_MEMBER(P, prediction_pitch),
                                        XME_MEMBER(P, quantiser_step)};
};

#undef XME_MEMBER

template <class Params>
[[nodiscard]] PushConstantLayout push_constant_layout() {
    return {static_cast<std::uint32_t>(sizeof(Params)), PushConstantsOf<Params>::members};
}

}  // namespace xme::vulkan
