// xme_cpu_searches: each SIMD set's 16x16 tz search and quarter-pel refinement over the blocks of a clip's
// first frame pairs (restrict mode, range 16, lambda 0), once through the kernels' pointers (the generic
// path every set has) and once through the set's own compiled search (OperationKernels::tz_search16 and
// refine_qpel16), the two alternated within each repeat. The least repeat's nanoseconds per block: a
// whole `xme bench` run measures the same work with the fast full search and the frame handling around
// it, and this machine's slow spells move its rounds by more than these differences
// (docs/cpu.md, "Measuring").
// Then each set's half-sample planes of one reference frame beside the plain kernel's, us per frame (least).
//   xme_cpu_searches CLIP [--pairs N] [--repeats N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "half_pel_frame.hpp"
#include "integer_search.hpp"
#include "subpel_refine.hpp"
#include "xme/error.hpp"
#include "xme/video.hpp"

namespace {

using xme::cpu::IntegerBlock;
using xme::cpu::OperationKernels;
using Clock = std::chrono::steady_clock;

struct Pair {
    xme::cpu::SearchPlane reference;  // in place, as tz reads a frame of whole blocks in restrict mode
    xme::cpu::SearchPlane padded_reference;
    xme::cpu::SearchPlane current;
    std::vector<xme::MotionVector> vectors;  // tz's, the refinement's start
};

IntegerBlock block_at(const xme::cpu::SearchPlane& reference, const xme::cpu::SearchPlane& current,
                      const OperationKernels& kernels, int bx, int by) {
    IntegerBlock block;
    block.reference = &reference;
    block.current = &current;
    block.kernels = &kernels;
    block.x = 16 * bx;
    block.y = 16 * by;
    block.border = xme::BorderMode::restrict;
    block.padded_width = reference.width() / 16 * 16;
    block.padded_height = reference.height() / 16 * 16;
    return block;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CLIP [--pairs N] [--repeats N]\n", argv[0]);
        return 2;
    }
    int pairs = 30;
    int repeats = 7;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--pairs" && i + 1 < argc) {
            pairs = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--repeats" && i + 1 < argc) {
            repeats = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: %s CLIP [--pairs N] [--repeats N]\n", argv[0]);
            return 2;
        }
    }
    std::vector<xme::Plane> frames;
    try {
        auto reader = xme::open_video(argv[1]);
        while (static_cast<int>(frames.size()) < pairs + 1) {
            auto frame = reader->read_frame();
            if (!frame) break;
            frames.push_back(std::move(frame->luma));
        }
    } catch (const xme::Error& error) {
        std::fprintf(stderr, "xme_cpu_searches: %s\n", error.what());
        return 1;
    }
    if (frames.size() < 2 || frames[0].width() < 16 || frames[0].height() < 16) {
        std::fprintf(stderr, "xme_cpu_searches: %s has fewer than two frames of 16x16 or more\n", argv[1]);
        return 1;
    }
    pairs = static_cast<int>(frames.size()) - 1;
    const int width = frames[0].width();
    const int height = frames[0].height();
    const int blocks_x = width / 16;
    const int blocks_y = height / 16;
    const OperationKernels plain = xme::cpu::plain_operation_kernels();
    std::vector<Pair> prepared(static_cast<std::size_t>(pairs));
    for (int p = 0; p < pairs; ++p) {
        Pair& pair = prepared[static_cast<std::size_t>(p)];
        pair.reference.view(frames[static_cast<std::size_t>(p)].view());
        pair.padded_reference.assign(frames[static_cast<std::size_t>(p)].view());
        pair.current.view(frames[static_cast<std::size_t>(p) + 1].view());
        for (int by = 0; by < blocks_y; ++by) {
            for (int bx = 0; bx < blocks_x; ++bx)
                pair.vectors.push_back(
                    xme::cpu::tz_search(block_at(pair.reference, pair.current, plain, bx, by)).pel);
        }
    }
    std::printf("%s, %d pairs of %dx%d (%d whole 16x16 blocks each), least of %d repeats, ns per block\n",
                argv[1], pairs, width, height, blocks_x * blocks_y, repeats);
    std::printf("%-10s %-10s %12s %12s %10s\n", "search", "set", "generic", "compiled", "speed-up");
    volatile std::uint64_t sink = 0;
    xme::cpu::HalfPelFrame planes;
    const int margin = xme::cpu::restrict_margin(width, height, blocks_x * 16, blocks_y * 16);
    const double blocks = static_cast<double>(pairs) * blocks_x * blocks_y;
    for (const auto& set : xme::cpu::simd_operation_kernels()) {
        OperationKernels generic = set.kernels;
        generic.tz_search16 = nullptr;
        generic.refine_qpel16 = nullptr;
        for (const bool refine : {false, true}) {
            if (refine ? set.kernels.refine_qpel16 == nullptr : set.kernels.tz_search16 == nullptr) continue;
            double least[2] = {1e30, 1e30};
            for (int r = 0; r < repeats; ++r) {
                for (int compiled = 0; compiled < 2; ++compiled) {
                    const OperationKernels& kernels = compiled != 0 ? set.kernels : generic;
                    // The refinement reads a pair's planes right after they are filtered, as a job does
                    // (filtered here untimed): all pairs' planes filtered first would be read from memory.
                    std::chrono::duration<double, std::nano> elapsed{0};
                    std::uint64_t total = 0;
                    for (Pair& pair : prepared) {
                        if (refine) planes.assign(pair.padded_reference, set.kernels, 1, margin);
                        const xme::cpu::SearchPlane& reference =
                            refine ? pair.padded_reference : pair.reference;
                        const auto start = Clock::now();
                        for (int i = 0; i < blocks_x * blocks_y; ++i) {
                            const IntegerBlock block =
                                block_at(reference, pair.current, kernels, i % blocks_x, i / blocks_x);
                            total += refine ? xme::cpu::refine_qpel(
                                                  block, pair.vectors[static_cast<std::size_t>(i)], planes)
                                                  .cost
                                            : xme::cpu::tz_search(block).cost;
                        }
                        elapsed += Clock::now() - start;
                    }
                    least[compiled] = std::min(least[compiled], elapsed.count() / blocks);
                    sink = sink + total;
                }
            }
            std::printf("%-10s %-10s %12.1f %12.1f %9.3fx\n", refine ? "qpel" : "tz", set.name.c_str(),
                        least[0], least[1], least[0] / least[1]);
        }
    }
    // The refinement's other part: a reference frame's three half-sample planes (HalfPelFrame::assign, one
    // thread, the restrict margin), each set's kernel and the plain one alternated over the pairs' frames.
    std::printf("%-10s %-10s %12s %12s %10s   (us per frame)\n", "planes", "set", "plain", "set", "speed-up");
    for (const auto& set : xme::cpu::simd_operation_kernels()) {
        double least[2] = {1e30, 1e30};
        for (int r = 0; r < repeats; ++r) {
            for (int own = 0; own < 2; ++own) {
                for (Pair& pair : prepared) {
                    const auto start = Clock::now();
                    planes.assign(pair.padded_reference, own != 0 ? set.kernels : plain, 1, margin);
                    const std::chrono::duration<double, std::micro> elapsed = Clock::now() - start;
                    least[own] = std::min(least[own], elapsed.count());
                }
            }
        }
        std::printf("%-10s %-10s %12.1f %12.1f %9.3fx\n", "planes", set.name.c_str(), least[0], least[1],
                    least[0] / least[1]);
    }
    return 0;
}
