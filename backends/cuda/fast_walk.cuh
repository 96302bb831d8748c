// SPEC §11's fast searches as one warp per image block: the reference's IntegerCandidateTracker
// (engine/src/reference/integer_candidates.cpp) warp-uniform, with a step's candidates costed side by
// side (one lane group each, the group's lanes over the block's pixels), and the steps the searches
// share (§11's start, the small diamond, the 8 neighbours). __host__ __device__ and generic in the warp
// (lane(), shfl_xor(), count(): qpel::DeviceWarp on the device, 32 fibers in walk_emulation_test.cpp),
// so that the walks run on the host against the reference. searches/ has each search's
// walk, one file per search; walk_search_kernel.cuh runs them.
#pragma once

#include "predictor_set.cuh"
#include "rate_key.cuh"
#include "xme/params.hpp"

namespace xme::cuda::walk {

using qpel::absdiff4;
using qpel::read_only;

// Sums v over each group of `lanes` lanes (a power of two, groups aligned): every lane gets its group's.
template <class Warp>
XME_QPEL_HD std::uint32_t group_sum(Warp& warp, std::uint32_t v, int lanes) {
    for (int offset = lanes / 2; offset > 0; offset >>= 1) v += warp.shfl_xor(v, offset);
    return v;
}

// The least key over the warp; every lane gets it. On sm_80+ as `redux.sync.min`s, field by field among
// the lanes still tied (cost, then distance, then y, then x, signed as unsigned by flipping the sign
// bit): the shuffle ladder takes five rounds of four shuffles and a four-field compare, a dependent
// chain in every step of a walk. A step whose every key is invalid gives the invalid key.
template <class Warp>
XME_QPEL_HD RateKey key_min(Warp& warp, RateKey key) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    (void)warp;
    constexpr unsigned kAll = 0xFFFFFFFFu;
    constexpr std::uint32_t kSign = 0x80000000u;
    const std::uint32_t cost = __reduce_min_sync(kAll, key.cost);
    if (cost == RateKey{}.cost) return RateKey{};
    bool tied = key.cost == cost;
    const std::uint32_t distance = __reduce_min_sync(kAll, tied ? key.distance : ~0u);
    tied = tied && key.distance == distance;
    const std::uint32_t y = __reduce_min_sync(kAll, tied ? static_cast<std::uint32_t>(key.y) ^ kSign : ~0u);
    tied = tied && (static_cast<std::uint32_t>(key.y) ^ kSign) == y;
    const std::uint32_t x = __reduce_min_sync(kAll, tied ? static_cast<std::uint32_t>(key.x) ^ kSign : ~0u);
    return {cost, distance, static_cast<int>(y ^ kSign), static_cast<int>(x ^ kSign)};
#else
    for (int offset = 16; offset > 0; offset >>= 1) {
        const RateKey other{warp.shfl_xor(key.cost, offset), warp.shfl_xor(key.distance, offset),
                            static_cast<int>(warp.shfl_xor(static_cast<std::uint32_t>(key.y), offset)),
                            static_cast<int>(warp.shfl_xor(static_cast<std::uint32_t>(key.x), offset))};
        if (other < key) key = other;
    }
    return key;
#endif
}

// The SAD of the B x B block at (x, y) of the current frame (its words, 4 pixels each, row-major, in
// `words`) against the reference displaced by pel, by a group of `lanes` lanes (`sub` the lane's place):
// each lane sums every lanes-th word from the expanded reference (SPEC §1's replication beyond its
// margin), then the group adds its lanes.
template <int B>
struct BlockCost {
    static constexpr int kWords = B * B / 4;
    const SearchJob& job;
    const std::uint32_t* words;
    int x, y;

    // The reference's 4 bytes at (column .. column + 3, row), replicated beyond the stored margin.
    XME_QPEL_HD std::uint32_t clamped_word(int column, int row) const {
        std::uint32_t word = 0;
        for (int i = 0; i < 4; ++i)
            word |= static_cast<std::uint32_t>(reference_pel(job, column + i, row)) << (8 * i);
        return word;
    }

    template <class Warp>
    XME_QPEL_HD std::uint32_t operator()(Warp& warp, int sub, int lanes, Vector pel) const {
        constexpr int kRowWords = B / 4;
        const FrameLayout& f = job.layout;
        const int left = x + pel.x;
        const int top = y + pel.y;
        const bool stored = stored_region(f).holds(left, top, B);
        std::uint32_t sad = 0;
        if (stored) {
            // The words' addresses advance by constants, four loads in flight per lane: a lane of a wide
            // step (tz's raster: 32 candidates, one lane each) reads its candidate's words alone, and one
            // at a time, each with its own address arithmetic, it would wait out every load.
            const std::uint32_t* origin =
                job.reference_words + static_cast<std::ptrdiff_t>(top) * f.pitch + left;
            if (lanes >= kRowWords) {  // a lane keeps one column of words and steps down the rows
                const std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(lanes / kRowWords) * f.pitch;
                const std::uint32_t* ref =
                    origin + static_cast<std::ptrdiff_t>(sub / kRowWords) * f.pitch + 4 * (sub % kRowWords);
                XME_QPEL_UNROLL_BY_4
                for (int k = sub; k < kWords; k += lanes, ref += stride)
                    sad = absdiff4(words[k], read_only(ref), sad);
            } else if (lanes == 1) {  // the whole candidate: rows down, each row's words unrolled
                const std::uint32_t* row = origin;
                XME_QPEL_UNROLL_BY_4
                for (int j = 0; j < B; ++j, row += f.pitch) {
                    XME_QPEL_UNROLL
                    for (int c = 0; c < kRowWords; ++c)
                        sad = absdiff4(words[j * kRowWords + c], read_only(row + 4 * c), sad);
                }
            } else {  // several words of every row
                const std::uint32_t* row = origin;
                for (int j = 0; j < B; ++j, row += f.pitch) {
                    for (int c = sub; c < kRowWords; c += lanes)
                        sad = absdiff4(words[j * kRowWords + c], read_only(row + 4 * c), sad);
                }
            }
        } else {
            for (int k = sub; k < kWords; k += lanes)
                sad = absdiff4(words[k], clamped_word(left + 4 * (k % kRowWords), top + k / kRowWords), sad);
        }
        return group_sum(warp, sad, lanes);
    }
};

// Which candidates a tracker may evaluate: SPEC §11's window centre +- range, and in restrict mode
// (level 0 only) the displaced block inside the padded frame; the zero vector is always valid.
struct Bounds {
    Vector centre;
    int range = 0;
    bool restrict_border = false;
    int low_x = 0, high_x = 0, low_y = 0, high_y = 0;  // restrict: the valid displacements

    XME_QPEL_HD bool valid(Vector pel) const {
        if ((pel.x == 0 && pel.y == 0) || !restrict_border) return true;
        return pel.x >= low_x && pel.x <= high_x && pel.y >= low_y && pel.y <= high_y;
    }
    XME_QPEL_HD bool inside(Vector pel) const {
        return qpel::absolute(pel.x - centre.x) <= range && qpel::absolute(pel.y - centre.y) <= range &&
               valid(pel);
    }
};

// Level 0's bounds for the block at (x, y): the job's range and border around centre c.
XME_QPEL_HD Bounds block_bounds(const SearchJob& job, int x, int y, Vector c) {
    const int b = job.block_size;
    return {c,
            job.range,
            job.restrict_border,
            -x,
            job.layout.padded_width - b - x,
            -y,
            job.layout.padded_height - b - y};
}

// The reference's IntegerCandidateTracker, warp-uniform: every lane holds the same state. A step costs
// its candidates side by side and then keeps the least key, which is what considering them one after
// another gives (keys of distinct vectors differ, "better" is strictly smaller), and counts every
// candidate it evaluated (twice if it appears twice).
template <class Warp, class Cost>
struct Tracker {
    Warp& warp;
    Cost cost;  // by value: a reference to it would put it (and its users) in local memory
    Bounds bounds;
    int lambda;
    Vector p;  // quarter-pel predictor of the rate term
    RateKey best;
    Vector best_pel;
    std::uint32_t evaluated = 0;

    // Considers candidates pel(0 .. count) (checked = false: evaluates them without the window and
    // validity tests, as the reference's evaluate()); returns whether the best moved. Up to 32 at a time,
    // each on 32 / (count rounded up to a power of two) lanes.
    template <class Candidates>
    XME_QPEL_HD bool step(int count, const Candidates& pel, bool checked = true) {
        bool moved = false;
        const int lane = warp.lane();
        for (int first = 0; first < count; first += 32) {
            const int n = qpel::min_int(count - first, 32);
            const int lanes = n <= 1 ? 32 : n <= 2 ? 16 : n <= 4 ? 8 : n <= 8 ? 4 : n <= 16 ? 2 : 1;
            const int group = lane / lanes;
            const Vector v =
                pel(first + qpel::min_int(group, n - 1));  // idle groups repeat the last, uncounted
            const bool valid = !checked || bounds.inside(v);
            const std::uint32_t sad = cost(warp, lane % lanes, lanes, v);
            evaluated += warp.count(valid && group < n && lane % lanes == 0);
            const RateKey key = valid ? rate_key(sad, lambda, 4 * v.x, 4 * v.y, p) : RateKey{};
            const RateKey least = key_min(warp, key);
            if (least < best) {
                best = least;
                best_pel = {least.x / 4, least.y / 4};
                moved = true;
            }
        }
        return moved;
    }
};

// Candidate lists for Tracker::step, computed rather than read from a table (a local array would live in
// local memory on the device).
struct Two {  // a, then b
    Vector a, b;
    XME_QPEL_HD Vector operator()(int i) const { return i == 0 ? a : b; }
};
struct Diamond {  // centre + (1, 0), (-1, 0), (0, 1), (0, -1)
    Vector centre;
    XME_QPEL_HD Vector operator()(int i) const {
        const int sign = (i & 1) != 0 ? -1 : 1;
        return {centre.x + (i < 2 ? sign : 0), centre.y + (i < 2 ? 0 : sign)};
    }
};
struct Hexagon {  // centre + (2, 0), (-2, 0), (1, 2), (-1, 2), (1, -2), (-1, -2)
    Vector centre;
    XME_QPEL_HD Vector operator()(int i) const {
        const int sign = (i & 1) != 0 ? -1 : 1;
        if (i < 2) return {centre.x + 2 * sign, centre.y};
        return {centre.x + sign, centre.y + (i < 4 ? 2 : -2)};
    }
};
struct Square {  // the 8 neighbours of centre, row by row
    Vector centre;
    XME_QPEL_HD Vector operator()(int i) const {
        const int k = i < 4 ? i : i + 1;  // skips the centre, k = 4
        return {centre.x + k % 3 - 1, centre.y + k / 3 - 1};
    }
};

// SPEC §11's start: round(p / 4), then 0; the zero vector evaluated anyway when neither counts.
template <class T>
XME_QPEL_HD void start(T& t) {
    const std::uint32_t before = t.evaluated;
    const Vector zero{};
    t.step(2, Two{{round_quarter(t.p.x), round_quarter(t.p.y)}, zero});
    if (t.evaluated == before) t.step(1, Two{zero, zero}, false);
}

// SPEC §11's dia from the current best: at most max_moves moves.
template <class T>
XME_QPEL_HD void small_diamond(T& t, int max_moves) {
    for (int moves = 0; moves < max_moves; ++moves) {
        if (!t.step(4, Diamond{t.best_pel})) break;
    }
}

// The 8 neighbours of the best, once (the last step of hex and ehds).
template <class T>
XME_QPEL_HD void square_neighbours(T& t) {
    t.step(8, Square{t.best_pel});
}

// A search's walk (searches/IDENTIFIER.cuh specialises it for its search of xme/search_methods.def):
// `template <class Warp, class T> static std::uint32_t run(Warp&, T& t, const SearchJob&, int x, int y,
// const PredictorSet& set)` walks level 0's tracker t of the block at (x, y) and returns the candidates
// it evaluated elsewhere (ehds's upper levels), which count alike with t's. `set` is SPEC §8's predictor
// set of the block when the search's row needs it (Need::predictor_set), else empty.
template <SearchMethod S>
struct Walk;

}  // namespace xme::cuda::walk
