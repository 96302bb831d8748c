// Checks SPEC §11's fast searches as the CUDA kernel walks them (fast_walk.cuh, every walk of searches/)
// against the reference (engine/src/reference/searches/) on the host, without a GPU:
// 32 fibers run the device code as one warp (emulation_support.hpp), on frames padded and expanded as
// on the device, with ehds's pyramid built by the device's per-pixel code (mean_pyramid.cuh, itself
// compared with the reference's mean_downsample). Random frames of several kinds (noise, clipping
// patterns, nearly flat, a smooth texture moved by a random vector) and real clip frames, every §8
// setting (lambda, predictor near and far, window centre), both border modes; each block's §8 predictor
// set (predictor_set.cuh, compared with the reference's) from random fields of this frame and the
// previous pair, or without T as at a segment's start. A fresh seed each run,
// printed: `xme_cuda_walk_emulation [CLIP [SEED]]` reruns one. What this cannot check: that vabsdiff4 and
// __ldg compute what their host stand-ins do, the device's scheduling, and the refinements (which the
// conformance suite checks on the GPU). Exits 0 when every result equals the reference's bit for bit.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "cuda_search_walks.hpp"
#include "emulation_support.hpp"
#include "mean_pyramid.cuh"
#include "xme/reference_ops.hpp"

namespace {

using namespace xme::cuda;
using namespace xme::cuda::emulation;
namespace ref = xme::reference;

// Every search with a walk in searches/ (the CUDA table of search kernels' rows).
constexpr xme::SearchMethod kWalks[] = {
#define XME_SEARCH_KERNEL(identifier) xme::SearchMethod::identifier,
#include "cuda_search_kernels.inc"
#undef XME_SEARCH_KERNEL
};
constexpr std::size_t kWalkCount = sizeof(kWalks) / sizeof(kWalks[0]);

template <class Warp, class T>
std::uint32_t run_walk(xme::SearchMethod search, Warp& warp, T& t, const SearchJob& job, int x, int y,
                       const PredictorSet& set) {
    switch (search) {
#define XME_SEARCH_KERNEL(identifier)   \
    case xme::SearchMethod::identifier: \
        return walk::Walk<xme::SearchMethod::identifier>::run(warp, t, job, x, y, set);
#include "cuda_search_kernels.inc"
#undef XME_SEARCH_KERNEL
        default:
            std::abort();
    }
}

// ehds's levels as the device builds them, from the raw frame.
struct DevicePyramid {
    std::vector<std::uint8_t> level1, level2;
};

DevicePyramid device_pyramid(const xme::Plane& plane) {
    const int w = plane.width();
    const int h = plane.height();
    DevicePyramid p{
        std::vector<std::uint8_t>(static_cast<std::size_t>(pyramid_side(w, 1) * pyramid_side(h, 1))),
        std::vector<std::uint8_t>(static_cast<std::size_t>(pyramid_side(w, 2) * pyramid_side(h, 2)))};
    for (int y2 = 0; y2 < pyramid_side(h, 2); ++y2) {
        for (int x2 = 0; x2 < pyramid_side(w, 2); ++x2)
            pyramid_pixel(plane.data(), w, h, x2, y2, p.level1.data(), p.level2.data());
    }
    return p;
}

bool same_plane(const std::vector<std::uint8_t>& got, const xme::Plane& expected) {
    return got.size() == static_cast<std::size_t>(expected.width() * expected.height()) &&
           std::equal(got.begin(), got.end(), expected.data());
}

// A frame pair with everything the device and the reference read.
struct Pair {
    xme::Plane reference, current;
    PaddedFrame reference_padded, current_padded;
    DevicePyramid reference_levels, current_levels;
    xme::Plane l1r, l1c, l2r, l2c;  // the reference's pyramid
};

std::unique_ptr<Pair> make_pair(xme::Plane reference, xme::Plane current, int block, int range, int extra) {
    auto pair = std::make_unique<Pair>();
    const FrameLayout layout = make_layout(current.width(), current.height(), block, range, extra);
    pair->reference_padded = pad(reference, layout);
    pair->current_padded = pad(current, layout);
    pair->reference_levels = device_pyramid(reference);
    pair->current_levels = device_pyramid(current);
    pair->l1r = ref::mean_downsample(reference.view());
    pair->l1c = ref::mean_downsample(current.view());
    pair->l2r = ref::mean_downsample(pair->l1r.view());
    pair->l2c = ref::mean_downsample(pair->l1c.view());
    pair->reference = std::move(reference);
    pair->current = std::move(current);
    return pair;
}

struct Case {
    const Pair* pair;
    xme::SearchMethod search;
    SearchJob job;
    int bx, by;
    Vector p;
    PredictorSet set;
    ref::BlockResult expected;
};

template <int B, class Warp>
MotionRecord walk_block(Warp& warp, std::uint32_t* words, const Case& c) {
    const int x = c.bx * B;
    const int y = c.by * B;
    warp.sync();  // the previous case's reads of words are done
    for (int k = warp.lane(); k < walk::BlockCost<B>::kWords; k += 32) {
        const std::uint8_t* at = c.job.current +
                                 static_cast<std::ptrdiff_t>(y + k / (B / 4)) * c.job.layout.pitch + x +
                                 4 * (k % (B / 4));
        std::memcpy(&words[k], at, 4);
    }
    warp.sync();
    const walk::BlockCost<B> cost{c.job, words, x, y};
    const Vector centre =
        c.job.rate.centre_on_predictor ? Vector{round_quarter(c.p.x), round_quarter(c.p.y)} : Vector{};
    walk::Tracker<Warp, walk::BlockCost<B>> t{
        warp, cost, walk::block_bounds(c.job, x, y, centre), c.job.rate.lambda, c.p, RateKey{}, Vector{}, 0};
    const std::uint32_t above = run_walk(c.search, warp, t, c.job, x, y, c.set);
    return {static_cast<std::int16_t>(4 * t.best_pel.x), static_cast<std::int16_t>(4 * t.best_pel.y),
            t.best.cost, t.evaluated + above};
}

// Runs every case on one emulated warp; returns the mismatches (printing the first few).
template <int B>
int run_cases(const std::vector<Case>& cases) {
    std::vector<std::array<MotionRecord, 32>> results(cases.size());
    std::vector<std::uint32_t> words(B * B / 4);
    auto body = [&](FiberWarp& warp) {
        for (std::size_t i = 0; i < cases.size(); ++i)
            results[i][static_cast<std::size_t>(warp.lane())] = walk_block<B>(warp, words.data(), cases[i]);
    };
    if (!run_warp(body)) {
        std::printf("B=%d: the lanes diverged at a warp-wide operation\n", B);
        return 1;
    }
    int mismatches = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        for (const MotionRecord& r : results[i]) {
            if (r.mv_x == c.expected.mv.x && r.mv_y == c.expected.mv.y && r.cost == c.expected.cost &&
                r.candidates == c.expected.candidates)
                continue;
            if (++mismatches <= 10) {
                std::printf(
                    "%s B=%d frame %dx%d block (%d,%d) %s range %d lambda %d p (%d,%d)%s set of %d: "
                    "got (%d,%d) J %u n %u, reference (%d,%d) J %llu n %u\n",
                    std::string(to_string(c.search)).c_str(), B, c.job.layout.width, c.job.layout.height,
                    c.bx, c.by, c.job.restrict_border ? "restrict" : "pad", c.job.range, c.job.rate.lambda,
                    c.p.x, c.p.y, c.job.rate.centre_on_predictor ? " centred" : "", c.set.count, r.mv_x,
                    r.mv_y, r.cost, r.candidates, c.expected.mv.x, c.expected.mv.y,
                    static_cast<unsigned long long>(c.expected.cost), c.expected.candidates);
            }
            break;
        }
    }
    return mismatches;
}

// A random field of final vectors (quarter pel) for the predictor set: zero, near the window, far
// outside it, or a repeat of the block before.
std::vector<MotionRecord> random_field(int blocks, int range, std::mt19937& rng) {
    std::uniform_int_distribution<int> near(-4 * range - 8, 4 * range + 8);
    std::uniform_int_distribution<int> far(-1200, 1200);
    std::vector<MotionRecord> field(static_cast<std::size_t>(blocks), MotionRecord{0, 0, 0, 1});
    for (std::size_t i = 0; i < field.size(); ++i) {
        const int kind = std::uniform_int_distribution<int>(0, 4)(rng);
        Vector v;
        if (kind == 1 || kind == 2) v = {near(rng), near(rng)};
        if (kind == 3) v = {far(rng), far(rng)};
        if (kind == 4 && i > 0) v = {field[i - 1].mv_x, field[i - 1].mv_y};
        field[i].mv_x = static_cast<std::int16_t>(v.x);
        field[i].mv_y = static_cast<std::int16_t>(v.y);
    }
    return field;
}

// Every block of the pair, each with one algorithm and random §8 settings. Returns the blocks whose
// predictor set (predictor_set.cuh) differs from the reference's.
template <int B>
int add_cases(std::vector<Case>& cases, const Pair& pair, int range, std::mt19937& rng) {
    int set_mismatches = 0;
    const FrameLayout& layout = pair.current_padded.layout;
    const int width = layout.width;
    const int height = layout.height;
    for (int restrict_mode = 0; restrict_mode < 2; ++restrict_mode) {
        SearchJob job;
        job.layout = layout;
        job.current = pair.current_padded.origin();
        job.reference = pair.reference_padded.origin();
        job.reference_words = pair.reference_padded.words_origin();
        job.block_size = B;
        job.range = range;
        job.restrict_border = restrict_mode == 1;
        job.blocks_x = layout.padded_width / B;
        job.blocks_y = layout.padded_height / B;
        job.pyramid.current[0] = pair.current_levels.level1.data();
        job.pyramid.current[1] = pair.current_levels.level2.data();
        job.pyramid.reference[0] = pair.reference_levels.level1.data();
        job.pyramid.reference[1] = pair.reference_levels.level2.data();
        for (int level = 0; level < 2; ++level) {
            job.pyramid.width[level] = pyramid_side(width, level + 1);
            job.pyramid.height[level] = pyramid_side(height, level + 1);
        }
        // This frame's final vectors (read above and to the left of each block) and the previous pair's.
        const std::vector<MotionRecord> finals = random_field(job.blocks_x * job.blocks_y, range, rng);
        const std::vector<MotionRecord> previous = random_field(job.blocks_x * job.blocks_y, range, rng);
        std::vector<xme::MotionVector> final_vectors;
        for (const MotionRecord& r : finals) final_vectors.push_back({r.mv_x, r.mv_y});
        for (int by = 0; by < job.blocks_y; ++by) {
            for (int bx = 0; bx < job.blocks_x; ++bx) {
                Case c{&pair, {}, job, bx, by, {}, {}, {}};
                // Any walk defined for this block size (search_methods.def's min_block).
                do {
                    c.search = kWalks[std::uniform_int_distribution<std::size_t>(0, kWalkCount - 1)(rng)];
                } while (xme::min_block_size(c.search) > B);
                const int l_kind = std::uniform_int_distribution<int>(0, 3)(rng);
                c.job.rate.lambda = l_kind == 0   ? 0
                                    : l_kind == 1 ? 4
                                    : l_kind == 2 ? 40
                                                  : std::uniform_int_distribution<int>(1, 2000)(rng);
                const int p_kind = std::uniform_int_distribution<int>(0, 3)(rng);
                std::uniform_int_distribution<int> near(-4 * range - 8, 4 * range + 8);
                std::uniform_int_distribution<int> far(-1200, 1200);
                c.p = p_kind == 0   ? Vector{}
                      : p_kind == 3 ? Vector{far(rng), far(rng)}
                                    : Vector{near(rng), near(rng)};
                c.job.rate.centre_on_predictor = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
                const Vector centre = c.job.rate.centre_on_predictor
                                          ? Vector{round_quarter(c.p.x), round_quarter(c.p.y)}
                                          : Vector{};
                const ref::BlockSearch search{
                    pair.reference.view(),
                    pair.current.view(),
                    bx * B,
                    by * B,
                    B,
                    B,
                    B,
                    range,
                    job.restrict_border ? xme::BorderMode::restrict : xme::BorderMode::pad,
                    c.job.rate.lambda,
                    {c.p.x, c.p.y},
                    {centre.x, centre.y}};
                // T is absent at a segment's start.
                const bool segment_start = std::uniform_int_distribution<int>(0, 3)(rng) == 0;
                const MotionRecord& t = previous[static_cast<std::size_t>(by * job.blocks_x + bx)];
                const xme::MotionVector temporal{t.mv_x, t.mv_y};
                c.set = block_predictor_set(finals.data(), job.blocks_x, bx, by,
                                            segment_start ? nullptr : previous.data());
                ref::SearchSurroundings surroundings;
                surroundings.predictor_set = ref::predictor_set(final_vectors, job.blocks_x, job.blocks_y, bx,
                                                                by, segment_start ? nullptr : &temporal);
                bool same_set = static_cast<int>(surroundings.predictor_set.size()) == c.set.count;
                for (int i = 0; same_set && i < c.set.count; ++i) {
                    const xme::MotionVector& m = surroundings.predictor_set[static_cast<std::size_t>(i)];
                    same_set = m.x == c.set.at(i).x && m.y == c.set.at(i).y;
                }
                if (!same_set && ++set_mismatches <= 10) {
                    std::printf(
                        "B=%d frame %dx%d block (%d,%d): predictor set of %d members, reference %zu\n", B,
                        width, height, bx, by, c.set.count, surroundings.predictor_set.size());
                }
                surroundings.level1_reference = pair.l1r.view();
                surroundings.level1_current = pair.l1c.view();
                surroundings.level2_reference = pair.l2r.view();
                surroundings.level2_current = pair.l2c.view();
                c.expected = ref::integer_search(c.search, search, surroundings);
                cases.push_back(c);
            }
        }
    }
    return set_mismatches;
}

template <int B>
int check_block_size(std::mt19937& rng, int frames, const std::string& clip) {
    std::vector<std::unique_ptr<Pair>> pairs;
    std::vector<Case> cases;
    int pyramid_mismatches = 0;
    int set_mismatches = 0;
    for (int f = 0; f < frames; ++f) {
        const int range = f % 4 == 0 ? 32 : std::uniform_int_distribution<int>(0, 20)(rng);
        std::uniform_int_distribution<int> size(f % 3 == 0 ? 1 : B, 3 * B + 17);
        int width = size(rng);
        int height = size(rng);
        std::optional<std::pair<xme::Plane, xme::Plane>> planes;
        if (f % 5 == 1 && !clip.empty()) {
            width = 48 + B;
            height = 40 + B;
            planes = clip_crop(clip, 1 + f % 3, 200 + 17 * f, 150 + 5 * f, width, height);
        }
        if (!planes && f % 2 == 0) planes = moved_texture(width, height, rng, range + 4);
        if (!planes)
            planes =
                std::pair{make_plane(width, height, f % 5, rng), make_plane(width, height, (f + 1) % 5, rng)};
        pairs.push_back(
            make_pair(std::move(planes->first), std::move(planes->second), B, range, f % 3 == 0 ? 1 : 0));
        const Pair& pair = *pairs.back();
        pyramid_mismatches += same_plane(pair.reference_levels.level1, pair.l1r) ? 0 : 1;
        pyramid_mismatches += same_plane(pair.reference_levels.level2, pair.l2r) ? 0 : 1;
        pyramid_mismatches += same_plane(pair.current_levels.level2, pair.l2c) ? 0 : 1;
        set_mismatches += add_cases<B>(cases, pair, range, rng);
    }
    const int mismatches = run_cases<B>(cases);
    std::string per_walk;
    for (const xme::SearchMethod search : kWalks) {
        const auto count =
            std::count_if(cases.begin(), cases.end(), [&](const Case& c) { return c.search == search; });
        per_walk +=
            (per_walk.empty() ? "" : ", ") + std::string(to_string(search)) + " " + std::to_string(count);
    }
    std::printf("B=%d: %zu blocks (%s), %d mismatches, %d pyramid planes differ, %d predictor sets differ\n",
                B, cases.size(), per_walk.c_str(), mismatches, pyramid_mismatches, set_mismatches);
    return mismatches + pyramid_mismatches + set_mismatches;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string clip = usable_clip(argc > 1 ? argv[1] : "");
    const unsigned seed =
        argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10)) : std::random_device{}();
    std::printf("seed %u (rerun: xme_cuda_walk_emulation '%s' %u)\n", seed, clip.c_str(), seed);
    std::mt19937 rng(seed);
    int mismatches = 0;
    mismatches += check_block_size<4>(rng, 6, clip);
    mismatches += check_block_size<8>(rng, 8, clip);
    mismatches += check_block_size<16>(rng, 8, clip);
    mismatches += check_block_size<32>(rng, 5, clip);
    return mismatches == 0 ? 0 : 1;
}
