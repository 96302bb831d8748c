// The CPU's integer searches (SPEC §8, §11) over one square block: what a candidate costs, which ones
// a search may evaluate, and the best so far. Searches hand over sets of candidates; their SADs are
// computed four per kernel call and then applied in the set's order, which gives the same best as one
// at a time (keys are unique per vector, so a set's last improvement is its smallest key).
#pragma once

#include <array>
#include <cstdint>

#include "cpu_kernels.hpp"
#include "search_plane.hpp"
#include "xme/motion_vector.hpp"
#include "xme/params.hpp"
#include "xme/rate.hpp"

namespace xme::cpu {

struct IntegerBlock {
    const SearchPlane* reference = nullptr;
    const SearchPlane* current = nullptr;
    const OperationKernels* kernels = nullptr;
    int x = 0;  // top-left pixel in the current frame
    int y = 0;
    int size = 16;
    int range = 16;
    BorderMode border = BorderMode::pad;
    int padded_width = 0;  // Wp, Hp: the restrict test's bounds (SPEC §2)
    int padded_height = 0;
    int lambda = 0;
    MotionVector predictor;  // quarter pel
    MotionVector centre;     // integer pel
};

// The result of a search: the best integer vector, its J and SAD, and the candidates evaluated.
struct IntegerResult {
    MotionVector pel;
    std::uint64_t cost = 0;
    std::uint32_t candidates = 0;
};

// The SAD of a set of four candidates a search hands over (size x size against the block): the kernels'
// sad_x4 through its pointer, or (a SIMD set's 16x16 searches, tz_search_impl.hpp) its own, inlined.
class KernelSadX4 {
public:
    explicit KernelSadX4(const IntegerBlock& block)
        : kernel_(block.kernels->sad_x4),
          current_(block.current->block(block.x, block.y, block.size, block.size)),
          current_stride_(block.current->stride()),
          reference_stride_(block.reference->stride()),
          size_(block.size) {}
    // All four SADs: a set of fewer candidates repeats refs[0] past them.
    void operator()(const std::uint8_t* const refs[4], std::uint32_t sads[4]) const {
        kernel_(current_, current_stride_, refs, reference_stride_, size_, sads);
    }

private:
    SadX4 kernel_;
    const std::uint8_t* current_;
    std::ptrdiff_t current_stride_;
    std::ptrdiff_t reference_stride_;
    int size_;
};

template <class Sad>
class BasicCandidateSearch {
public:
    explicit BasicCandidateSearch(const IntegerBlock& block);

    // SPEC §11: a candidate outside the window, or invalid in restrict mode, is skipped and not counted.
    [[nodiscard]] bool admissible(MotionVector pel) const {
        // One box, the window intersected with the restrict bounds, computed once per block; the zero
        // vector, valid even outside the restrict bounds (SPEC §2), is the only other admissible one.
        return in_box(pel) || (zero_in_window_ && pel.x == 0 && pel.y == 0);
    }
    // The offsets' bounding box, given by the caller.
    struct OffsetBounds {
        MotionVector low, high;
    };
    static constexpr OffsetBounds unit_reach{{-1, -1}, {1, 1}};
    // The entry points stay out of line and apply() is always inlined into them, as g++ laid the class out
    // before it was a template: left to itself it moved apply() out of line and tz lost ~12%.
    // Evaluates the admissible ones of the points centre + offsets[0..count), without building them first
    // (an array of MotionVector is zeroed on construction: for tz's 16-point rounds a rep stos as dear as
    // a SAD); returns the index of the last that became the best, or -1 when none did. When the points'
    // box lies in the admissible one and their blocks are one pointer each, no point is tested or stored
    // one by one (tz 13% faster on vtest.avi, hex 25%; docs/cpu.md, "The operations path: searches").
    [[gnu::noinline]] int consider_around(MotionVector centre, const MotionVector* offsets, int count,
                                          OffsetBounds bounds);
    // Evaluates and counts every one of pels[0..count), admissible or not; same return value.
    [[gnu::noinline]] int evaluate(const MotionVector* pels, int count);
    int evaluate(MotionVector pel) { return evaluate(&pel, 1); }
    // evaluate() of the row (start.x + i, start.y), i < count, without building it: a full search's rows,
    // pointer offsets along the row where it lies in the box.
    [[gnu::noinline]] int evaluate_row(MotionVector start, int count);

    [[nodiscard]] const IntegerBlock& block() const { return block_; }
    [[nodiscard]] bool has_best() const { return has_best_; }
    [[nodiscard]] MotionVector best_pel() const { return best_pel_; }
    [[nodiscard]] std::uint32_t evaluated() const { return evaluated_; }
    [[nodiscard]] IntegerResult result() const { return {best_pel_, best_cost_, evaluated_}; }

private:
    [[nodiscard]] bool in_box(MotionVector pel) const {
        return static_cast<unsigned>(pel.x) - box_low_x_ <= box_width_ &&
               static_cast<unsigned>(pel.y) - box_low_y_ <= box_height_;
    }
    // Every point of the box [low, high] admissible, with its block one pointer away.
    [[nodiscard]] bool box_is_direct(MotionVector low, MotionVector high) const {
        return direct_ && in_box(low) && in_box(high);  // the box is convex: its far corners suffice
    }
    [[nodiscard]] const std::uint8_t* direct_block(MotionVector pel) const {
        return reference_origin_ + pel.y * reference_stride_ + pel.x;
    }
    // Any position, admissible or not: the plane's clamp serves it.
    [[nodiscard]] const std::uint8_t* clamped_block(MotionVector pel) const {
        return block_.reference->block(block_.x + pel.x, block_.y + pel.y, block_.size, block_.size);
    }
    [[nodiscard]] const std::uint8_t* reference_block(MotionVector pel) const {
        return direct_ ? direct_block(pel) : clamped_block(pel);
    }
    // consider_around's points tested and kept one by one, where they may leave the box.
    [[gnu::noinline]] int consider_each(MotionVector centre, const MotionVector* offsets, int count);
    // SADs of up to four candidates (count of them, pointers already taken), applied in order; candidate
    // k's vector and index come from pel_at(k) (a std::pair), asked only where its cost needs it.
    template <class PelAt>
    [[gnu::always_inline]] int apply(const std::uint8_t* const refs[4], int count, PelAt pel_at);
    // Candidates 0..count - 1, all counted, in sets of four: block_at(i) the block of candidate i, pel_at(i)
    // its vector.
    template <class BlockAt, class PelAt>
    [[gnu::always_inline]] int apply_in_fours(int count, BlockAt block_at, PelAt pel_at);

    const IntegerBlock& block_;
    Sad sad_;
    // The box as unsigned offsets: x is inside when x - low (wrapping) <= width, its extent minus one.
    unsigned box_low_x_ = 0;
    unsigned box_low_y_ = 0;
    unsigned box_width_ = 0;
    unsigned box_height_ = 0;
    bool zero_in_window_ = false;
    // Whether every admissible block is one pointer offset from the block's own position (no clamp to
    // the search plane's margin needed): then a candidate's block costs one multiply-add.
    bool direct_ = false;
    const std::uint8_t* reference_origin_ = nullptr;
    std::ptrdiff_t reference_stride_ = 0;
    bool has_best_ = false;
    MotionVector best_pel_;
    std::uint64_t best_cost_ = 0;
    std::uint32_t evaluated_ = 0;
};

using CandidateSearch = BasicCandidateSearch<KernelSadX4>;
extern template class BasicCandidateSearch<KernelSadX4>;  // integer_search.cpp

// The steps several searches share: SPEC §11's start (round(p / 4), then zero, zero anyway when neither
// is admissible), the small diamond (at most max_moves moves), the 8 neighbours of the best once
// (integer_search_impl.hpp).
template <class Search>
void search_start(Search& search);
template <class Search>
void small_diamond_moves(Search& search, int max_moves);
template <class Search>
void square_neighbours(Search& search);
extern template void search_start(CandidateSearch&);
extern template void small_diamond_moves(CandidateSearch&, int);
extern template void square_neighbours(CandidateSearch&);

// SPEC §11's mean pyramid levels 1 and 2 of both frames, for ehds.
struct MeanPyramid {
    SearchPlane level1_reference, level1_current, level2_reference, level2_current;
};

// SPEC §8's predictor set of a block: 0 to 5 vectors, quarter pel, in SPEC's order.
struct PredictorSet {
    std::array<MotionVector, 5> members{};
    int count = 0;
};

// What a block's search reads besides its two frames (xme/operations.hpp's Need), prepared by
// ChainEstimator for the searches whose row needs it.
struct SearchSurroundings {
    const MeanPyramid* pyramid = nullptr;  // Need::mean_pyramid
    PredictorSet predictor_set;            // Need::predictor_set
};

// SPEC §8's exhaustive search of the window (searches/full.cpp), which ehds's top level runs too.
[[nodiscard]] IntegerResult full_search_rate(const IntegerBlock& block);
// SPEC §11's tz (searches/test_zone.cpp), which xme_cpu_searches times on its own.
[[nodiscard]] IntegerResult tz_search(const IntegerBlock& block);

// Defines the CPU's kernel for a search of xme/search_methods.def, in searches/IDENTIFIER.cpp: the row
// the CPU's table (search_kernels.cpp) maps the search to.
#define XME_CPU_SEARCH(identifier)                                      \
    IntegerResult search_kernel_##identifier(const IntegerBlock& block, \
                                             [[maybe_unused]] const SearchSurroundings& surroundings)

// The CPU's table of search kernels (search_kernels.cpp): the kernel for `search`, or null.
using SearchKernelFunction = IntegerResult (*)(const IntegerBlock&, const SearchSurroundings&);
[[nodiscard]] const SearchKernelFunction* find_search_kernel(SearchMethod search);

}  // namespace xme::cpu
