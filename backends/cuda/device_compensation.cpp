#include "device_compensation.hpp"

#include <cstring>

#include "compensation_kernels.hpp"
#include "dct_kernels.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"
#include "xme/metrics.hpp"

namespace xme::cuda {
namespace {

constexpr std::size_t kFigureBytes = sizeof(CompensationFigures) * kFigureSlots;

std::size_t round_up(std::size_t n, std::size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

DctVariant dct_variant(TransformAlgorithm algorithm) {
    return algorithm == TransformAlgorithm::matrix ? DctVariant::matrix : DctVariant::loeffler;
}

}  // namespace

DeviceCompensation::DeviceCompensation(const FrameLayout& layout, bool h264, bool partitions,
                                       const CompensationRequest& request, int stages, const CallSite& site)
    : layout_(layout),
      h264_(h264),
      request_(request),
      tiles_x_((layout.width + 7) / 8),
      tiles_y_((layout.height + 7) / 8) {
    if (stages > kMaxStages) throw Error(ErrorKind::invalid_argument, "DeviceCompensation: too many stages");
    if (request_.transform)
        static_cast<void>(reference::quantise_dequantise(0, request_.transform->quantiser_step));
    const std::size_t pixels =
        static_cast<std::size_t>(layout.width) * static_cast<std::size_t>(layout.height);
    const std::size_t tile_bytes =
        static_cast<std::size_t>(tiles_x_) * static_cast<std::size_t>(tiles_y_) * 128;
    const bool transform = request_.transform.has_value();
    // Device: figures, prediction, then the tile planes (16-byte aligned for dct_kernels' loads).
    const std::size_t prediction_at = round_up(kFigureBytes, 256);
    const std::size_t residual_at = round_up(prediction_at + pixels, 256);
    const std::size_t coefficients_at = residual_at + tile_bytes;
    const std::size_t partition_tiles_at = round_up(coefficients_at + (transform ? 3 * tile_bytes : 0), 256);
    const std::size_t device_bytes =
        partition_tiles_at + (partitions ? sizeof(MotionRecord) * static_cast<std::size_t>(grid4_x()) *
                                               static_cast<std::size_t>(grid4_y())
                                         : 0);
    // Host: figures, then the planes asked for.
    const bool want_coefficients = transform && request_.coefficients;
    const std::size_t host_prediction_at = round_up(kFigureBytes, 64);
    const std::size_t host_residual_at =
        round_up(host_prediction_at + (request_.prediction ? pixels : 0), 64);
    const std::size_t host_coefficients_at = host_residual_at + (request_.residual ? tile_bytes : 0);
    const std::size_t host_bytes = host_coefficients_at + (want_coefficients ? tile_bytes : 0);
    for (int i = 0; i < stages; ++i) {
        Stage& s = stages_[static_cast<std::size_t>(i)];
        s.device = allocate_device(device_bytes, site);
        s.host = allocate_pinned(host_bytes, site);
        auto* device = static_cast<std::uint8_t*>(s.device.get());
        auto* host = static_cast<std::uint8_t*>(s.host.get());
        s.figures = device;
        s.prediction = device + prediction_at;
        s.residual = reinterpret_cast<std::int16_t*>(device + residual_at);
        if (partitions) s.partition_tiles = reinterpret_cast<MotionRecord*>(device + partition_tiles_at);
        if (transform) {
            s.coefficients = reinterpret_cast<std::int16_t*>(device + coefficients_at);
            s.dequantised = reinterpret_cast<std::int16_t*>(device + coefficients_at + tile_bytes);
            s.restored = reinterpret_cast<std::int16_t*>(device + coefficients_at + 2 * tile_bytes);
        }
        s.figures_host = host;
        if (request_.prediction) s.prediction_host = host + host_prediction_at;
        if (request_.residual) s.residual_host = reinterpret_cast<std::int16_t*>(host + host_residual_at);
        if (want_coefficients)
            s.coefficients_host = reinterpret_cast<std::int16_t*>(host + host_coefficients_at);
        // The residual's elements outside W x H are never written: zero once (partial tiles read zeros).
        XME_CUDA_CHECK(cudaMemset(s.residual, 0, tile_bytes), site);
    }
    // cudaMemset may return before it is done, on the default stream, which the session's streams
    // need not wait for.
    XME_CUDA_CHECK(cudaStreamSynchronize(nullptr), site);
}

void DeviceCompensation::enqueue(int stage, const SearchJob& search, const MotionRecord* records,
                                 cudaStream_t compute, const CallSite& site) {
    Stage& s = stages_[static_cast<std::size_t>(stage)];
    CompensationJob job;
    job.search = search;
    job.keys = search.keys;
    job.records = records;
    job.h264 = h264_;
    job.prediction = s.prediction;
    job.residual = s.residual;
    job.tiles_x = tiles_x_;
    job.tiles_y = tiles_y_;
    job.figures = static_cast<CompensationFigures*>(s.figures);
    XME_CUDA_CHECK(cudaMemsetAsync(s.figures, 0, kFigureBytes, compute), site);
    check(launch_predict_residual(job, compute), "predict_*_kernel<<<>>>", site);
    if (!request_.transform) return;
    const std::size_t tiles = static_cast<std::size_t>(tiles_x_) * static_cast<std::size_t>(tiles_y_);
    const DctVariant algorithm = dct_variant(request_.transform->algorithm);
    check(launch_dct(algorithm, DctDirection::forward, s.residual, s.coefficients, tiles, compute),
          "dct_kernel<<<>>> (forward)", site);
    check(launch_quantise(job, s.coefficients, s.dequantised, request_.transform->quantiser_step, compute),
          "quantise_kernel<<<>>>", site);
    check(launch_dct(algorithm, DctDirection::inverse, s.dequantised, s.restored, tiles, compute),
          "dct_kernel<<<>>> (inverse)", site);
    check(launch_reconstruct(job, s.restored, compute), "reconstruct_kernel<<<>>>", site);
}

void DeviceCompensation::enqueue_partitions(int stage, const SearchJob& search, const void* partition_records,
                                            cudaStream_t compute, const CallSite& site) {
    MotionRecord* tiles = stages_[static_cast<std::size_t>(stage)].partition_tiles;
    if (tiles == nullptr)
        throw Error(ErrorKind::invalid_argument, "DeviceCompensation: opened without partitions");
    check(launch_expand_partitions(partition_records, search.blocks_x, grid4_x(), grid4_y(), tiles, compute),
          "expand_partitions_kernel<<<>>>", site);
    SearchJob grid = search;
    grid.block_size = 4;
    grid.blocks_x = grid4_x();
    grid.blocks_y = grid4_y();
    enqueue(stage, grid, tiles, compute, site);
}

void DeviceCompensation::enqueue_download(int stage, cudaStream_t download, const CallSite& site) {
    Stage& s = stages_[static_cast<std::size_t>(stage)];
    const std::size_t pixels =
        static_cast<std::size_t>(layout_.width) * static_cast<std::size_t>(layout_.height);
    const std::size_t tile_bytes =
        static_cast<std::size_t>(tiles_x_) * static_cast<std::size_t>(tiles_y_) * 128;
    XME_CUDA_CHECK(cudaMemcpyAsync(s.figures_host, s.figures, kFigureBytes, cudaMemcpyDeviceToHost, download),
                   site);
    if (s.prediction_host != nullptr) {
        XME_CUDA_CHECK(
            cudaMemcpyAsync(s.prediction_host, s.prediction, pixels, cudaMemcpyDeviceToHost, download), site);
    }
    if (s.residual_host != nullptr) {
        XME_CUDA_CHECK(
            cudaMemcpyAsync(s.residual_host, s.residual, tile_bytes, cudaMemcpyDeviceToHost, download), site);
    }
    if (s.coefficients_host != nullptr) {
        XME_CUDA_CHECK(cudaMemcpyAsync(s.coefficients_host, s.coefficients, tile_bytes,
                                       cudaMemcpyDeviceToHost, download),
                       site);
    }
}

CompensatedFrame DeviceCompensation::result(int stage) const {
    const Stage& s = stages_[static_cast<std::size_t>(stage)];
    CompensationFigures figures{};
    for (int slot = 0; slot < kFigureSlots; ++slot) {
        CompensationFigures part{};
        std::memcpy(&part, static_cast<const std::uint8_t*>(s.figures_host) + slot * sizeof(part),
                    sizeof(part));
        figures.residual_abs_sum += part.residual_abs_sum;
        figures.prediction_sse += part.prediction_sse;
        figures.zero_motion_sse += part.zero_motion_sse;
        figures.coefficient_energy += part.coefficient_energy;
        figures.zero_coefficients += part.zero_coefficients;
        figures.reconstruction_sse += part.reconstruction_sse;
    }
    CompensatedFrame frame;
    if (s.prediction_host != nullptr) {
        frame.prediction = Plane(layout_.width, layout_.height);
        std::memcpy(frame.prediction.data(), s.prediction_host,
                    static_cast<std::size_t>(layout_.width) * static_cast<std::size_t>(layout_.height));
    }
    if (s.residual_host != nullptr)
        frame.residual = plane_from_tiles(s.residual_host, layout_.width, layout_.height);
    frame.residual_abs_sum = figures.residual_abs_sum;
    frame.prediction_squared_error = figures.prediction_sse;
    frame.zero_motion_squared_error = figures.zero_motion_sse;
    if (!request_.transform) return frame;
    if (s.coefficients_host != nullptr)
        frame.coefficients = plane_from_tiles(s.coefficients_host, layout_.width, layout_.height);
    TransformFigures transform;
    transform.coefficient_energy = figures.coefficient_energy;
    // As compensate() computes them: the same integers, the same double operations.
    transform.zero_fraction = static_cast<double>(figures.zero_coefficients) /
                              static_cast<double>(static_cast<std::size_t>(layout_.width) *
                                                  static_cast<std::size_t>(layout_.height));
    transform.reconstruction_psnr_db =
        psnr_of_squared_error(static_cast<double>(figures.reconstruction_sse), layout_.width, layout_.height);
    frame.transform = transform;
    return frame;
}

}  // namespace xme::cuda
