// Checks the CUDA quarter-pel refinement (qpel_refine.cuh) against the reference on the host, without a
// GPU: the device code's core is __host__ __device__ and takes its warp as a parameter, so here 32
// fibers run it as the 32 lanes of one warp (shuffles and __syncwarp switch fibers), on padded frames
// laid out as FrameLayout says. The instructions it uses (dp4a, funnel shift, byte_perm) run as the
// plain C++ next to them in qpel_arith.cuh; what this cannot check is that those two agree, and the
// device's scheduling. Exits 0 when every result equals the reference's bit for bit.
#include <ucontext.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "emulation_support.hpp"
#include "qpel_refine.cuh"
#include "xme/reference_ops.hpp"

namespace {

using xme::cuda::FrameLayout;
using xme::cuda::MotionRecord;
using xme::cuda::SearchJob;
using namespace xme::cuda::emulation;

struct Case {
    SearchJob job;
    int x, y;
    MotionRecord integer;
    int px, py, lambda;
    xme::reference::BlockResult expected;
};

// Runs every case on one warp of 32 threads; returns the number of mismatches (printing the first few).
template <int B>
int run_cases(const std::vector<Case>& cases) {
    std::vector<std::array<MotionRecord, 32>> results(cases.size());
    auto scratch = std::make_unique<xme::cuda::qpel::Scratch<B>>();
    auto body = [&](FiberWarp& warp) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const Case& c = cases[i];
            results[i][static_cast<std::size_t>(warp.lane())] = xme::cuda::qpel::refine_qpel_core<B>(
                warp, *scratch, c.job, c.x, c.y, c.integer, c.px, c.py, c.lambda);
        }
    };
    if (!run_warp(body)) {
        std::printf("B=%d: the lanes diverged at a warp-wide operation\n", B);
        return 1;
    }
    int mismatches = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        for (const MotionRecord& r : results[i]) {
            const bool same = r.mv_x == c.expected.mv.x && r.mv_y == c.expected.mv.y &&
                              r.cost == c.expected.cost && r.candidates == c.integer.candidates;
            if (same) continue;
            if (++mismatches <= 10) {
                std::printf(
                    "B=%d frame %dx%d block (%d,%d) %s integer (%d,%d) p (%d,%d) lambda %d: got (%d,%d) J "
                    "%u, "
                    "reference (%d,%d) J %llu\n",
                    B, c.job.layout.width, c.job.layout.height, c.x, c.y,
                    c.job.restrict_border ? "restrict" : "pad", c.integer.mv_x, c.integer.mv_y, c.px, c.py,
                    c.lambda, r.mv_x, r.mv_y, r.cost, c.expected.mv.x, c.expected.mv.y,
                    static_cast<unsigned long long>(c.expected.cost));
            }
            break;
        }
    }
    return mismatches;
}

template <int B>
int check_block_size(std::mt19937& rng, int frames) {
    std::vector<PaddedFrame> padded;  // keeps the frames the cases point into
    padded.reserve(static_cast<std::size_t>(2 * frames));
    std::vector<Case> cases;
    for (int f = 0; f < frames; ++f) {
        std::uniform_int_distribution<int> size(1, 3 * B + 9);
        const int width = size(rng);
        const int height = size(rng);
        const int range = std::uniform_int_distribution<int>(0, 24)(rng);
        const FrameLayout layout = make_layout(width, height, B, range, f % 3 == 0 ? 1 : 0);
        const xme::Plane current = make_plane(width, height, f % 5, rng);
        const xme::Plane reference = make_plane(width, height, f % 5 == 4 ? 4 : (f + 1) % 4, rng);
        padded.push_back(pad(current, layout));
        padded.push_back(pad(reference, layout));
        const PaddedFrame& cur = padded[padded.size() - 2];
        const PaddedFrame& ref = padded.back();
        for (int restrict_mode = 0; restrict_mode < 2; ++restrict_mode) {
            SearchJob job;
            job.layout = layout;
            job.current = cur.origin();
            job.reference = ref.origin();
            job.block_size = B;
            job.range = range;
            job.restrict_border = restrict_mode == 1;
            job.blocks_x = layout.padded_width / B;
            job.blocks_y = layout.padded_height / B;
            for (int by = 0; by < job.blocks_y; ++by) {
                for (int bx = 0; bx < job.blocks_x; ++bx) {
                    Case c{};
                    c.job = job;
                    c.x = bx * B;
                    c.y = by * B;
                    // Integer winners: inside the window, beyond the margin (a window centred on a far
                    // predictor), or at the int16 limit; in restrict mode mostly a valid one.
                    const int spread = std::uniform_int_distribution<int>(0, 3)(rng);
                    const int reach =
                        spread == 0 ? range : (spread == 1 ? range + 40 : (spread == 2 ? 300 : 8191));
                    std::uniform_int_distribution<int> displacement(-reach, reach);
                    int dx = displacement(rng);
                    int dy = displacement(rng);
                    // (Mostly: the centre is costed whether valid or not, as in the reference.)
                    if (job.restrict_border && spread != 3) {
                        dx = std::clamp(dx, -c.x, layout.padded_width - B - c.x);
                        dy = std::clamp(dy, -c.y, layout.padded_height - B - c.y);
                    }
                    c.integer = {static_cast<std::int16_t>(4 * dx), static_cast<std::int16_t>(4 * dy),
                                 std::uniform_int_distribution<std::uint32_t>(0, 5000)(rng), 1089};
                    const int p_kind = std::uniform_int_distribution<int>(0, 3)(rng);
                    std::uniform_int_distribution<int> near(-12, 12);
                    std::uniform_int_distribution<int> far(-32768, 32767);
                    c.px = p_kind == 0 ? 0 : (p_kind == 3 ? far(rng) : 4 * dx + near(rng));
                    c.py = p_kind == 0 ? 0 : (p_kind == 3 ? far(rng) : 4 * dy + near(rng));
                    const int l_kind = std::uniform_int_distribution<int>(0, 3)(rng);
                    c.lambda = l_kind == 0
                                   ? 0
                                   : (l_kind == 1 ? 65535 : std::uniform_int_distribution<int>(1, 91)(rng));

                    xme::reference::BlockSearch search;
                    search.reference = {reference.data(), width, height, width};
                    search.current = {current.data(), width, height, width};
                    search.x = c.x;
                    search.y = c.y;
                    search.width = B;
                    search.height = B;
                    search.restrict_block_size = B;
                    search.range = range;
                    search.border = job.restrict_border ? xme::BorderMode::restrict : xme::BorderMode::pad;
                    search.lambda = c.lambda;
                    search.predictor = {c.px, c.py};
                    c.expected = xme::reference::refine_qpel(search, {c.integer.mv_x, c.integer.mv_y});
                    cases.push_back(c);
                }
            }
        }
    }
    const int mismatches = run_cases<B>(cases);
    std::printf("B=%d: %zu blocks, %d mismatches\n", B, cases.size(), mismatches);
    return mismatches;
}

}  // namespace

int main(int argc, char** argv) {
    const int frames = argc > 1 ? std::atoi(argv[1]) : 24;
    std::mt19937 rng(20261122);
    int mismatches = 0;
    mismatches += check_block_size<4>(rng, frames);
    mismatches += check_block_size<8>(rng, frames);
    mismatches += check_block_size<16>(rng, frames);
    mismatches += check_block_size<32>(rng, frames);
    return mismatches == 0 ? 0 : 1;
}
