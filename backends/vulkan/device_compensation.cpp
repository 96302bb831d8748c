#include "device_compensation.hpp"

#include <algorithm>
#include <cstring>

#include "dct_spv.hpp"
#include "expand_partitions_spv.hpp"
#include "predict_residual_spv.hpp"
#include "quantise_spv.hpp"
#include "reconstruct_spv.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"
#include "xme/metrics.hpp"
#include "xme/motion_compensation.hpp"

namespace xme::vulkan {
namespace {

// compensation_common.glsl: |residual|, energy, zeros, reconstruction, prediction and zero-motion errors
constexpr int figure_count = 6;
constexpr VkDeviceSize figure_bytes = figure_count * 8;
constexpr std::uint32_t dct_blocks_per_group = 8;  // dct.comp

constexpr VkBufferUsageFlags plane_usage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

VkDeviceSize round_up(VkDeviceSize n, VkDeviceSize multiple) {
    return (n + multiple - 1) / multiple * multiple;
}

int tiles_across(int samples) { return (samples + 7) / 8; }

// The tile planes' bytes: 64 int16 per 8x8 tile.
VkDeviceSize tile_plane_bytes(int width, int height) {
    return static_cast<VkDeviceSize>(tiles_across(width)) * static_cast<VkDeviceSize>(tiles_across(height)) *
           128;
}

int prediction_pitch(int width) { return (width + 3) / 4; }  // words per row, 4 samples each

VkDeviceSize prediction_bytes(int width, int height) {
    return static_cast<VkDeviceSize>(prediction_pitch(width)) * static_cast<VkDeviceSize>(height) * 4;
}

}  // namespace

Support compensation_support(const Context& context, const SessionOptions& options) {
    const VkDeviceSize needed = std::max(tile_plane_bytes(options.width, options.height),
                                         prediction_bytes(options.width, options.height));
    const VkDeviceSize range = context.limits().maxStorageBufferRange;
    if (needed > range) {
        return Support::no(context.name() + " computes SPEC §12-§13's compensation of frames up to " +
                           std::to_string(range / 2) +
                           " samples (8x8 tiles of int16 in one storage buffer, "
                           "maxStorageBufferRange): " +
                           std::to_string(options.width) + "x" + std::to_string(options.height) +
                           "'s is computed on the host");
    }
    return Support::yes();
}

// The device's planes, the pipelines and descriptor sets that fill them, and the host buffers.
struct DeviceCompensation::Planes {
    Buffer prediction;    // 4 samples per word, rows of prediction_pitch words
    Buffer residual;      // tile-major, then copied into coefficients for the in-place forward DCT
    Buffer coefficients;  // with a transform
    Buffer dequantised;   // with a transform: q * S, then the inverse DCT's output in place
    Buffer figures;       // compensation_common.glsl's (low, high) word pairs
    std::vector<Buffer> readbacks;
    VkDeviceSize prediction_at = 0;  // offsets in a readback buffer (the figures come first)
    VkDeviceSize residual_at = 0;
    VkDeviceSize coefficients_at = 0;
    CompensationParams params;
    std::uint32_t blocks_x = 0;
    std::uint32_t blocks_y = 0;
    Buffer partition_tiles;  // after SPEC §9's partitions: the block-4 grid of vectors
    const Pipeline* expand = nullptr;
    std::unique_ptr<DescriptorSets> expand_set;
    const Pipeline* predict = nullptr;
    const Pipeline* quantise = nullptr;
    const Pipeline* reconstruct = nullptr;
    const Pipeline* forward_dct = nullptr;
    const Pipeline* inverse_dct = nullptr;
    std::unique_ptr<DescriptorSets> predict_sets;  // per frame-slot combination
    std::unique_ptr<DescriptorSets> reconstruct_sets;
    std::unique_ptr<DescriptorSets> quantise_set;
    std::unique_ptr<DescriptorSets> forward_set;
    std::unique_ptr<DescriptorSets> inverse_set;
};

DeviceCompensation::DeviceCompensation(const SessionResources& resources, const CompensationRequest& request,
                                       std::size_t readbacks, const Buffer* partition_records)
    : context_(resources.context),
      request_(request),
      width_(resources.options.width),
      height_(resources.options.height),
      planes_(std::make_unique<Planes>()) {
    const SessionOptions& options = resources.options;
    require_supported(compensation_support(context_, options));
    if (request_.transform)
        static_cast<void>(reference::quantise_dequantise(0, request_.transform->quantiser_step));
    Planes& p = *planes_;
    // After the partitions the prediction reads one vector per 4x4 tile (expand_partitions.comp).
    const int b = partition_records != nullptr ? 4 : options.params.block_size;
    p.blocks_x = static_cast<std::uint32_t>(blocks_across(width_, b));
    p.blocks_y = static_cast<std::uint32_t>(blocks_across(height_, b));
    p.params.frame_size = {width_, height_};
    p.params.blocks_x = static_cast<std::int32_t>(p.blocks_x);
    p.params.tiles_x = tiles_across(width_);
    p.params.prediction_pitch = prediction_pitch(width_);
    p.params.quantiser_step = request_.transform ? request_.transform->quantiser_step : 1;

    const VkDeviceSize tile_bytes = tile_plane_bytes(width_, height_);
    const bool transform = request_.transform.has_value();
    p.prediction = Buffer(context_, prediction_bytes(width_, height_), plane_usage, MemoryUse::device,
                          "the compensation's prediction");
    p.residual = Buffer(context_, tile_bytes, plane_usage, MemoryUse::device, "the compensation's residual");
    p.figures = Buffer(context_, figure_bytes, plane_usage, MemoryUse::device, "the compensation's figures");
    if (transform) {
        p.coefficients = Buffer(context_, tile_bytes, plane_usage, MemoryUse::device,
                                "the compensation's DCT coefficients");
        p.dequantised = Buffer(context_, tile_bytes, plane_usage, MemoryUse::device,
                               "the compensation's dequantised coefficients");
    }
    // What comes back: the figures, then the planes asked for.
    p.prediction_at = 64;
    p.residual_at = round_up(p.prediction_at + (request_.prediction ? p.prediction.size() : 0), 64);
    p.coefficients_at = p.residual_at + (request_.residual ? tile_bytes : 0);
    const VkDeviceSize readback_bytes =
        p.coefficients_at + (transform && request_.coefficients ? tile_bytes : 0);
    for (std::size_t i = 0; i < readbacks; ++i) {
        p.readbacks.emplace_back(context_, readback_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 MemoryUse::readback, "the compensation readback buffer");
    }

    const bool h264 = interpolation_of(cost_kind_of(options.params)) == Interpolation::h264;
    const auto layout = push_constant_layout<CompensationParams>();
    p.predict = &context_.pipeline(shaders::predict_residual, {{"BLOCK", b}, {"H264", h264 ? 1 : 0}}, layout);
    p.predict_sets =
        std::make_unique<DescriptorSets>(context_, *p.predict, frame_slot_combinations(resources));
    if (partition_records != nullptr) {
        p.partition_tiles = Buffer(context_, sizeof(std::uint32_t) * 2 * p.blocks_x * p.blocks_y,
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::device,
                                   "the partitions' vectors per 4x4 tile");
        p.expand = &context_.pipeline(shaders::expand_partitions, {}, layout);
        p.expand_set = std::make_unique<DescriptorSets>(context_, *p.expand, 1);
        p.expand_set->write(0, {{"Records", {}, {}, partition_records->get()},
                                {"TileResults", {}, {}, p.partition_tiles.get()}});
    }
    const VkBuffer vectors = partition_records != nullptr ? p.partition_tiles.get() : resources.results.get();
    const VkSampler sampler = context_.nearest_sampler();
    for_each_frame_slot_combination(
        resources, [&](std::uint32_t set, VkImageView reference_view, VkImageView current_view) {
            p.predict_sets->write(set, {{"reference_frame", reference_view, sampler, {}},
                                        {"current_frame", current_view, sampler, {}},
                                        {"Results", {}, {}, vectors},
                                        {"Prediction", {}, {}, p.prediction.get()},
                                        {"Residual", {}, {}, p.residual.get()},
                                        {"Figures", {}, {}, p.figures.get()}});
        });
    if (!transform) return;

    const int loeffler = request_.transform->algorithm == TransformAlgorithm::loeffler ? 1 : 0;
    p.forward_dct = &context_.pipeline(shaders::dct, {{"LOEFFLER", loeffler}, {"INVERSE", 0}},
                                       push_constant_layout<DctParams>());
    p.inverse_dct = &context_.pipeline(shaders::dct, {{"LOEFFLER", loeffler}, {"INVERSE", 1}},
                                       push_constant_layout<DctParams>());
    p.forward_set = std::make_unique<DescriptorSets>(context_, *p.forward_dct, 1);
    p.forward_set->write(0, {{"Blocks", {}, {}, p.coefficients.get()}});
    p.inverse_set = std::make_unique<DescriptorSets>(context_, *p.inverse_dct, 1);
    p.inverse_set->write(0, {{"Blocks", {}, {}, p.dequantised.get()}});
    p.quantise = &context_.pipeline(shaders::quantise, {}, layout);
    p.quantise_set = std::make_unique<DescriptorSets>(context_, *p.quantise, 1);
    p.quantise_set->write(0, {{"Coefficients", {}, {}, p.coefficients.get()},
                              {"Dequantised", {}, {}, p.dequantised.get()},
                              {"Figures", {}, {}, p.figures.get()}});
    p.reconstruct = &context_.pipeline(shaders::reconstruct, {}, layout);
    p.reconstruct_sets =
        std::make_unique<DescriptorSets>(context_, *p.reconstruct, frame_slot_combinations(resources));
    for_each_frame_slot_combination(resources, [&](std::uint32_t set, VkImageView, VkImageView current_view) {
        p.reconstruct_sets->write(set, {{"current_frame", current_view, sampler, {}},
                                        {"Prediction", {}, {}, p.prediction.get()},
                                        {"Restored", {}, {}, p.dequantised.get()},
                                        {"Figures", {}, {}, p.figures.get()}});
    });
}

DeviceCompensation::~DeviceCompensation() = default;

void DeviceCompensation::record_clear(VkCommandBuffer commands) const {
    const Api& api = context_.api();
    api.vkCmdFillBuffer(commands, planes_->figures.get(), 0, VK_WHOLE_SIZE, 0);
    api.vkCmdFillBuffer(commands, planes_->residual.get(), 0, VK_WHOLE_SIZE, 0);
}

void DeviceCompensation::record_dct(VkCommandBuffer commands, const Pipeline& pipeline,
                                    const DescriptorSets& set) const {
    const Api& api = context_.api();
    const auto tiles = static_cast<std::uint32_t>(tiles_across(width_) * tiles_across(height_));
    // One dispatch per maxComputeWorkGroupCount[0] workgroups (65,535 on lavapipe: 524,280 tiles).
    const std::uint32_t per_dispatch = context_.limits().maxComputeWorkGroupCount[0] * dct_blocks_per_group;
    DctParams params;
    params.block_count = tiles;
    for (std::uint32_t first = 0; first < tiles; first += per_dispatch) {
        params.first_block = first;
        pipeline.bind_and_push(commands, set[0], params);
        const std::uint32_t count = std::min(per_dispatch, tiles - first);
        api.vkCmdDispatch(commands, (count + dct_blocks_per_group - 1) / dct_blocks_per_group, 1, 1);
    }
}

void DeviceCompensation::record(VkCommandBuffer commands, FrameSlots slots,
                                const std::function<void()>& pass_done) const {
    const Api& api = context_.api();
    const Planes& p = *planes_;
    const auto between_passes = [&] {
        memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    };
    between_passes();  // the search's vectors
    if (p.expand != nullptr) {
        p.expand->bind_and_push(commands, (*p.expand_set)[0], p.params);
        api.vkCmdDispatch(commands, (p.blocks_x + 63) / 64, p.blocks_y, 1);
        between_passes();
    }
    p.predict->bind_and_push(commands, (*p.predict_sets)[slots.combination()], p.params);
    api.vkCmdDispatch(commands, p.blocks_x, p.blocks_y, 1);
    pass_done();
    if (!request_.transform) return;

    // The forward DCT works in place: on a copy, so that the residual can come back.
    memory_barrier(api, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy copy{0, 0, p.residual.size()};
    api.vkCmdCopyBuffer(commands, p.residual.get(), p.coefficients.get(), 1, &copy);
    memory_barrier(api, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    record_dct(commands, *p.forward_dct, *p.forward_set);
    between_passes();
    const auto tiles_x = static_cast<std::uint32_t>(tiles_across(width_));
    const auto tiles_y = static_cast<std::uint32_t>(tiles_across(height_));
    p.quantise->bind_and_push(commands, (*p.quantise_set)[0], p.params);
    api.vkCmdDispatch(commands, tiles_x, tiles_y, 1);
    between_passes();
    record_dct(commands, *p.inverse_dct, *p.inverse_set);
    between_passes();
    p.reconstruct->bind_and_push(commands, (*p.reconstruct_sets)[slots.combination()], p.params);
    api.vkCmdDispatch(commands, tiles_x, tiles_y, 1);
    pass_done();
}

std::vector<std::string> DeviceCompensation::pass_names() const {
    if (!request_.transform) return {"prediction and residual"};
    return {"prediction and residual", "DCT, quantiser and reconstruction"};
}

void DeviceCompensation::record_readback(VkCommandBuffer commands, std::size_t index) const {
    const Api& api = context_.api();
    const Planes& p = *planes_;
    const VkBuffer readback = p.readbacks[index].get();
    const auto copy = [&](const Buffer& from, VkDeviceSize at) {
        const VkBufferCopy region{0, at, from.size()};
        api.vkCmdCopyBuffer(commands, from.get(), readback, 1, &region);
    };
    copy(p.figures, 0);
    if (request_.prediction) copy(p.prediction, p.prediction_at);
    if (request_.residual) copy(p.residual, p.residual_at);
    if (request_.transform && request_.coefficients) copy(p.coefficients, p.coefficients_at);
}

CompensatedFrame DeviceCompensation::result(std::size_t index) const {
    const Planes& p = *planes_;
    const std::uint8_t* bytes = p.readbacks[index].mapped();
    std::uint64_t figures[figure_count];
    for (int i = 0; i < figure_count; ++i) {
        std::uint32_t words[2];
        std::memcpy(words, bytes + 8 * i, sizeof words);
        figures[i] = std::uint64_t{words[0]} | (std::uint64_t{words[1]} << 32);
    }
    CompensatedFrame frame;
    if (request_.prediction) {
        frame.prediction = Plane(width_, height_);
        const std::size_t pitch_bytes = 4 * static_cast<std::size_t>(p.params.prediction_pitch);
        for (int y = 0; y < height_; ++y) {
            std::memcpy(frame.prediction.row(y),
                        bytes + p.prediction_at + pitch_bytes * static_cast<std::size_t>(y),
                        static_cast<std::size_t>(width_));
        }
    }
    if (request_.residual) frame.residual = plane_from_tiles(bytes + p.residual_at, width_, height_);
    frame.residual_abs_sum = figures[0];
    frame.prediction_squared_error = figures[4];
    frame.zero_motion_squared_error = figures[5];
    if (!request_.transform) return frame;
    if (request_.coefficients)
        frame.coefficients = plane_from_tiles(bytes + p.coefficients_at, width_, height_);
    // As compensate() computes them: the same integers, the same double operations.
    TransformFigures transform;
    transform.coefficient_energy = figures[1];
    transform.zero_fraction =
        static_cast<double>(figures[2]) /
        static_cast<double>(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_));
    transform.reconstruction_psnr_db =
        psnr_of_squared_error(static_cast<double>(figures[3]), width_, height_);
    frame.transform = transform;
    return frame;
}

}  // namespace xme::vulkan
