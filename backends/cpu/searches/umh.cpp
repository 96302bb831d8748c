// SPEC §11 `umh`: x264's uneven multi-hexagon search in FFmpeg's form: §11's start and §8's predictor
// set, the unsymmetrical cross, the 5x5 grid, the 16-point hexagon at radii 1 .. R/4, then the
// hexagon walk and the small diamond once. Each step's centre is fixed for the step.
#include <vector>

#include "integer_search.hpp"
#include "xme/rate.hpp"

namespace xme::cpu {
namespace {

constexpr MotionVector grid[24] = {{-2, -2}, {-1, -2}, {0, -2}, {1, -2}, {2, -2}, {-2, -1}, {-1, -1}, {0, -1},
                                   {1, -1},  {2, -1},  {-2, 0}, {-1, 0}, {1, 0},  {2, 0},   {-2, 1},  {-1, 1},
                                   {0, 1},   {1, 1},   {2, 1},  {-2, 2}, {-1, 2}, {0, 2},   {1, 2},   {2, 2}};
constexpr MotionVector multi_hexagon[16] = {{-4, -2}, {-4, -1}, {-4, 0}, {-4, 1}, {-4, 2}, {4, -2},
                                            {4, -1},  {4, 0},   {4, 1},  {4, 2},  {-2, 3}, {0, 4},
                                            {2, 3},   {-2, -3}, {0, -4}, {2, -3}};
constexpr MotionVector hexagon[6] = {{2, 0}, {-2, 0}, {1, 2}, {-1, 2}, {1, -2}, {-1, -2}};
constexpr MotionVector diamond[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

// Step 2's offsets for range R, in SPEC's order: (-d, 0), (d, 0), then (0, -d), (0, d) while d <= R/2.
const std::vector<MotionVector>& cross_offsets(int range) {
    thread_local std::vector<MotionVector> offsets;
    thread_local int built_for = -1;
    if (built_for != range) {
        offsets.clear();
        for (int d = 1; d <= range; d += 2) {
            offsets.push_back({-d, 0});
            offsets.push_back({d, 0});
            if (d <= range / 2) {
                offsets.push_back({0, -d});
                offsets.push_back({0, d});
            }
        }
        built_for = range;
    }
    return offsets;
}

}  // namespace

XME_CPU_SEARCH(umh) {
    CandidateSearch search(block);
    search_start(search);
    const PredictorSet& set = surroundings.predictor_set;
    constexpr MotionVector here{0, 0};
    for (int i = 0; i < set.count; ++i) {
        const MotionVector pel = round_quarter_to_pel(set.members[static_cast<std::size_t>(i)]);
        search.consider_around(pel, &here, 1, {here, here});
    }
    const int range = block.range;
    const std::vector<MotionVector>& cross = cross_offsets(range);
    const int reach_x = range % 2 == 1 ? range : range - 1;
    const int half = range / 2;
    const int reach_y = half % 2 == 1 ? half : half - 1;
    if (!cross.empty()) {
        search.consider_around(search.best_pel(), cross.data(), static_cast<int>(cross.size()),
                               {{-reach_x, reach_y > 0 ? -reach_y : 0}, {reach_x, reach_y > 0 ? reach_y : 0}});
    }
    search.consider_around(search.best_pel(), grid, 24, {{-2, -2}, {2, 2}});
    const MotionVector centre = search.best_pel();
    for (int k = 1; k <= range / 4; ++k) {
        MotionVector ring[16];
        for (int i = 0; i < 16; ++i) ring[i] = {k * multi_hexagon[i].x, k * multi_hexagon[i].y};
        search.consider_around(centre, ring, 16, {{-4 * k, -4 * k}, {4 * k, 4 * k}});
    }
    for (int moves = 0; moves < range; ++moves) {
        if (search.consider_around(search.best_pel(), hexagon, 6, {{-2, -2}, {2, 2}}) < 0) break;
    }
    search.consider_around(search.best_pel(), diamond, 4, BasicCandidateSearch<KernelSadX4>::unit_reach);
    return search.result();
}

}  // namespace xme::cpu
