// xme_vulkan_bench: device time of the Vulkan variants and of the "fast" kernel's tunings, for the GPU
// machine (tools/device/vulkan_check.sh) and for choosing the defaults.
//   xme_vulkan_bench [width height block range [pairs]]
// Streams pairs of a moving synthetic scene (one new frame uploaded per pair, as in a video), reports
// the mean device time per pair after a second of warm-up, and checks that every run agrees with the
// first.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "xme/accounting.hpp"
#include "xme/error.hpp"
#include "xme/vulkan_backend.hpp"

namespace {

using Arithmetic = xme::vulkan::SessionTuning::SadArithmetic;

std::vector<xme::Plane> make_scene(int width, int height, int frames) {
    xme::Plane texture(width + 4 * frames, height + 2 * frames);
    std::mt19937 rng(7);
    for (int y = 0; y < texture.height(); ++y) {
        for (int x = 0; x < texture.width(); ++x) {
            texture.at(x, y) = static_cast<std::uint8_t>(((x * 7 + y * 13) ^ (x * y / 5)) / 2 + (rng() % 9));
        }
    }
    std::vector<xme::Plane> scene;
    for (int f = 0; f < frames; ++f) {
        xme::Plane frame(width, height);
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) frame.at(x, y) = texture.at(x + 4 * f, y + 2 * f);
        }
        scene.push_back(std::move(frame));
    }
    return scene;
}

struct Run {
    std::string label;
    std::string variant;
    xme::Subpel subpel;
    xme::vulkan::SessionTuning tuning;
    bool partitions = false;  // SPEC §9's 41 partitions (block 16 only)
};

// A GPU lowers its clocks within a second of light work (an H100 from 1980 MHz to 345 MHz while the
// host compiles the next run's pipelines) and needs up to 1.5 s of work to raise them again
// (docs/vulkan.md, "Measuring"): the first pair again and again, two in flight, untimed.
void keep_busy(xme::MotionSession& session, const xme::FramePair& pair, double seconds) {
    const auto start = std::chrono::steady_clock::now();
    const auto busy = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds;
    };
    session.submit(pair);
    session.submit(pair);
    while (session.pending() > 0) {
        static_cast<void>(session.receive());
        if (busy()) session.submit(pair);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int width = argc > 1 ? std::atoi(argv[1]) : 1920;
    const int height = argc > 2 ? std::atoi(argv[2]) : 1080;
    const int block = argc > 3 ? std::atoi(argv[3]) : 16;
    const int range = argc > 4 ? std::atoi(argv[4]) : 16;
    const int pairs = argc > 5 ? std::max(2, std::atoi(argv[5])) : 8;
    if (width <= 0 || height <= 0 || block <= 0 || range < 0) {
        std::fprintf(stderr, "xme_vulkan_bench: expected positive width, height and block, and a range >= 0: "
                             "xme_vulkan_bench [width height block range [pairs]]\n");
        return 2;
    }
    try {
        auto backend = xme::make_vulkan_backend();
        auto device = backend->open("vulkan:0");
        std::printf("%s\n%dx%d, block %d, range %d, %d pairs (the first not timed)\n",
                    device->info().description.c_str(), width, height, block, range, pairs);
        const auto scene = make_scene(width, height, pairs + 1);
        std::vector<Run> runs;
        for (const auto arithmetic : {Arithmetic::float32, Arithmetic::float16_pairs}) {
            for (const int strip : {4, 8, 12}) {
                const char* name = arithmetic == Arithmetic::float32 ? "float32" : "float16 pairs";
                runs.push_back({std::string("fast fs, ") + name + ", strip <= " + std::to_string(strip),
                                "fast",
                                xme::Subpel::none,
                                {0, arithmetic, strip}});
            }
        }
        runs.push_back({"fast fs (default tuning)", "fast", xme::Subpel::none, {}});
        // Strips the cost model does not choose: fewer window loads per comparison, more registers.
        for (const int strip : {3, 4, 6, 8, 11}) {
            runs.push_back(
                {"fast fs, float16 pairs, strip " + std::to_string(strip),
                 "fast",
                 xme::Subpel::none,
                 {.sad_arithmetic = Arithmetic::float16_pairs, .max_strip = strip, .min_strip = strip}});
        }
        const auto grouped = [](int group) {
            return "fast fs, " + std::to_string(group) + "x" + std::to_string(group) + " blocks per group";
        };
        // full_search.comp's GROUP: blocks searched together, sharing one window and one set-up.
        // Each with one-word keys (where they fit) and with two-word ones.
        for (const int group : {1, 2, 3, 4}) {
            for (const bool two_words : {false, true}) {
                xme::vulkan::SessionTuning tuning;
                tuning.blocks_per_group = group;
                tuning.two_word_keys = two_words;
                runs.push_back({grouped(group) + (two_words ? ", two-word keys" : ""), "fast",
                                xme::Subpel::none, tuning});
            }
        }
        // Shorter tiles: more candidates per invocation and block, more window rows staged.
        for (const int rows : {1000, 17, 11, 9}) {  // 1000: as many as fit
            for (const int group : {2, 3, 4}) {
                if (group * block > 32) continue;
                xme::vulkan::SessionTuning tuning;
                tuning.blocks_per_group = group;
                tuning.max_tile_rows = rows;
                runs.push_back({grouped(group) + ", tiles of " +
                                    (rows == 1000 ? std::string("any") : "<= " + std::to_string(rows)) +
                                    " rows",
                                "fast", xme::Subpel::none, tuning});
            }
        }
        // The window's rows kept from tile to tile (the default where the shape allows) against each
        // tile's whole window staged.
        xme::vulkan::SessionTuning whole_window;
        whole_window.whole_window_per_tile = true;
        runs.push_back({"fast fs, whole window per tile", "fast", xme::Subpel::none, whole_window});
        // The window's row pitch: padded against bank conflicts, or its width (less shared memory).
        for (const auto rows : {xme::vulkan::SessionTuning::WindowRows::padded,
                                xme::vulkan::SessionTuning::WindowRows::unpadded}) {
            xme::vulkan::SessionTuning pitch;
            pitch.window_rows = rows;
            const bool padded = rows == xme::vulkan::SessionTuning::WindowRows::padded;
            runs.push_back({std::string("fast fs, window rows ") + (padded ? "padded" : "unpadded"), "fast",
                            xme::Subpel::none, pitch});
        }
        xme::vulkan::SessionTuning tree;
        tree.tree_reduction = true;
        runs.push_back({"fast fs, keys reduced by the barrier tree", "fast", xme::Subpel::none, tree});
        runs.push_back({"fast fs+hpel (default tuning)", "fast", xme::Subpel::hpel, {}});
        runs.push_back({"legacy fs", "legacy", xme::Subpel::none, {}});
        runs.push_back({"legacy fs+hpel", "legacy", xme::Subpel::hpel, {}});
        // partition_search.comp's candidates per invocation: sixteen 4x4 SADs each in registers.
        for (const int strip : {1, 2, 4, 8}) {
            if (block != 16) break;
            xme::vulkan::SessionTuning tuning;
            tuning.partition_strip = strip;
            runs.push_back({"fast fs+p41, partition strip " + std::to_string(strip), "fast",
                            xme::Subpel::none, tuning, true});
        }

        std::vector<std::vector<xme::MotionField>> first_fields(3);  // fs, fs+hpel, fs+p41
        for (const auto& run : runs) {
            xme::SessionOptions options;
            options.params = {block, range, xme::BorderMode::pad, xme::SearchMethod::full, run.subpel};
            if (run.partitions) options.params.partitions = xme::Partitions::all;
            options.variant = run.variant;
            options.width = width;
            options.height = height;
            std::unique_ptr<xme::MotionSession> session;
            try {
                session = xme::vulkan::open_tuned_session(*device, options, run.tuning);
            } catch (const xme::Error& e) {
                std::printf("%-40s skipped: %s\n", run.label.c_str(), e.what());
                continue;
            }
            double seconds = 0;
            bool agree = true;
            auto& reference = first_fields[run.partitions ? 2 : run.subpel == xme::Subpel::none ? 0 : 1];
            const auto pair = [&](int i) {
                return xme::FramePair{i, scene[static_cast<std::size_t>(i)].view(), i + 1,
                                      scene[static_cast<std::size_t>(i) + 1].view()};
            };
            const auto check = [&](int i, const xme::MotionField& field) {
                if (reference.size() < static_cast<std::size_t>(pairs)) {
                    reference.push_back(field);
                } else if (run.variant == "fast" || run.subpel == xme::Subpel::none) {
                    agree = agree && reference[static_cast<std::size_t>(i)].blocks == field.blocks;
                }
            };
            session->submit(pair(0));
            check(0, session->receive().field);
            keep_busy(*session, pair(0), 1.0);
            // Two pairs in flight, as xme bench keeps them, so that the device does not idle between them.
            int next = 1;
            for (; next < std::min(pairs, 3); ++next) session->submit(pair(next));
            for (int i = 1; i < pairs; ++i) {
                const auto result = session->receive();
                if (next < pairs) session->submit(pair(next++));
                seconds += result.device_seconds;
                check(i, result.field);
            }
            const double per_pair = seconds / (pairs - 1);
            const double comparisons =
                static_cast<double>(xme::pixel_comparisons(width, height, options.params));
            std::printf("%-40s %9.3f ms/pair %9.1f pairs/s %8.2f Gpx/s%s\n", run.label.c_str(),
                        per_pair * 1e3, 1 / per_pair, comparisons / per_pair * 1e-9,
                        agree ? "" : "  DISAGREES with the first run");
        }
    } catch (const xme::Error& e) {
        std::fprintf(stderr, "xme_vulkan_bench: %s\n", e.what());
        return e.exit_code();
    }
    return 0;
}
