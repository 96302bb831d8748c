#include "bench_transforms.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace xme::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// memcpy of a buffer four times the last-level cache, between 64 and 128 MiB, best of three: read + write
// bytes per second. Four times the cache keeps the copy in memory; the cap because some machines
// report the whole socket's cache (this dev VM: 508 MiB) and more only costs time.
double memcpy_bytes_per_second() {
    const long cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
    const std::size_t bytes = std::clamp<std::size_t>(cache > 0 ? 4 * static_cast<std::size_t>(cache) : 0,
                                                      std::size_t{64} << 20, std::size_t{128} << 20);
    std::vector<char> source(bytes, 1);
    std::vector<char> target(bytes, 0);
    double best = 0;
    for (int i = 0; i < 3; ++i) {
        const auto start = Clock::now();
        std::memcpy(target.data(), source.data(), bytes);
        best = std::max(best, 2.0 * static_cast<double>(bytes) / seconds_since(start));
        source[static_cast<std::size_t>(i)] =
            target[bytes - 1 - static_cast<std::size_t>(i)];  // keep the copy
    }
    return best;
}

}  // namespace

void run_transform_bench(const std::vector<std::pair<int, int>>& sizes,
                         const std::vector<TransformAlgorithm>& variants, int repetitions) {
    const double bandwidth = memcpy_bytes_per_second();
    std::printf(
        "\ntransforms (SPEC §13, the engine's code, one host thread); memcpy %.2f GB/s read + write\n",
        bandwidth / 1e9);
    std::printf("%-10s %11s %-8s %14s %10s %12s\n", "transform", "size", "dir", "blocks/s", "GB/s",
                "of memcpy");
    std::mt19937 rng(12345);  // a residual-like plane; the timing does not depend on its values
    std::uniform_int_distribution<int> residual(-255, 255);
    for (const auto& [width, height] : sizes) {
        Int16Plane plane(width, height);
        for (auto& value : plane.values) value = static_cast<std::int16_t>(residual(rng));
        const double blocks = static_cast<double>((width + 7) / 8) * ((height + 7) / 8) * repetitions;
        const double moved =
            4.0 * static_cast<double>(plane.values.size()) * repetitions;  // int16 in and out
        for (const TransformAlgorithm algorithm : variants) {
            Int16Plane coefficients;
            auto start = Clock::now();
            for (int r = 0; r < repetitions; ++r)
                coefficients = reference::forward_transform_plane(plane, algorithm);
            const double forward = seconds_since(start);
            start = Clock::now();
            Int16Plane restored;
            for (int r = 0; r < repetitions; ++r)
                restored = reference::inverse_transform_plane(coefficients, algorithm);
            const double inverse = seconds_since(start);
            for (const auto& [direction, seconds] :
                 {std::pair{"forward", forward}, std::pair{"inverse", inverse}}) {
                std::printf("%-10s %5dx%-5d %-8s %14.0f %10.3f %11.2f%%\n", to_string(algorithm), width,
                            height, direction, blocks / seconds, moved / seconds / 1e9,
                            100.0 * moved / seconds / bandwidth);
            }
        }
    }
}

}  // namespace xme::cli
