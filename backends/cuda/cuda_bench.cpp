// xme_cuda_bench: what the conformance test leaves out, for the GPU machine (tools/device/cuda_check.sh).
//   xme_cuda_bench check   every variant against the reference on large ranges (up to 4095), odd sizes,
//                          and long streams of pairs (more pairs in flight than the session has stages,
//                          frames coming back by id in any order)
//   xme_cuda_bench race    a few small searches with the variants that use shared memory (shared,
//                          candidate), sized for compute-sanitizer --tool racecheck
//   xme_cuda_bench time [width height block range [variant,variant...]]
//                          device time of each variant for fs and fs+hpel, streaming (a new frame per
//                          pair: upload + pad + search) and cached (the same pair again: search only),
//                          next to the measured vabsdiff4 peak; also checks that all variants agree.
//   xme_cuda_bench dct [--blocks N]
//                          device time of SPEC §13's kernels (dct_kernels.cu) on device-resident blocks,
//                          each variant and direction, next to a device-to-device cudaMemcpy of the same
//                          bytes in the same run; 1080p's 32,400 blocks and 8K's 518,400 (past an H100's
//                          50 MB L2), or N; also checks every block against the reference.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cuda_backend.hpp"
#include "dct_kernels.hpp"
#include "device_frames.hpp"
#include "xme/accounting.hpp"
#include "xme/dct.hpp"
#include "xme/error.hpp"
#include "xme/reference.hpp"

namespace {

using xme::Subpel;
using xme::BorderMode;

// A textured frame moved by (shift_x, shift_y) plus noise: realistic motion with ties in flat parts.
xme::Plane make_frame(int width, int height, int shift_x, int shift_y, std::uint32_t seed, int noise) {
    xme::Plane plane(width, height);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> jitter(-noise, noise);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const int u = x + shift_x;
            const int v = y + shift_y;
            const int base = ((u * 7 + v * 13) ^ (u * v / 5)) & 0xFF;
            plane.at(x, y) = static_cast<std::uint8_t>(std::clamp(base / 2 + 64 + (noise > 0 ? jitter(rng) : 0), 0, 255));
        }
    }
    return plane;
}

std::string first_difference(const xme::MotionField& expected, const xme::MotionField& actual) {
    if (expected.blocks.size() != actual.blocks.size()) return "field sizes differ";
    for (std::size_t i = 0; i < expected.blocks.size(); ++i) {
        const auto& e = expected.blocks[i];
        const auto& a = actual.blocks[i];
        if (e == a) continue;
        return "block " + std::to_string(i) + ": expected (" + std::to_string(e.mv_x) + "," + std::to_string(e.mv_y) +
               ") cost " + std::to_string(e.cost) + ", got (" + std::to_string(a.mv_x) + "," + std::to_string(a.mv_y) +
               ") cost " + std::to_string(a.cost);
    }
    return {};
}

xme::SessionOptions options_for(int width, int height, int block, int range, BorderMode border, Subpel subpel,
                                const std::string& variant) {
    xme::SessionOptions options;
    options.params = {block, range, border, xme::SearchMethod::full, subpel};
    options.variant = variant;
    options.width = width;
    options.height = height;
    return options;
}

int failures = 0;

// Whether the options' variant runs them; a variant that does not (p41-positions runs only SPEC §9's partitions)
// is skipped, with its reason.
bool runs(const xme::Device& device, const xme::SessionOptions& options) {
    const xme::Support support = device.supports(options);
    if (!support.supported) std::printf("skip %s: %s\n", options.variant.c_str(), support.reason.c_str());
    return support.supported;
}

void report(const std::string& what, const std::string& difference) {
    std::printf("%-4s %s%s%s\n", difference.empty() ? "ok" : "FAIL", what.c_str(), difference.empty() ? "" : ": ",
                difference.c_str());
    if (!difference.empty()) ++failures;
}

void check_single(xme::Device& device, int width, int height, int block, int range, BorderMode border,
                  Subpel subpel, const std::vector<std::string>& variants) {
    const xme::Plane reference = make_frame(width, height, 0, 0, 1, 40);
    const xme::Plane current = make_frame(width, height, 3, -2, 2, 40);
    const xme::SearchParams params{block, range, border, xme::SearchMethod::full, subpel};
    const xme::MotionField expected = xme::reference::estimate(reference.view(), current.view(), params);
    for (const auto& variant : variants) {
        const auto options = options_for(width, height, block, range, border, subpel, variant);
        if (!runs(device, options)) continue;
        const auto actual = xme::estimate_pair(device, options, reference.view(), current.view());
        report(variant + " " + std::to_string(width) + "x" + std::to_string(height) + " block " + std::to_string(block) +
                   " range " + std::to_string(range) + " " + std::string(to_string(border)) + " " +
                   xme::chain_name(params),
               first_difference(expected, actual));
    }
}

// Pairs by frame id, all submitted before any is received.
void check_stream(xme::Device& device, const std::string& variant, const std::vector<std::pair<int, int>>& pairs) {
    constexpr int width = 64, height = 48;
    std::vector<xme::Plane> frames;
    for (int i = 0; i < 8; ++i) frames.push_back(make_frame(width, height, 2 * i, i, 10 + static_cast<std::uint32_t>(i), 20));
    const auto options = options_for(width, height, 8, 7, BorderMode::pad, Subpel::hpel, variant);
    if (!runs(device, options)) return;
    auto session = device.open_session(options);
    for (const auto& [ref, cur] : pairs) session->submit({ref, frames[static_cast<std::size_t>(ref)].view(), cur, frames[static_cast<std::size_t>(cur)].view()});
    std::string difference;
    for (const auto& [ref, cur] : pairs) {
        const auto result = session->receive();
        const auto expected = xme::reference::estimate(frames[static_cast<std::size_t>(ref)].view(),
                                                       frames[static_cast<std::size_t>(cur)].view(), options.params);
        if (result.current_id != cur) difference = "pair order broken";
        if (difference.empty()) difference = first_difference(expected, result.field);
        if (!difference.empty()) difference = "pair (" + std::to_string(ref) + "," + std::to_string(cur) + "): " + difference;
    }
    report(variant + " stream of " + std::to_string(pairs.size()) + " pairs", difference);
}

int run_check(xme::Device& device) {
    const auto& all = device.info().variants;
    const std::vector<std::string> tiled{"fast", "fast-texture", "candidate"};
    check_single(device, 3, 2, 4, 4095, BorderMode::pad, Subpel::hpel, tiled);
    check_single(device, 5, 3, 4, 4095, BorderMode::restrict, Subpel::hpel, all);
    check_single(device, 33, 17, 8, 100, BorderMode::pad, Subpel::hpel, all);
    check_single(device, 33, 17, 8, 100, BorderMode::restrict, Subpel::hpel, all);
    check_single(device, 70, 40, 32, 40, BorderMode::pad, Subpel::hpel, all);
    check_single(device, 70, 40, 32, 40, BorderMode::restrict, Subpel::none, all);
    check_single(device, 131, 77, 4, 23, BorderMode::pad, Subpel::none, all);
    for (const auto& variant : all) {
        check_stream(device, variant, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}});
        check_stream(device, variant, {{3, 1}, {1, 3}, {2, 2}, {0, 6}, {6, 0}, {5, 5}, {1, 2}});
    }
    std::printf("%s: %d failure(s)\n", failures == 0 ? "PASSED" : "FAILED", failures);
    return failures == 0 ? 0 : 1;
}

int run_race(xme::Device& device) {
    for (const int block : {4, 16, 32}) {
        for (const int range : {3, 40}) {
            for (const BorderMode border : {BorderMode::pad, BorderMode::restrict}) {
                check_single(device, 40, 24, block, range, border, Subpel::none, {"shared", "candidate"});
            }
        }
    }
    std::printf("%s: %d failure(s)\n", failures == 0 ? "PASSED" : "FAILED", failures);
    return failures == 0 ? 0 : 1;
}

struct Timing {
    double median_seconds = 0;
    double wall_seconds_per_pair = 0;
    xme::MotionField first_field;
};

// `streaming`: frame i+1 against frame i (one upload and pad per pair); otherwise the same pair again.
Timing time_variant(xme::Device& device, const xme::SessionOptions& options, const std::vector<xme::Plane>& frames,
                    bool streaming) {
    auto session = device.open_session(options);
    const auto n = static_cast<std::int64_t>(frames.size());
    auto pair_for = [&](std::int64_t i) {
        const std::int64_t ref = streaming ? i % n : 0;
        const std::int64_t cur = streaming ? (i + 1) % n : 1;
        // Ids keep growing while streaming so that the cache never hits across the wrap-around.
        return xme::FramePair{streaming ? i : 0, frames[static_cast<std::size_t>(ref)].view(), streaming ? i + 1 : 1,
                              frames[static_cast<std::size_t>(cur)].view()};
    };
    Timing timing;
    session->submit(pair_for(0));
    const auto first = session->receive();  // warm-up; tells how many pairs fit in about a second
    timing.first_field = first.field;
    const int pairs = static_cast<int>(std::clamp(0.5 / std::max(first.device_seconds, 1e-6), 3.0, 300.0));
    std::vector<double> seconds;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 1; i <= pairs; ++i) {
        session->submit(pair_for(i));
        if (session->pending() >= 3) seconds.push_back(session->receive().device_seconds);
    }
    while (session->pending() > 0) seconds.push_back(session->receive().device_seconds);
    timing.wall_seconds_per_pair = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / pairs;
    std::sort(seconds.begin(), seconds.end());
    timing.median_seconds = seconds[seconds.size() / 2];
    return timing;
}

int run_time(xme::Device& device, int width, int height, int block, int range, const std::string& only) {
    const auto peak = device.measure_sad_peak();
    const double peak_px = peak ? peak->pixels_per_second : 0;
    std::printf("device %s: %s\n", device.info().name.c_str(), device.info().description.c_str());
    std::printf("vabsdiff4 peak: %.2f Tpx/s (%.3g instructions/s)\n", peak_px / 1e12, peak_px / 4);
    std::vector<xme::Plane> frames;
    for (int i = 0; i < 6; ++i) frames.push_back(make_frame(width, height, 3 * i, -2 * i, 100 + static_cast<std::uint32_t>(i), 8));
    std::printf("%dx%d block %d range %d; device ms = median per pair over CUDA events (kernels only)\n", width, height,
                block, range);
    std::printf("%-13s %-8s %-9s %10s %10s %9s %8s %10s\n", "variant", "algo", "mode", "device ms", "frames/s", "Gpx/s",
                "of peak", "wall fps");
    for (const Subpel subpel : {Subpel::none, Subpel::hpel}) {
        xme::MotionField baseline;
        for (const auto& variant : device.info().variants) {
            if (!only.empty() && ("," + only + ",").find("," + variant + ",") == std::string::npos) continue;
            const auto options = options_for(width, height, block, range, BorderMode::pad, subpel, variant);
            if (!runs(device, options)) continue;
            const double comparisons = static_cast<double>(xme::pixel_comparisons(width, height, options.params));
            for (const bool streaming : {false, true}) {
                const Timing t = time_variant(device, options, frames, streaming);
                const double gpx = comparisons / t.median_seconds / 1e9;
                std::printf("%-13s %-8s %-9s %10.3f %10.0f %9.1f %7.1f%% %10.0f\n", variant.c_str(),
                            xme::chain_name(options.params).c_str(), streaming ? "streaming" : "cached",
                            t.median_seconds * 1e3, 1.0 / t.median_seconds, gpx,
                            peak_px > 0 ? 100.0 * gpx * 1e9 / peak_px : 0.0, 1.0 / t.wall_seconds_per_pair);
                if (streaming) continue;
                if (baseline.blocks.empty()) baseline = t.first_field;
                const std::string difference = first_difference(baseline, t.first_field);
                if (!difference.empty()) report(variant + " disagrees with " + device.info().variants.front(), difference);
            }
        }
    }
    return failures == 0 ? 0 : 1;
}

// Device seconds per call of `enqueue`: the best of 5 batches of back-to-back calls between two CUDA
// events (a batch keeps the queue full, so the host's launch cost is hidden), each batch ~20 ms.
double seconds_per_call(cudaStream_t stream, const std::function<cudaError_t()>& enqueue, const char* what,
                        const xme::cuda::CallSite& site) {
    const xme::cuda::Event start = xme::cuda::make_event(true, site);
    const xme::cuda::Event stop = xme::cuda::make_event(true, site);
    const auto batch = [&](int calls) {
        XME_CUDA_CHECK(cudaEventRecord(start.get(), stream), site);
        for (int i = 0; i < calls; ++i) xme::cuda::check(enqueue(), what, site);
        XME_CUDA_CHECK(cudaEventRecord(stop.get(), stream), site);
        XME_CUDA_CHECK(cudaEventSynchronize(stop.get()), site);
        float ms = 0;
        XME_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()), site);
        return 1e-3 * ms / calls;
    };
    batch(10);  // warm-up: the first launch also loads the module
    const int calls = static_cast<int>(std::clamp(0.02 / batch(10), 10.0, 20000.0));
    double best = batch(calls);
    for (int i = 1; i < 5; ++i) best = std::min(best, batch(calls));
    return best;
}

// Blocks as the kernel sees them, to and from the device.
void upload(void* device, const std::vector<xme::Block8x8>& blocks, const xme::cuda::CallSite& site) {
    XME_CUDA_CHECK(
        cudaMemcpy(device, blocks.data(), blocks.size() * sizeof(xme::Block8x8), cudaMemcpyHostToDevice),
        site);
}
std::vector<xme::Block8x8> download(const void* device, std::size_t count, const xme::cuda::CallSite& site) {
    std::vector<xme::Block8x8> blocks(count);
    XME_CUDA_CHECK(cudaMemcpy(blocks.data(), device, count * sizeof(xme::Block8x8), cudaMemcpyDeviceToHost),
                   site);
    return blocks;
}

void time_dct(std::size_t count, const xme::cuda::CallSite& site) {
    using xme::cuda::DctDirection;
    using xme::cuda::DctVariant;
    // Residuals: -255..255, as a motion-compensated frame's.
    std::vector<xme::Block8x8> samples(count);
    std::mt19937 rng(static_cast<std::uint32_t>(count));
    std::uniform_int_distribution<int> residual(-255, 255);
    for (auto& block : samples) {
        for (auto& sample : block) sample = static_cast<std::int16_t>(residual(rng));
    }
    const std::size_t bytes = count * sizeof(xme::Block8x8);
    const xme::cuda::Stream stream = xme::cuda::make_stream(site);
    const xme::cuda::DeviceMemory input = xme::cuda::allocate_device(bytes, site);
    const xme::cuda::DeviceMemory coefficients = xme::cuda::allocate_device(bytes, site);
    const xme::cuda::DeviceMemory restored = xme::cuda::allocate_device(bytes, site);
    upload(input.get(), samples, site);
    auto* const in = static_cast<std::int16_t*>(input.get());
    auto* const coef = static_cast<std::int16_t*>(coefficients.get());
    auto* const out = static_cast<std::int16_t*>(restored.get());

    // Every row moves `bytes` in and `bytes` out.
    const auto row = [&](const char* kernel, const char* direction, double seconds, double memcpy_seconds) {
        std::printf("%-9zu %-9s %-8s %10.2f %11.1f %9.1f %8.1f%%\n", count, kernel, direction, seconds * 1e6,
                    static_cast<double>(count) / seconds / 1e6,
                    2.0 * static_cast<double>(bytes) / seconds / 1e9, 100.0 * memcpy_seconds / seconds);
    };
    const double memcpy_seconds = seconds_per_call(
        stream.get(), [&] { return cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream.get()); },
        "cudaMemcpyAsync (device to device)", site);
    row("memcpy", "d2d", memcpy_seconds, memcpy_seconds);
    for (const auto variant : {xme::TransformAlgorithm::matrix, xme::TransformAlgorithm::loeffler}) {
        const DctVariant kernel =
            variant == xme::TransformAlgorithm::matrix ? DctVariant::matrix : DctVariant::loeffler;
        const double forward = seconds_per_call(
            stream.get(),
            [&] { return launch_dct(kernel, DctDirection::forward, in, coef, count, stream.get()); },
            "launch_dct (forward)", site);
        row(to_string(variant), "forward", forward, memcpy_seconds);
        const double inverse = seconds_per_call(
            stream.get(),
            [&] { return launch_dct(kernel, DctDirection::inverse, coef, out, count, stream.get()); },
            "launch_dct (inverse)", site);
        row(to_string(variant), "inverse", inverse, memcpy_seconds);
        // What was timed is what the conformance test checks through Device::transform_blocks.
        const auto forward_result = download(coef, count, site);
        const auto inverse_result = download(out, count, site);
        std::string difference;
        for (std::size_t b = 0; b < count && difference.empty(); ++b) {
            const xme::Block8x8 expected = xme::reference::forward_dct(variant, samples[b]);
            if (forward_result[b] != expected) {
                difference = "forward differs at block " + std::to_string(b);
            } else if (inverse_result[b] != xme::reference::inverse_dct(variant, expected)) {
                difference = "inverse differs at block " + std::to_string(b);
            }
        }
        report(std::string(to_string(variant)) + " on " + std::to_string(count) +
                   " blocks against the reference",
               difference);
    }
}

int run_dct(const std::string& device_name, const std::vector<std::size_t>& counts) {
    const xme::cuda::CallSite site{device_name, -1, "the dct benchmark"};
    XME_CUDA_CHECK(cudaSetDevice(std::stoi(device_name.substr(device_name.find(':') + 1))), site);
    std::printf(
        "SPEC §13 kernels on %s; device time per launch (best of 5 batches, CUDA events); GB/s counts\n"
        "the int16 blocks read and written; memcpy: device to device, the same bytes\n",
        device_name.c_str());
    std::printf("%-9s %-9s %-8s %10s %11s %9s %9s\n", "blocks", "kernel", "dir", "us/launch", "Mblocks/s",
                "GB/s", "of memcpy");
    for (const std::size_t count : counts) time_dct(count, site);
    std::printf("%s: %d failure(s)\n", failures == 0 ? "PASSED" : "FAILED", failures);
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines survive a timeout
    try {
        const std::string mode = argc > 1 ? argv[1] : "check";
        auto backend = xme::make_cuda_backend();
        std::string device_name;
        for (const auto& info : backend->devices()) {
            if (!info.available) {
                std::printf("%s unavailable: %s\n", info.name.c_str(), info.unavailable_reason.c_str());
            } else if (device_name.empty()) {
                device_name = info.name;
            }
        }
        if (device_name.empty()) return 77;
        auto device = backend->open(device_name);
        if (mode == "time") {
            const auto arg = [&](int i, int fallback) { return argc > i ? std::stoi(argv[i]) : fallback; };
            return run_time(*device, arg(2, 1920), arg(3, 1080), arg(4, 16), arg(5, 16), argc > 6 ? argv[6] : "");
        }
        if (mode == "race") return run_race(*device);
        if (mode == "dct") {
            if (argc == 2) return run_dct(device_name, {240 * 135, 960 * 540});  // 1080p and 8K in 8x8 tiles
            std::size_t blocks = 0;
            const std::string_view count = argc == 4 ? argv[3] : "";
            const auto parsed = std::from_chars(count.data(), count.data() + count.size(), blocks);
            if (argc != 4 || std::string_view(argv[2]) != "--blocks" || parsed.ec != std::errc{} ||
                parsed.ptr != count.data() + count.size() || blocks == 0) {
                std::fprintf(stderr, "usage: xme_cuda_bench dct [--blocks N] (N >= 1)\n");
                return 2;
            }
            return run_dct(device_name, {blocks});
        }
        return run_check(*device);
    } catch (const xme::Error& error) {
        std::fprintf(stderr, "xme_cuda_bench: %s\n", error.what());
        return error.exit_code();
    }
}
