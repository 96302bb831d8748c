// SPEC §8: the rate term of J = D + lambda * R(mv - p), lambda from a quantiser, the predictor in
// integer pel, and the key that picks the unique best candidate. Shared by every backend.
#pragma once

#include <array>
#include <bit>
#include <compare>
#include <cstdint>
#include <string>

#include "xme/error.hpp"
#include "xme/motion_vector.hpp"

namespace xme {

// Length in bits of H.264's signed Exp-Golomb code se(v): k = 2v - 1 for v > 0, k = -2v for v <= 0,
// bits = 2 * floor(log2(k + 1)) + 1. Computed in 64 bits so that every int is accepted.
[[nodiscard]] constexpr int se_bits(int v) {
    const std::int64_t wide = v;
    const auto k = static_cast<std::uint64_t>(wide > 0 ? 2 * wide - 1 : -2 * wide);
    return 2 * (static_cast<int>(std::bit_width(k + 1)) - 1) + 1;
}

// R(d) of SPEC §8 for the difference d = mv - p, both in quarter-pel units.
[[nodiscard]] constexpr int rate_bits(int dx, int dy) { return se_bits(dx) + se_bits(dy); }
[[nodiscard]] constexpr int rate_bits(MotionVector mv, MotionVector predictor) {
    return rate_bits(mv.x - predictor.x, mv.y - predictor.y);
}

inline constexpr int min_qp = 0;
inline constexpr int max_qp = 51;

// lambda(qp) = max(1, round(2^((qp - 12) / 6))) for qp = 0..51, as SPEC §8 tabulates it (no floating
// point, so every backend and compiler agrees).
inline constexpr std::array<int, 52> lambda_table = {
    1, 1, 1, 1, 1, 1, 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  2,  2,  2,  2,  3,  3,  3,  4,  4,  4,
    5, 6, 6, 7, 8, 9, 10, 11, 13, 14, 16, 18, 20, 23, 25, 29, 32, 36, 40, 45, 51, 57, 64, 72, 81, 91};

// The caller guarantees 0 <= qp <= 51 (validate user input with checked_lambda_from_qp).
[[nodiscard]] constexpr int lambda_from_qp(int qp) { return lambda_table[static_cast<std::size_t>(qp)]; }

// Throws Error(invalid_argument) naming the value and the allowed range.
[[nodiscard]] inline int checked_lambda_from_qp(int qp) {
    if (qp < min_qp || qp > max_qp) {
        throw Error(ErrorKind::invalid_argument,
                    "qp " + std::to_string(qp) + " is out of bounds: use 0..51 (or give lambda directly)");
    }
    return lambda_from_qp(qp);
}

// round(q / 4) with halves away from zero: a quarter-pel vector component in integer pel (SPEC §8's
// window centre, §11's start).
[[nodiscard]] constexpr int round_quarter_to_pel(int q) { return q >= 0 ? (q + 2) / 4 : -((-q + 2) / 4); }
[[nodiscard]] constexpr MotionVector round_quarter_to_pel(MotionVector q) {
    return {round_quarter_to_pel(q.x), round_quarter_to_pel(q.y)};
}

// J = D + lambda * R(mv - p), in 64 bits: no lambda a caller may pass overflows it.
[[nodiscard]] constexpr std::uint64_t rate_constrained_cost(std::uint32_t distortion, int lambda,
                                                            MotionVector mv, MotionVector predictor) {
    return distortion +
           static_cast<std::uint64_t>(lambda) * static_cast<std::uint64_t>(rate_bits(mv, predictor));
}

// SPEC §8's key (J, |mv.x - p.x| + |mv.y - p.y|, mv.y, mv.x), each ascending: the member order makes the
// defaulted <=> exactly this lexicographic comparison. With p = 0 and lambda = 0 it is §3's and §4's.
struct CandidateKey {
    std::uint64_t cost = 0;  // J
    std::int64_t distance_to_predictor = 0;
    int y = 0;
    int x = 0;

    friend constexpr auto operator<=>(const CandidateKey&, const CandidateKey&) = default;
};

[[nodiscard]] constexpr CandidateKey make_candidate_key(std::uint64_t cost, MotionVector mv,
                                                        MotionVector predictor) {
    const std::int64_t dx = static_cast<std::int64_t>(mv.x) - predictor.x;
    const std::int64_t dy = static_cast<std::int64_t>(mv.y) - predictor.y;
    return {cost, (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy), mv.y, mv.x};
}

}  // namespace xme
