#include "integer_candidates.hpp"

#include <string>

#include "xme/error.hpp"

namespace xme::reference::detail {

bool IntegerCandidateTracker::consider(MotionVector pel) {
    if (!inside_window(search_, pel) || !integer_displacement_valid(search_, pel)) return false;
    return evaluate(pel);
}

bool IntegerCandidateTracker::evaluate(MotionVector pel) {
    ++evaluated_;
    const MotionVector quarter{4 * pel.x, 4 * pel.y};
    const std::uint32_t distortion = block_sad(search_.reference, search_.current, search_.x, search_.y,
                                               search_.width, search_.height, pel.x, pel.y);
    const CandidateKey key =
        make_candidate_key(rate_constrained_cost(distortion, search_.lambda, quarter, search_.predictor),
                           quarter, search_.predictor);
    if (has_best_ && !(key < best_key_)) return false;
    has_best_ = true;
    best_pel_ = pel;
    best_key_ = key;
    best_distortion_ = distortion;
    return true;
}

BlockResult IntegerCandidateTracker::result() const {
    if (!has_best_) throw Error(ErrorKind::invalid_argument, "reference search evaluated no candidate");
    return {{4 * best_pel_.x, 4 * best_pel_.y}, best_key_.cost, best_distortion_, evaluated_};
}

void evaluate_start(IntegerCandidateTracker& tracker) {
    const std::uint32_t before = tracker.evaluated();
    const BlockSearch& search = tracker.search();
    tracker.consider(round_quarter_to_pel(search.predictor));
    tracker.consider({0, 0});
    if (tracker.evaluated() == before) tracker.evaluate({0, 0});
}

void small_diamond(IntegerCandidateTracker& tracker, int max_moves) {
    for (int moves = 0; moves < max_moves; ++moves) {
        const MotionVector centre = tracker.best_pel();
        bool moved = false;
        for (const MotionVector step :
             {MotionVector{1, 0}, MotionVector{-1, 0}, MotionVector{0, 1}, MotionVector{0, -1}}) {
            moved = tracker.consider({centre.x + step.x, centre.y + step.y}) || moved;
        }
        if (!moved) return;
    }
}

void hexagon_moves(IntegerCandidateTracker& tracker, int max_moves) {
    for (int moves = 0; moves < max_moves; ++moves) {
        const MotionVector centre = tracker.best_pel();
        bool moved = false;
        for (const MotionVector step : {MotionVector{2, 0}, MotionVector{-2, 0}, MotionVector{1, 2},
                                        MotionVector{-1, 2}, MotionVector{1, -2}, MotionVector{-1, -2}}) {
            moved = tracker.consider({centre.x + step.x, centre.y + step.y}) || moved;
        }
        if (!moved) break;
    }
}

void evaluate_square_neighbours(IntegerCandidateTracker& tracker) {
    const MotionVector centre = tracker.best_pel();
    for (int sy = -1; sy <= 1; ++sy) {
        for (int sx = -1; sx <= 1; ++sx) {
            if (sx != 0 || sy != 0) tracker.consider({centre.x + sx, centre.y + sy});
        }
    }
}

void require_square_block(const BlockSearch& search, const char* operation) {
    search.validate();
    if (search.width != search.height) {
        throw Error(ErrorKind::invalid_argument, std::string(operation) + " runs on square blocks, got " +
                                                     std::to_string(search.width) + "x" +
                                                     std::to_string(search.height));
    }
}

}  // namespace xme::reference::detail
