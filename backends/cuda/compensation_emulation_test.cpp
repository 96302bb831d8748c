// Checks the per-sample and per-block device code of the CUDA compensation chain
// (compensation_pixel.cuh) against the reference on the host, without a GPU: §13's quantiser for every
// coefficient, §4's bilinear samples and §10's H.264 block prediction (32 fibers as one warp, as
// qpel_emulation_test.cpp does) at vectors that reach past the padded margins, and the whole chain on
// frames with partial tiles as the kernels compute it (tile-major residual, the forward and inverse DCT
// per tile, the quantiser, the figures) against xme::compensate(). The DCT tiles are the reference's
// here: dct_kernels.cu is bit-identical with it (the conformance table checks that on the GPU). Seeded
// (printed); exits 0 when every value equals the reference's.
#include <ucontext.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "compensation_kernels.hpp"
#include "compensation_pixel.cuh"
#include "emulation_support.hpp"
#include "xme/compensation.hpp"
#include "xme/metrics.hpp"

namespace {

using namespace xme::cuda;
using namespace xme::cuda::emulation;

int failures = 0;

void fail(const char* what, long long a, long long b) {
    if (++failures <= 10) std::printf("MISMATCH %s: device %lld, reference %lld\n", what, a, b);
}

void check_quantiser(std::mt19937& rng) {
    std::vector<int> steps = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 255, 2047, 2048, 4095, 4096};
    for (int i = 0; i < 30; ++i)
        steps.push_back(std::uniform_int_distribution<int>(1, xme::max_quantiser_step)(rng));
    for (const int step : steps) {
        for (int f = -16384; f <= 16384; ++f) {
            const int device = compensation::quantise_dequantise(f, step);
            const int expected = xme::reference::quantise_dequantise(f, step);
            if (device != expected) fail("quantise_dequantise", device, expected);
        }
    }
    std::printf("quantiser: %zu steps x 32769 coefficients\n", steps.size());
}

xme::Plane random_plane(int width, int height, std::mt19937& rng) {
    xme::Plane plane(width, height);
    std::uniform_int_distribution<int> value(0, 255);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) plane.at(x, y) = static_cast<std::uint8_t>(value(rng));
    }
    return plane;
}

void check_bilinear(std::mt19937& rng) {
    const xme::Plane reference = random_plane(37, 23, rng);
    const FrameLayout layout = make_layout(37, 23, 8, 4, 0);
    const PaddedFrame padded = pad(reference, layout);
    std::uniform_int_distribution<int> component(-120, 120);  // half-pel units: far past the margins
    long samples = 0;
    for (int n = 0; n < 400; ++n) {
        const compensation::Vector4 mv{2 * component(rng), 2 * component(rng)};
        for (int y = 0; y < 23; ++y) {
            for (int x = 0; x < 37; ++x) {
                const int device = compensation::bilinear_sample(layout, padded.origin(), x, y, mv);
                const int expected = xme::reference::predicted_sample(reference.view(), x, y, {mv.x, mv.y},
                                                                      xme::Interpolation::bilinear);
                if (device != expected) fail("bilinear sample", device, expected);
                ++samples;
            }
        }
    }
    std::printf("bilinear: %ld samples\n", samples);
}

// H.264 prediction of whole blocks (some partial at the frame's right and bottom) by one fiber warp.
template <int B>
void check_h264(std::mt19937& rng) {
    const int width = 3 * B + 5;
    const int height = 2 * B + 3;
    const xme::Plane reference = random_plane(width, height, rng);
    const FrameLayout layout = make_layout(width, height, B, 6, 0);
    const PaddedFrame padded = pad(reference, layout);
    SearchJob job;
    job.layout = layout;
    job.reference = padded.origin();
    job.block_size = B;
    std::uniform_int_distribution<int> component(-4 * 40, 4 * 40);  // quarter pel, every fraction
    struct Case {
        int x, y;
        compensation::Vector4 mv;
    };
    std::vector<Case> cases;
    for (int n = 0; n < 60; ++n) {
        cases.push_back({B * std::uniform_int_distribution<int>(0, 3)(rng),
                         B * std::uniform_int_distribution<int>(0, 2)(rng),
                         {component(rng), component(rng)}});
    }
    std::vector<std::uint8_t> predicted(cases.size() * B * B);
    auto scratch = std::make_unique<qpel::Scratch<B>>();
    auto body = [&](FiberWarp& warp) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const Case& c = cases[i];
            compensation::predict_block_h264<B>(
                warp, *scratch, job, c.x, c.y, c.mv, [&](int px, int py, std::uint32_t samples) {
                    for (int k = 0; k < 4; ++k) {
                        predicted[i * B * B + static_cast<std::size_t>((py - c.y) * B + px + k - c.x)] =
                            static_cast<std::uint8_t>(samples >> (8 * k));
                    }
                });
        }
    };
    if (!run_warp(body)) {
        std::printf("B=%d: the lanes diverged at a warp-wide operation\n", B);
        ++failures;
        return;
    }
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        for (int j = 0; j < B; ++j) {
            for (int k = 0; k < B; ++k) {
                const int expected = xme::reference::predicted_sample(
                    reference.view(), c.x + k, c.y + j, {c.mv.x, c.mv.y}, xme::Interpolation::h264);
                const int device = predicted[i * B * B + static_cast<std::size_t>(j * B + k)];
                if (device != expected) fail("h264 sample", device, expected);
            }
        }
    }
    std::printf("h264 B=%d: %zu blocks\n", B, cases.size());
}

// The chain as compensation_kernels.cu computes it, element by element in tile-major order.
void check_chain(std::mt19937& rng, xme::TransformAlgorithm algorithm, int step) {
    const int width = 61;  // partial tiles and blocks both ways
    const int height = 30;
    const int block = 8;
    const xme::Plane reference = random_plane(width, height, rng);
    xme::Plane current = reference;
    std::uniform_int_distribution<int> noise(-20, 20);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x)
            current.at(x, y) = static_cast<std::uint8_t>(std::clamp(current.at(x, y) + noise(rng), 0, 255));
    }
    xme::MotionField field(width, height, block, xme::CostKind{});
    std::uniform_int_distribution<int> half(-10, 10);
    std::vector<MotionRecord> records;
    for (xme::BlockMotion& b : field.blocks) {
        b.mv_x = static_cast<std::int16_t>(2 * half(rng));
        b.mv_y = static_cast<std::int16_t>(2 * half(rng));
        records.push_back({b.mv_x, b.mv_y, 0, 1});
    }
    const FrameLayout layout = make_layout(width, height, block, 10, 0);
    const PaddedFrame ref = pad(reference, layout);
    const PaddedFrame cur = pad(current, layout);
    const int tiles_x = (width + 7) / 8;
    const int tiles_y = (height + 7) / 8;
    const int elements = tiles_x * tiles_y * 64;
    std::vector<std::int16_t> residual(static_cast<std::size_t>(elements), 0);
    std::vector<std::uint8_t> prediction(static_cast<std::size_t>(width * height));
    CompensationFigures figures{};
    for (int e = 0; e < elements; ++e) {
        const auto p = compensation::tile_position(e, tiles_x);
        if (compensation::tile_element(p.x, p.y, tiles_x) != e) fail("tile_element(tile_position)", e, e);
        if (p.x >= width || p.y >= height) continue;
        const auto mv =
            compensation::block_vector(nullptr, records.data(), (p.y / block) * field.blocks_x + p.x / block);
        const int predicted = compensation::bilinear_sample(layout, ref.origin(), p.x, p.y, mv);
        const int sample = cur.origin()[p.y * layout.pitch + p.x];
        prediction[static_cast<std::size_t>(p.y * width + p.x)] = static_cast<std::uint8_t>(predicted);
        residual[static_cast<std::size_t>(e)] = static_cast<std::int16_t>(sample - predicted);
        figures.residual_abs_sum += static_cast<unsigned long long>(std::abs(sample - predicted));
        figures.prediction_sse +=
            static_cast<unsigned long long>((sample - predicted) * (sample - predicted));
        const int still = sample - ref.origin()[p.y * layout.pitch + p.x];
        figures.zero_motion_sse += static_cast<unsigned long long>(still * still);
    }
    std::vector<std::int16_t> coefficients(residual.size());
    std::vector<std::int16_t> dequantised(residual.size());
    std::vector<std::int16_t> restored(residual.size());
    const auto per_tile = [&](const std::vector<std::int16_t>& in, std::vector<std::int16_t>& out,
                              xme::TransformDirection direction) {
        for (std::size_t t = 0; t < in.size() / 64; ++t) {
            xme::Block8x8 tile;
            std::memcpy(tile.data(), in.data() + 64 * t, sizeof(tile));
            tile = xme::reference::transform_block(algorithm, direction, tile);
            std::memcpy(out.data() + 64 * t, tile.data(), sizeof(tile));
        }
    };
    per_tile(residual, coefficients, xme::TransformDirection::forward);
    for (int e = 0; e < elements; ++e) {
        const auto p = compensation::tile_position(e, tiles_x);
        const auto i = static_cast<std::size_t>(e);
        dequantised[i] = 0;
        if (p.x >= width || p.y >= height) continue;
        figures.coefficient_energy += static_cast<unsigned long long>(coefficients[i] * coefficients[i]);
        dequantised[i] = static_cast<std::int16_t>(compensation::quantise_dequantise(coefficients[i], step));
        figures.zero_coefficients += dequantised[i] == 0 ? 1 : 0;
    }
    per_tile(dequantised, restored, xme::TransformDirection::inverse);
    for (int e = 0; e < elements; ++e) {
        const auto p = compensation::tile_position(e, tiles_x);
        if (p.x >= width || p.y >= height) continue;
        const int sample = std::clamp(
            prediction[static_cast<std::size_t>(p.y * width + p.x)] + restored[static_cast<std::size_t>(e)],
            0, 255);
        const int difference = sample - current.at(p.x, p.y);
        figures.reconstruction_sse += static_cast<unsigned long long>(difference * difference);
    }
    const xme::CompensatedFrame expected =
        xme::compensate(reference.view(), current.view(), field, xme::TransformOptions{algorithm, step});
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const auto e = static_cast<std::size_t>(compensation::tile_element(x, y, tiles_x));
            if (prediction[static_cast<std::size_t>(y * width + x)] != expected.prediction.view().at(x, y))
                fail("chain prediction", prediction[static_cast<std::size_t>(y * width + x)],
                     expected.prediction.view().at(x, y));
            if (residual[e] != expected.residual.at(x, y))
                fail("chain residual", residual[e], expected.residual.at(x, y));
            if (coefficients[e] != expected.coefficients->at(x, y))
                fail("chain coefficient", coefficients[e], expected.coefficients->at(x, y));
        }
    }
    if (figures.residual_abs_sum != expected.residual_abs_sum)
        fail("residual_abs_sum", static_cast<long long>(figures.residual_abs_sum),
             static_cast<long long>(expected.residual_abs_sum));
    if (figures.prediction_sse != expected.prediction_squared_error)
        fail("prediction squared error", static_cast<long long>(figures.prediction_sse),
             static_cast<long long>(expected.prediction_squared_error));
    if (figures.zero_motion_sse != expected.zero_motion_squared_error)
        fail("zero-motion squared error", static_cast<long long>(figures.zero_motion_sse),
             static_cast<long long>(expected.zero_motion_squared_error));
    if (figures.coefficient_energy != expected.transform->coefficient_energy)
        fail("coefficient energy", static_cast<long long>(figures.coefficient_energy),
             static_cast<long long>(expected.transform->coefficient_energy));
    const double zero_fraction = static_cast<double>(figures.zero_coefficients) /
                                 static_cast<double>(static_cast<std::size_t>(width * height));
    if (zero_fraction != expected.transform->zero_fraction)
        fail("zero coefficients", static_cast<long long>(figures.zero_coefficients), -1);
    const double psnr =
        xme::psnr_of_squared_error(static_cast<double>(figures.reconstruction_sse), width, height);
    if (psnr != expected.transform->reconstruction_psnr_db)
        fail("reconstruction SSE (PSNR x 1000)", static_cast<long long>(psnr * 1000),
             static_cast<long long>(expected.transform->reconstruction_psnr_db * 1000));
    std::printf("chain %s S=%d: %dx%d, PSNR %.3f dB\n", xme::to_string(algorithm), step, width, height, psnr);
}

}  // namespace

int main() {
    const unsigned seed = std::random_device{}();
    std::printf("seed %u\n", seed);
    std::mt19937 rng(seed);
    check_quantiser(rng);
    check_bilinear(rng);
    check_h264<4>(rng);
    check_h264<8>(rng);
    check_h264<16>(rng);
    check_h264<32>(rng);
    check_chain(rng, xme::TransformAlgorithm::matrix, 12);
    check_chain(rng, xme::TransformAlgorithm::loeffler, 5);
    std::printf("%d mismatches\n", failures);
    return failures == 0 ? 0 : 1;
}
