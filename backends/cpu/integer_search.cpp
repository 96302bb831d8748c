#include "integer_search.hpp"

namespace xme::cpu {

bool CandidateSearch::admissible(MotionVector pel) const {
    const IntegerBlock& b = block_;
    if (pel.x < b.centre.x - b.range || pel.x > b.centre.x + b.range || pel.y < b.centre.y - b.range ||
        pel.y > b.centre.y + b.range) {
        return false;
    }
    if (b.border == BorderMode::pad || (pel.x == 0 && pel.y == 0)) return true;
    // SPEC §2: the displaced block inside the padded frame (the zero vector is always valid).
    const int left = b.x + pel.x;
    const int top = b.y + pel.y;
    return left >= 0 && left <= b.padded_width - b.size && top >= 0 && top <= b.padded_height - b.size;
}

int CandidateSearch::consider(const MotionVector* pels, int count) {
    MotionVector kept[16];
    int index[16];
    int last = -1;
    int n = 0;
    for (int i = 0; i < count; ++i) {
        if (!admissible(pels[i])) continue;
        kept[n] = pels[i];
        index[n++] = i;
        if (n == 16) {
            const int improved = evaluate(kept, n);
            if (improved >= 0) last = index[improved];
            n = 0;
        }
    }
    if (n > 0) {
        const int improved = evaluate(kept, n);
        if (improved >= 0) last = index[improved];
    }
    return last;
}

int CandidateSearch::evaluate(const MotionVector* pels, int count) {
    const IntegerBlock& b = block_;
    const std::uint8_t* current = b.current->block(b.x, b.y, b.size, b.size);
    int last = -1;
    for (int first = 0; first < count; first += 4) {
        const int batch = count - first < 4 ? count - first : 4;
        const std::uint8_t* refs[4];
        for (int k = 0; k < 4; ++k) {
            const MotionVector pel = pels[first + (k < batch ? k : 0)];
            refs[k] = b.reference->block(b.x + pel.x, b.y + pel.y, b.size, b.size);
        }
        std::uint32_t sads[4];
        b.kernels->sad_x4(current, b.current->stride(), refs, b.reference->stride(), b.size, sads);
        for (int k = 0; k < batch; ++k) {
            const MotionVector pel = pels[first + k];
            const MotionVector quarter{4 * pel.x, 4 * pel.y};
            const std::uint64_t cost =
                b.lambda == 0 ? sads[k] : rate_constrained_cost(sads[k], b.lambda, quarter, b.predictor);
            if (has_best_ && cost > best_key_.cost) continue;  // most candidates: no tie to break
            const CandidateKey key = make_candidate_key(cost, quarter, b.predictor);
            if (!has_best_ || key < best_key_) {
                has_best_ = true;
                best_key_ = key;
                best_pel_ = pel;
                last = first + k;
            }
        }
    }
    evaluated_ += static_cast<std::uint32_t>(count);
    return last;
}

void search_start(CandidateSearch& search) {
    const std::uint32_t before = search.evaluated();
    const MotionVector start[2] = {round_quarter_to_pel(search.block().predictor), {0, 0}};
    search.consider(start, 2);
    if (search.evaluated() == before) search.evaluate({0, 0});
}

void small_diamond_moves(CandidateSearch& search, int max_moves) {
    for (int moves = 0; moves < max_moves; ++moves) {
        const MotionVector c = search.best_pel();
        const MotionVector diamond[4] = {{c.x + 1, c.y}, {c.x - 1, c.y}, {c.x, c.y + 1}, {c.x, c.y - 1}};
        if (search.consider(diamond, 4) < 0) return;
    }
}

void square_neighbours(CandidateSearch& search) {
    const MotionVector c = search.best_pel();
    MotionVector square[8];
    int n = 0;
    for (int sy = -1; sy <= 1; ++sy) {
        for (int sx = -1; sx <= 1; ++sx) {
            if (sx != 0 || sy != 0) square[n++] = {c.x + sx, c.y + sy};
        }
    }
    search.consider(square, 8);
}

}  // namespace xme::cpu
