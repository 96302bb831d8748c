// xme_cpu_kernels: each operation kernel of the CPU backend (cpu_kernels.hpp) timed on its own, per
// kernel set, on random data that stays in L1 (x264's `checkasm --bench`). A kernel's time in a whole
// `xme bench` run is a few percent of it and drowns in a shared machine's noise; a tight loop's fastest
// repeat does not (docs/cpu.md, "Measuring"). Nanoseconds per call: the least and the median of the
// repeats.
//   xme_cpu_kernels [--repeats N] [--only TEXT]   (TEXT: kernels whose name contains it)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "cpu_kernels.hpp"

namespace {

using xme::cpu::OperationKernels;

// A plane of random bytes with room around its centre for blocks displaced by up to `reach`.
struct Plane {
    static constexpr int stride = 128;
    static constexpr int rows = 96;
    std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(static_cast<std::size_t>(stride) * rows);
    [[nodiscard]] const std::uint8_t* at(int x, int y) const {
        return bytes.data() + (y + 32) * stride + x + 32;
    }
};

struct Timing {
    double least_ns;
    double median_ns;
};

// `calls` calls per repeat (about 20 µs of work), the least and the median repeat per call.
Timing time_calls(const std::function<void()>& call, int repeats) {
    using Clock = std::chrono::steady_clock;
    int calls = 1;
    for (;;) {  // calibrate
        const auto start = Clock::now();
        for (int i = 0; i < calls; ++i) call();
        if (Clock::now() - start > std::chrono::microseconds(20) || calls >= 1 << 20) break;
        calls *= 2;
    }
    std::vector<double> per_call;
    per_call.reserve(static_cast<std::size_t>(repeats));
    for (int r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        for (int i = 0; i < calls; ++i) call();
        const std::chrono::duration<double, std::nano> elapsed = Clock::now() - start;
        per_call.push_back(elapsed.count() / calls);
    }
    std::sort(per_call.begin(), per_call.end());
    return {per_call.front(), per_call[per_call.size() / 2]};
}

struct NamedSet {
    std::string name;
    OperationKernels kernels;
};

}  // namespace

int main(int argc, char** argv) {
    int repeats = 201;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--repeats" && i + 1 < argc) {
            repeats = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--only" && i + 1 < argc) {
            only = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--repeats N] [--only TEXT]\n", argv[0]);
            return 2;
        }
    }
    const unsigned seed = std::random_device{}();
    std::printf("seed %u, %d repeats, ns per call (least / median of the repeats)\n", seed, repeats);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    Plane current;
    Plane reference;
    for (auto* plane : {&current, &reference})
        for (auto& b : plane->bytes) b = static_cast<std::uint8_t>(byte(rng));

    std::vector<NamedSet> sets = {{"plain", xme::cpu::plain_operation_kernels()}};
    for (const auto& set : xme::cpu::simd_operation_kernels()) sets.push_back({set.name, set.kernels});

    volatile std::uint32_t sink = 0;  // keeps every result alive
    const std::uint8_t* refs[4] = {reference.at(-3, 1), reference.at(2, -5), reference.at(7, 4),
                                   reference.at(-6, -2)};
    std::vector<std::int32_t> scratch(xme::cpu::half_pel_scratch_words(64));
    std::vector<std::uint8_t> planes(3 * 64 * 16);
    struct Case {
        std::string name;
        std::function<void(const OperationKernels&)> call;
        bool needs_transform = false;  // timed only for the sets with transform_current
    };
    std::vector<Case> cases;
    for (const int size : {4, 8, 16, 32}) {
        cases.push_back({"sad_x4 " + std::to_string(size) + "x" + std::to_string(size),
                         [&, size](const OperationKernels& k) {
                             std::uint32_t sads[4];
                             k.sad_x4(current.at(0, 0), Plane::stride, refs, Plane::stride, size, sads);
                             sink = sink + sads[0] + sads[3];
                         }});
    }
    for (const int size : {8, 16, 32}) {
        for (const bool averaged : {false, true}) {
            cases.push_back({"satd " + std::to_string(size) + "x" + std::to_string(size) +
                                 (averaged ? " averaged" : " one plane"),
                             [&, size, averaged](const OperationKernels& k) {
                                 sink = sink + k.satd(current.at(0, 0), Plane::stride, refs[0], Plane::stride,
                                                      averaged ? refs[1] : refs[0], Plane::stride, size, size,
                                                      xme::cpu::satd_exact);
                             }});
        }
    }
    // A refinement's 17 candidates against one block: through satd, and (sets that have it) through one
    // transform_current and satd_transformed.
    for (const bool transformed : {false, true}) {
        cases.push_back({std::string("satd 16x16 x17 ") + (transformed ? "transformed" : "direct"),
                         [&, transformed](const OperationKernels& k) {
                             xme::cpu::TransformedCurrent t;
                             const bool use = transformed &&
                                              k.transform_current(current.at(0, 0), Plane::stride, 16, 16, t);
                             std::uint32_t total = 0;
                             for (int c = 0; c < 17; ++c) {
                                 const std::uint8_t* p = refs[c & 3];
                                 const std::uint8_t* q = refs[(c + 1) & 3];
                                 total += use ? k.satd_transformed(t, p, Plane::stride, q, Plane::stride, 16,
                                                                   16, xme::cpu::satd_exact)
                                              : k.satd(current.at(0, 0), Plane::stride, p, Plane::stride, q,
                                                       Plane::stride, 16, 16, xme::cpu::satd_exact);
                             }
                             sink = sink + total;
                         },
                         transformed});
    }
    cases.push_back({"half_pel_planes 64x16", [&](const OperationKernels& k) {
                         k.half_pel_planes(reference.at(0, 0), Plane::stride, 64, 16, planes.data(),
                                           planes.data() + 64 * 16, planes.data() + 2 * 64 * 16,
                                           scratch.data());
                         sink = sink + planes[5];
                     }});

    std::printf("%-28s %-8s %12s %12s %10s\n", "kernel", "set", "least ns", "median ns", "vs plain");
    for (const auto& c : cases) {
        if (!only.empty() && c.name.find(only) == std::string::npos) continue;
        double plain_least = 0;
        for (const auto& set : sets) {
            if (c.needs_transform && set.kernels.transform_current == nullptr) continue;
            const Timing t = time_calls([&] { c.call(set.kernels); }, repeats);
            if (set.name == "plain") plain_least = t.least_ns;
            std::printf("%-28s %-8s %12.1f %12.1f ", c.name.c_str(), set.name.c_str(), t.least_ns,
                        t.median_ns);
            if (plain_least > 0) {
                std::printf("%9.2fx\n", plain_least / t.least_ns);
            } else {
                std::printf("%10s\n", "-");  // the plain set has no such kernel
            }
        }
    }
    return 0;
}
