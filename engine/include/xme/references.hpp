// SPEC §14: several references, bi-prediction and forward-backward estimation. Each reference's chain
// is an ordinary frame pair (SPEC §1-§13) on any device; what §14 adds (the scaled temporal predictor,
// the reference bits, the decision and the consistency figure) is computed here, once, for every
// device: so a device that runs its pairs bit-exactly runs §14 bit-exactly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "xme/band_workers.hpp"
#include "xme/frame.hpp"
#include "xme/motion_field.hpp"
#include "xme/motion_vector.hpp"
#include "xme/params.hpp"

namespace xme {

inline constexpr int max_reference_distance = 16;
inline constexpr int max_references = 16;
inline constexpr std::uint32_t consistency_flag_threshold = 8;  // quarter pel: two pixels (§14)

struct ReferenceOptions {
    std::vector<int> distances{-1};  // §14's refs: signed frame distances, as given
    bool both_directions = false;    // §14's forward-backward

    // The defaults: §1-§13's single pair, nothing of §14.
    [[nodiscard]] bool single_pair() const {
        return distances.size() == 1 && distances.front() == -1 && !both_directions;
    }
    [[nodiscard]] int furthest_past() const;    // the largest |d| of the past list, 0 without one
    [[nodiscard]] int furthest_future() const;  // the largest d of the future list, 0 without one
    // The frames a run keeps resident on its device (SessionOptions::resident_frames): every frame
    // from the furthest past reference to the furthest future one, so that each is uploaded once.
    [[nodiscard]] int resident_frames() const { return std::max(2, furthest_past() + furthest_future() + 1); }
    // Throws Error(invalid_argument) for a distance outside ±1..16, one given twice, more than 16, or
    // both directions with references other than -1; Error(unsupported) for §9's partitions with
    // several references or both directions (SPEC §14 leaves them undefined).
    void validate(const SearchParams& params) const;
};

// "-1,-2,+1" -> {-1, -2, 1}; Error(invalid_argument) naming `option` for anything else.
[[nodiscard]] std::vector<int> parse_reference_list(std::string_view text, std::string_view option);
// "forward" or "both".
[[nodiscard]] bool parse_direction(std::string_view name);

// §14's reference bits: r(d) for the run's list.
[[nodiscard]] int reference_index_bits(const std::vector<int>& distances, int distance);

// §14's temporal scaling of vector v, found at distance `from`, to distance `to` (H.264 8.4.1.2.3).
[[nodiscard]] MotionVector scale_temporal(MotionVector v, int from, int to);

enum class ReferenceMode : std::uint8_t { past, future, both };
[[nodiscard]] std::string_view to_string(ReferenceMode mode);

// One block's §14 decision: the mode, its vector and reference distance, and for `both` the future
// vector and distance as the second; its J and bits; the candidates every reference's search evaluated.
struct DecidedBlock {
    ReferenceMode mode = ReferenceMode::past;
    MotionVector mv;
    int distance = -1;
    MotionVector second_mv;   // `both` only
    int second_distance = 0;  // `both` only; 0 otherwise
    std::uint32_t cost = 0;
    std::uint32_t candidates = 0;
    std::uint32_t bits = 0;  // the rate term's bits of the chosen mode: its vectors' and indices' (§14)

    friend bool operator==(const DecidedBlock&, const DecidedBlock&) = default;
};

struct DecidedField {
    int blocks_x = 0;
    int blocks_y = 0;
    int block_size = 0;
    CostKind cost_kind;
    std::vector<DecidedBlock> blocks;  // row-major

    [[nodiscard]] const DecidedBlock& at(int bx, int by) const {
        return blocks[static_cast<std::size_t>(by) * static_cast<std::size_t>(blocks_x) +
                      static_cast<std::size_t>(bx)];
    }
};

// The temporal source field for reference `distance` (§14): `previous`'s decided vectors scaled from
// their distances to `distance`, as the MotionField a pair's `previous` is.
[[nodiscard]] MotionField scaled_temporal_field(const DecidedField& previous, int distance);

// One reference's result for a frame: the chain's field on (frame + distance, frame), and the field its
// temporal predictor read (null: none, a segment's first frame).
struct ReferenceResult {
    int distance = -1;
    PlaneView reference;
    MotionField field;
    const MotionField* temporal = nullptr;
};

// §14's decision for every block of `current` from its references' results, given the run's list.
// Throws Error(invalid_argument) when the results do not share one block grid and cost kind.
// `workers` (optional) share the block rows out.
[[nodiscard]] DecidedField decide_references(const std::vector<ReferenceResult>& results, PlaneView current,
                                             const SearchParams& params,
                                             const std::vector<int>& run_distances,
                                             BandWorkers* workers = nullptr);

// §12's prediction of `current` (its size) by the decided blocks: each block from its reference's plane
// (`reference_of(distance)`), a `both` block as the rounded average of its two, with the chain's
// interpolation (xme/motion_compensation.hpp).
[[nodiscard]] Plane predict_decided(const DecidedField& decided, int width, int height,
                                    const std::function<PlaneView(int distance)>& reference_of,
                                    BandWorkers* workers = nullptr);

// §14's consistency of each forward block (row-major) with the backward field, in quarter pel.
[[nodiscard]] std::vector<std::uint32_t> consistency(const MotionField& forward, const MotionField& backward);

}  // namespace xme
