// Shared by the reference's integer searches (engine-private): one candidate's J and §8's key, the
// window and validity tests of §11, the count of candidates evaluated, and the steps several fast
// searches share (§11's start, the small diamond, the 8 neighbours).
#pragma once

#include <cstdint>

#include "xme/rate.hpp"
#include "xme/reference_ops.hpp"

namespace xme::reference::detail {

class IntegerCandidateTracker {
public:
    explicit IntegerCandidateTracker(const BlockSearch& search) : search_(search) {}

    // SPEC §11: a candidate outside the window or invalid in `restrict` mode is skipped (not evaluated,
    // not counted). Otherwise it is evaluated and counted; returns whether it became the best (its key
    // strictly smaller), so a repeated candidate never "improves" on itself.
    bool consider(MotionVector pel);
    // Evaluates and counts pel without the window and validity tests (the zero-vector fallback).
    bool evaluate(MotionVector pel);

    [[nodiscard]] const BlockSearch& search() const { return search_; }
    [[nodiscard]] bool has_best() const { return has_best_; }
    [[nodiscard]] MotionVector best_pel() const { return best_pel_; }
    [[nodiscard]] std::uint32_t evaluated() const { return evaluated_; }
    [[nodiscard]] BlockResult result() const;

private:
    const BlockSearch& search_;
    bool has_best_ = false;
    MotionVector best_pel_;
    CandidateKey best_key_;
    std::uint32_t best_distortion_ = 0;
    std::uint32_t evaluated_ = 0;
};

// SPEC §11's start: round(p / 4), then the zero vector. When neither can be evaluated (the predictor's
// block invalid in `restrict` mode and zero outside a window centred far away), the zero vector is
// evaluated anyway: SPEC §8 keeps it valid, and a search must have a start. (SPEC does not say; the
// lead should confirm.)
void evaluate_start(IntegerCandidateTracker& tracker);

// SPEC §11 `dia` from the current best: evaluate (+-1, 0), (0, +-1); move to a better one; at most
// max_moves moves.
void small_diamond(IntegerCandidateTracker& tracker, int max_moves);

// SPEC §11 `hex`'s walk from the current best: evaluate (+-2, 0), (+-1, +-2); move to a better one; at
// most max_moves moves (`hex`, and step 5 of `umh`).
void hexagon_moves(IntegerCandidateTracker& tracker, int max_moves);

// The 8 neighbours (sx, sy) != (0, 0) of the current best, once (the last step of `hex` and `ehds`).
void evaluate_square_neighbours(IntegerCandidateTracker& tracker);

// Square blocks only, as SPEC §11 runs its fast searches on whole blocks; throws Error(invalid_argument).
void require_square_block(const BlockSearch& search, const char* operation);

}  // namespace xme::reference::detail

// Defines the reference's kernel for a search of search_methods.def, in searches/IDENTIFIER.cpp: the
// row the reference's table (search_kernels.cpp) maps the search to.
#define XME_REFERENCE_SEARCH(identifier)                              \
    BlockResult search_kernel_##identifier(const BlockSearch& search, \
                                           [[maybe_unused]] const SearchSurroundings& surroundings)
