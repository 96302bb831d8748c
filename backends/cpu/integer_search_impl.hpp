// BasicCandidateSearch's members and the searches' shared steps, for the TUs that instantiate them: the
// kernels' sad_x4 through its pointer (integer_search.cpp), a SIMD set's own inlined (its 16x16 searches).
#pragma once

#include <algorithm>
#include <climits>
#include <utility>

#include "integer_search.hpp"

namespace xme::cpu {

template <class Sad>
BasicCandidateSearch<Sad>::BasicCandidateSearch(const IntegerBlock& block) : block_(block), sad_(block) {
    const IntegerBlock& b = block;
    MotionVector low{b.centre.x - b.range, b.centre.y - b.range};
    MotionVector high{b.centre.x + b.range, b.centre.y + b.range};
    zero_in_window_ = low.x <= 0 && 0 <= high.x && low.y <= 0 && 0 <= high.y;
    if (b.border == BorderMode::restrict) {
        // SPEC §2: the displaced block inside the padded frame.
        low = {std::max(low.x, -b.x), std::max(low.y, -b.y)};
        high = {std::min(high.x, b.padded_width - b.size - b.x),
                std::min(high.y, b.padded_height - b.size - b.y)};
    }
    if (low.x <= high.x && low.y <= high.y) {
        box_low_x_ = static_cast<unsigned>(low.x);
        box_low_y_ = static_cast<unsigned>(low.y);
        box_width_ = static_cast<unsigned>(high.x - low.x);
        box_height_ = static_cast<unsigned>(high.y - low.y);
    } else {
        // An empty box: no vector reaches INT_MIN, so nothing is inside.
        box_low_x_ = static_cast<unsigned>(INT_MIN);
    }
    reference_stride_ = b.reference->stride();
    reference_origin_ = b.reference->block(b.x, b.y, b.size, b.size);
    // The plane's clamp is monotone in each coordinate: when the box's two far corners are not clamped,
    // no position between them is.
    const auto unclamped = [&](MotionVector pel) {
        return b.reference->block(b.x + pel.x, b.y + pel.y, b.size, b.size) ==
               reference_origin_ + pel.y * reference_stride_ + pel.x;
    };
    direct_ = unclamped(low) && unclamped(high);
}

template <class Sad>
template <class PelAt>
inline int BasicCandidateSearch<Sad>::apply(const std::uint8_t* const refs[4], int count, PelAt pel_at) {
    const IntegerBlock& b = block_;
    std::uint32_t sads[4];
    sad_(refs, sads);
    if (b.lambda == 0 && has_best_) {
        // Most sets hold no improvement: one test for the set instead of an unpredictable one per candidate.
        std::uint32_t least = sads[0];
        for (int k = 1; k < count; ++k) least = std::min(least, sads[k]);
        if (least > best_cost_) return -1;
    }
    int last = -1;
    for (int k = 0; k < count; ++k) {
        const auto [pel, index] = pel_at(k);
        const std::uint64_t cost =
            b.lambda == 0 ? sads[k]
                          : rate_constrained_cost(sads[k], b.lambda, {4 * pel.x, 4 * pel.y}, b.predictor);
        // Most candidates cost more than the best; the full key is built only for a tie.
        if (has_best_ && cost >= best_cost_) {
            if (cost > best_cost_) continue;
            const MotionVector quarter{4 * pel.x, 4 * pel.y};
            const MotionVector best_quarter{4 * best_pel_.x, 4 * best_pel_.y};
            if (!(make_candidate_key(cost, quarter, b.predictor) <
                  make_candidate_key(best_cost_, best_quarter, b.predictor))) {
                continue;
            }
        }
        has_best_ = true;
        best_cost_ = cost;
        best_pel_ = pel;
        last = index;
    }
    return last;
}

template <class Sad>
template <class BlockAt, class PelAt>
inline int BasicCandidateSearch<Sad>::apply_in_fours(int count, BlockAt block_at, PelAt pel_at) {
    int last = -1;
    for (int first = 0; first < count; first += 4) {
        const int batch = std::min(count - first, 4);
        const std::uint8_t* refs[4];
        for (int k = 0; k < 4; ++k) refs[k] = block_at(first + (k < batch ? k : 0));
        const int improved = apply(refs, batch, [&](int k) {
            return std::pair{pel_at(first + k), first + k};
        });
        if (improved >= 0) last = improved;
        evaluated_ += static_cast<std::uint32_t>(batch);
    }
    return last;
}

template <class Sad>
int BasicCandidateSearch<Sad>::consider_each(MotionVector centre, const MotionVector* offsets, int count) {
    MotionVector kept[4];
    int index[4];
    const std::uint8_t* refs[4];
    const auto kept_at = [&](int k) { return std::pair{kept[k], index[k]}; };
    int last = -1;
    int n = 0;
    for (int i = 0; i < count; ++i) {
        const MotionVector pel{centre.x + offsets[i].x, centre.y + offsets[i].y};
        if (!admissible(pel)) continue;
        kept[n] = pel;
        refs[n] = reference_block(pel);
        index[n++] = i;
        if (n == 4) {
            const int improved = apply(refs, 4, kept_at);
            if (improved >= 0) last = improved;
            evaluated_ += 4;
            n = 0;
        }
    }
    if (n > 0) {
        for (int k = n; k < 4; ++k) refs[k] = refs[0];  // the kernel reads four; the extra are ignored
        const int improved = apply(refs, n, kept_at);
        if (improved >= 0) last = improved;
        evaluated_ += static_cast<std::uint32_t>(n);
    }
    return last;
}

template <class Sad>
int BasicCandidateSearch<Sad>::consider_around(MotionVector centre, const MotionVector* offsets, int count,
                                               OffsetBounds bounds) {
    if (!box_is_direct({centre.x + bounds.low.x, centre.y + bounds.low.y},
                       {centre.x + bounds.high.x, centre.y + bounds.high.y})) {
        return consider_each(centre, offsets, count);
    }
    const std::uint8_t* centre_block = direct_block(centre);
    return apply_in_fours(
        count, [&](int i) { return centre_block + offsets[i].y * reference_stride_ + offsets[i].x; },
        [&](int i) {
            return MotionVector{centre.x + offsets[i].x, centre.y + offsets[i].y};
        });
}

template <class Sad>
int BasicCandidateSearch<Sad>::evaluate(const MotionVector* pels, int count) {
    return apply_in_fours(
        count, [&](int i) { return clamped_block(pels[i]); }, [&](int i) { return pels[i]; });
}

template <class Sad>
int BasicCandidateSearch<Sad>::evaluate_row(MotionVector start, int count) {
    const auto pel_at = [&](int i) { return MotionVector{start.x + i, start.y}; };
    if (box_is_direct(start, pel_at(count - 1))) {
        const std::uint8_t* first = direct_block(start);
        return apply_in_fours(
            count, [&](int i) { return first + i; }, pel_at);
    }
    return apply_in_fours(
        count, [&](int i) { return clamped_block(pel_at(i)); }, pel_at);
}

template <class Search>
void search_start(Search& search) {
    const std::uint32_t before = search.evaluated();
    const MotionVector start[2] = {round_quarter_to_pel(search.block().predictor), {0, 0}};
    const MotionVector low{std::min(start[0].x, 0), std::min(start[0].y, 0)};
    const MotionVector high{std::max(start[0].x, 0), std::max(start[0].y, 0)};
    search.consider_around({0, 0}, start, 2, {low, high});
    if (search.evaluated() == before) search.evaluate({0, 0});
}

template <class Search>
void small_diamond_moves(Search& search, int max_moves) {
    static constexpr MotionVector diamond[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int moves = 0; moves < max_moves; ++moves) {
        if (search.consider_around(search.best_pel(), diamond, 4, Search::unit_reach) < 0) return;
    }
}

template <class Search>
void square_neighbours(Search& search) {
    static constexpr MotionVector square[8] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0},
                                               {1, 0},   {-1, 1}, {0, 1},  {1, 1}};
    search.consider_around(search.best_pel(), square, 8, Search::unit_reach);
}

}  // namespace xme::cpu
