// SPEC §14 (xme/references.hpp): what several references and both directions add to the pairs the
// devices compute.
#include "xme/references.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <limits>

#include "xme/compensation.hpp"
#include "xme/error.hpp"
#include "xme/motion_compensation.hpp"
#include "xme/rate.hpp"
#include "xme/reference.hpp"
#include "xme/reference_ops.hpp"

namespace xme {

int ReferenceOptions::furthest_past() const {
    int furthest = 0;
    for (const int d : distances) furthest = std::max(furthest, -d);
    return furthest;
}

int ReferenceOptions::furthest_future() const {
    int furthest = 0;
    for (const int d : distances) furthest = std::max(furthest, d);
    return furthest;
}

void ReferenceOptions::validate(const SearchParams& params) const {
    if (distances.empty())
        throw Error(ErrorKind::invalid_argument, "--refs names no reference: give -1, or a list");
    if (static_cast<int>(distances.size()) > max_references) {
        throw Error(ErrorKind::invalid_argument, "--refs names " + std::to_string(distances.size()) +
                                                     " references: at most " +
                                                     std::to_string(max_references));
    }
    for (std::size_t i = 0; i < distances.size(); ++i) {
        const int d = distances[i];
        if (d == 0 || d < -max_reference_distance || d > max_reference_distance) {
            throw Error(ErrorKind::invalid_argument,
                        "--refs: " + std::to_string(d) +
                            " is not a reference distance: use -16..-1 (past frames) "
                            "or 1..16 (future frames)");
        }
        if (std::find(distances.begin(), distances.begin() + static_cast<std::ptrdiff_t>(i), d) !=
            distances.begin() + static_cast<std::ptrdiff_t>(i)) {
            throw Error(ErrorKind::invalid_argument,
                        "--refs names " + std::to_string(d) + " twice: list each once");
        }
    }
    if (both_directions && (distances.size() != 1 || distances.front() != -1)) {
        throw Error(
            ErrorKind::invalid_argument,
            "--direction both estimates each pair (f-1, f) both ways: it takes --refs -1 only (SPEC §14)");
    }
    if (params.partitions == Partitions::all && !single_pair()) {
        throw Error(ErrorKind::unsupported,
                    "the 41 partitions (SPEC §9) are not defined with several references "
                    "or both directions (SPEC §14): use one of them alone");
    }
}

std::vector<int> parse_reference_list(std::string_view text, std::string_view option) {
    std::vector<int> distances;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string_view item = text.substr(start, comma - start);
        const std::string_view spelled = item;
        if (!item.empty() && item.front() == '+') item.remove_prefix(1);
        int value = 0;
        const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (item.empty() || error != std::errc() || end != item.data() + item.size()) {
            throw Error(ErrorKind::invalid_argument, std::string(option) + ": '" + std::string(spelled) +
                                                         "' is not a frame distance: give signed integers, "
                                                         "comma-separated, as -1,-2 or -1,+1");
        }
        distances.push_back(value);
        start = comma + 1;
    }
    return distances;
}

bool parse_direction(std::string_view name) {
    if (name == "forward") return false;
    if (name == "both") return true;
    throw Error(ErrorKind::invalid_argument,
                "unknown direction '" + std::string(name) + "': use forward or both");
}

int reference_index_bits(const std::vector<int>& distances, int distance) {
    int size = 0;
    int index = 0;
    std::vector<int> list;
    for (const int d : distances) {
        if ((d < 0) == (distance < 0)) list.push_back(std::abs(d));
    }
    std::sort(list.begin(), list.end());
    size = static_cast<int>(list.size());
    index = static_cast<int>(std::find(list.begin(), list.end(), std::abs(distance)) - list.begin());
    if (index == size)
        throw Error(ErrorKind::invalid_argument,
                    "reference " + std::to_string(distance) + " is not in the list");
    if (size == 1) return 0;
    if (size == 2) return 1;
    int bits = 1;
    for (int k = index + 1; k > 1; k >>= 1) bits += 2;
    return bits;
}

MotionVector scale_temporal(MotionVector v, int from, int to) {
    const int tb = std::clamp(to, -128, 127);
    const int td = std::clamp(from, -128, 127);
    const int tx = (16384 + std::abs(td / 2)) / td;
    const int factor = std::clamp((tb * tx + 32) >> 6, -1024, 1023);
    auto scale = [&](int component) {
        return std::clamp((factor * component + 128) >> 8,
                          static_cast<int>(std::numeric_limits<std::int16_t>::min()),
                          static_cast<int>(std::numeric_limits<std::int16_t>::max()));
    };
    return {scale(v.x), scale(v.y)};
}

std::string_view to_string(ReferenceMode mode) {
    switch (mode) {
        case ReferenceMode::past:
            return "past";
        case ReferenceMode::future:
            return "future";
        case ReferenceMode::both:
            return "both";
    }
    return "?";
}

MotionField scaled_temporal_field(const DecidedField& previous, int distance) {
    MotionField field;
    field.blocks_x = previous.blocks_x;
    field.blocks_y = previous.blocks_y;
    field.block_size = previous.block_size;
    field.cost_kind = previous.cost_kind;
    field.blocks.reserve(previous.blocks.size());
    for (const DecidedBlock& block : previous.blocks) {
        const MotionVector scaled = scale_temporal(block.mv, block.distance, distance);
        field.blocks.push_back(
            {static_cast<std::int16_t>(scaled.x), static_cast<std::int16_t>(scaled.y), 0, 0});
    }
    return field;
}

namespace {

MotionVector vector_of(const BlockMotion& motion) { return {motion.mv_x, motion.mv_y}; }

// §14's distortion of the rounded average of two predictions, as the chain's final cost measures it.
// The two predictions of a `both` block, made by rows (predict_rectangle_by_rows) into planes of the
// frame's size, each block into its own rectangle.
struct BothScratch {
    Plane past;
    Plane future;
};

std::uint64_t both_distortion(PlaneView current, const ReferenceResult& past, const ReferenceResult& future,
                              int bx, int by, MotionVector past_mv, MotionVector future_mv, int block_size,
                              CostKind kind, BothScratch& scratch) {
    const Interpolation interpolation = interpolation_of(kind);
    const int x0 = bx * block_size;
    const int y0 = by * block_size;
    std::array<int, 32 * 32> difference;  // SPEC §1: B <= 32
    if (x0 + block_size <= current.width && y0 + block_size <= current.height) {
        predict_rectangle_by_rows(past.reference, x0, y0, block_size, block_size, past_mv, interpolation,
                                  scratch.past);
        predict_rectangle_by_rows(future.reference, x0, y0, block_size, block_size, future_mv, interpolation,
                                  scratch.future);
        for (int j = 0; j < block_size; ++j) {
            const std::uint8_t* a = scratch.past.row(y0 + j) + x0;
            const std::uint8_t* b = scratch.future.row(y0 + j) + x0;
            const std::uint8_t* c = current.row(y0 + j) + x0;
            for (int i = 0; i < block_size; ++i)
                difference[static_cast<std::size_t>(j * block_size + i)] = c[i] - ((a[i] + b[i] + 1) >> 1);
        }
    } else {  // a block past the frame's edge: its samples there are the edge's (SPEC §1)
        for (int j = 0; j < block_size; ++j) {
            for (int i = 0; i < block_size; ++i) {
                const int a =
                    reference::predicted_sample(past.reference, x0 + i, y0 + j, past_mv, interpolation);
                const int b =
                    reference::predicted_sample(future.reference, x0 + i, y0 + j, future_mv, interpolation);
                difference[static_cast<std::size_t>(j * block_size + i)] =
                    current.at_clamped(x0 + i, y0 + j) - ((a + b + 1) >> 1);
            }
        }
    }
    if (kind.distortion == Distortion::satd) {
        std::uint64_t sum = 0;
        for (int ty = 0; ty < block_size; ty += 4) {
            for (int tx = 0; tx < block_size; tx += 4) {
                int tile[4][4];
                for (int j = 0; j < 4; ++j)
                    for (int i = 0; i < 4; ++i)
                        tile[j][i] = difference[static_cast<std::size_t>((ty + j) * block_size + tx + i)];
                sum += reference::satd4(tile);
            }
        }
        return sum;
    }
    std::uint64_t sum = 0;
    for (int k = 0; k < block_size * block_size; ++k)
        sum += static_cast<std::uint64_t>(std::abs(difference[static_cast<std::size_t>(k)]));
    return kind.distortion == Distortion::cost4 ? 4 * sum : sum;
}

}  // namespace

DecidedField decide_references(const std::vector<ReferenceResult>& results, PlaneView current,
                               const SearchParams& params, const std::vector<int>& run_distances,
                               BandWorkers* workers) {
    if (results.empty()) throw Error(ErrorKind::invalid_argument, "no reference result to decide from");
    const MotionField& first = results.front().field;
    for (const ReferenceResult& result : results) {
        if (result.field.blocks_x != first.blocks_x || result.field.blocks_y != first.blocks_y ||
            result.field.block_size != first.block_size || !(result.field.cost_kind == first.cost_kind) ||
            result.field.blocks.size() != first.blocks.size()) {
            throw Error(ErrorKind::invalid_argument,
                        "reference results of one frame differ in their block grid or cost kind");
        }
    }
    DecidedField decided;
    decided.blocks_x = first.blocks_x;
    decided.blocks_y = first.blocks_y;
    decided.block_size = first.block_size;
    decided.cost_kind = first.cost_kind;
    decided.blocks.resize(first.blocks.size());
    const std::uint64_t rate_weight =
        static_cast<std::uint64_t>(first.cost_scale()) * static_cast<std::uint64_t>(params.lambda);
    // Each reference's predictors, as its chain used them (for the rate of `both`).
    std::vector<std::vector<MotionVector>> predictors;
    std::vector<int> index_bits;  // each reference's r(d), once per frame
    for (const ReferenceResult& result : results) {
        predictors.push_back(reference::field_predictors(params, result.temporal, result.field));
        index_bits.push_back(reference_index_bits(run_distances, result.distance));
    }
    // Blocks predict into disjoint rectangles of the scratch planes: the rows may run side by side.
    BothScratch scratch{Plane(current.width, current.height), Plane(current.width, current.height)};
    const auto decide_block = [&](std::size_t block) {
        // The best of each list: least (J + index bits, |d|).
        int best_past = -1;
        int best_future = -1;
        std::uint64_t past_cost = 0;
        std::uint64_t future_cost = 0;
        std::uint32_t candidates = 0;
        for (std::size_t r = 0; r < results.size(); ++r) {
            const BlockMotion& motion = results[r].field.blocks[block];
            candidates += motion.candidates;
            const std::uint64_t cost = motion.cost + rate_weight * static_cast<std::uint64_t>(index_bits[r]);
            const int d = results[r].distance;
            int& best = d < 0 ? best_past : best_future;
            std::uint64_t& best_cost = d < 0 ? past_cost : future_cost;
            if (best < 0 || cost < best_cost ||
                (cost == best_cost &&
                 std::abs(d) < std::abs(results[static_cast<std::size_t>(best)].distance))) {
                best = static_cast<int>(r);
                best_cost = cost;
            }
        }
        DecidedBlock chosen;
        chosen.candidates = candidates;
        std::uint64_t chosen_cost = std::numeric_limits<std::uint64_t>::max();
        auto take_single = [&](int r, ReferenceMode mode, std::uint64_t cost) {
            if (r < 0 || cost >= chosen_cost) return;  // a later mode wins only by less: ranks past < future
            const ReferenceResult& result = results[static_cast<std::size_t>(r)];
            chosen.mode = mode;
            chosen.mv = vector_of(result.field.blocks[block]);
            chosen.distance = result.distance;
            chosen.second_mv = {};
            chosen.second_distance = 0;
            chosen.bits = static_cast<std::uint32_t>(
                rate_bits(chosen.mv, predictors[static_cast<std::size_t>(r)][block]) +
                index_bits[static_cast<std::size_t>(r)]);
            chosen_cost = cost;
        };
        take_single(best_past, ReferenceMode::past, past_cost);
        take_single(best_future, ReferenceMode::future, future_cost);
        if (best_past >= 0 && best_future >= 0) {
            const ReferenceResult& past = results[static_cast<std::size_t>(best_past)];
            const ReferenceResult& future = results[static_cast<std::size_t>(best_future)];
            const MotionVector past_mv = vector_of(past.field.blocks[block]);
            const MotionVector future_mv = vector_of(future.field.blocks[block]);
            const int bx = static_cast<int>(block % static_cast<std::size_t>(decided.blocks_x));
            const int by = static_cast<int>(block / static_cast<std::size_t>(decided.blocks_x));
            const std::uint64_t bits = static_cast<std::uint64_t>(
                rate_bits(past_mv, predictors[static_cast<std::size_t>(best_past)][block]) +
                rate_bits(future_mv, predictors[static_cast<std::size_t>(best_future)][block]) +
                index_bits[static_cast<std::size_t>(best_past)] +
                index_bits[static_cast<std::size_t>(best_future)]);
            const std::uint64_t cost = both_distortion(current, past, future, bx, by, past_mv, future_mv,
                                                       decided.block_size, decided.cost_kind, scratch) +
                                       rate_weight * bits;
            if (cost < chosen_cost) {
                chosen.mode = ReferenceMode::both;
                chosen.mv = past_mv;
                chosen.distance = past.distance;
                chosen.second_mv = future_mv;
                chosen.second_distance = future.distance;
                chosen.bits = static_cast<std::uint32_t>(bits);
                chosen_cost = cost;
            }
        }
        if (chosen_cost > std::numeric_limits<std::uint32_t>::max()) {
            throw Error(ErrorKind::unsupported, "a block's §14 cost " + std::to_string(chosen_cost) +
                                                    " does not fit 32 bits: lower --lambda");
        }
        chosen.cost = static_cast<std::uint32_t>(chosen_cost);
        decided.blocks[block] = chosen;
    };
    const auto decide_row = [&](int by) {
        for (int bx = 0; bx < decided.blocks_x; ++bx)
            decide_block(static_cast<std::size_t>(by) * static_cast<std::size_t>(decided.blocks_x) +
                         static_cast<std::size_t>(bx));
    };
    if (workers != nullptr) {
        workers->run(decided.blocks_y, decide_row);
    } else {
        for (int by = 0; by < decided.blocks_y; ++by) decide_row(by);
    }
    return decided;
}

Plane predict_decided(const DecidedField& decided, int width, int height,
                      const std::function<PlaneView(int distance)>& reference_of, BandWorkers* workers) {
    const Interpolation interpolation = interpolation_of(decided.cost_kind);
    Plane prediction(width, height);
    Plane second(width, height);  // `both` blocks' future predictions, averaged into `prediction`
    const int block = decided.block_size;
    const auto predict_row = [&](int by) {
        for (int bx = 0; bx < decided.blocks_x; ++bx) {
            const DecidedBlock& chosen = decided.at(bx, by);
            const int x0 = bx * block;
            const int y0 = by * block;
            predict_rectangle_by_rows(reference_of(chosen.distance), x0, y0, block, block, chosen.mv,
                                      interpolation, prediction);
            if (chosen.mode != ReferenceMode::both) continue;
            predict_rectangle_by_rows(reference_of(chosen.second_distance), x0, y0, block, block,
                                      chosen.second_mv, interpolation, second);
            const int x_end = std::min(width, x0 + block);
            const int y_end = std::min(height, y0 + block);
            for (int y = y0; y < y_end; ++y) {
                std::uint8_t* out = prediction.row(y);
                const std::uint8_t* b = second.row(y);
                for (int x = x0; x < x_end; ++x) out[x] = static_cast<std::uint8_t>((out[x] + b[x] + 1) >> 1);
            }
        }
    };
    if (workers != nullptr) {
        workers->run(decided.blocks_y, predict_row);
    } else {
        for (int by = 0; by < decided.blocks_y; ++by) predict_row(by);
    }
    return prediction;
}

std::vector<std::uint32_t> consistency(const MotionField& forward, const MotionField& backward) {
    if (forward.blocks_x != backward.blocks_x || forward.blocks_y != backward.blocks_y ||
        forward.block_size != backward.block_size) {
        throw Error(ErrorKind::invalid_argument, "forward and backward fields differ in their block grid");
    }
    auto floor_div = [](int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
    const int block = forward.block_size;
    std::vector<std::uint32_t> figures;
    figures.reserve(forward.blocks.size());
    for (int by = 0; by < forward.blocks_y; ++by) {
        for (int bx = 0; bx < forward.blocks_x; ++bx) {
            const BlockMotion& v = forward.at(bx, by);
            const int tx = 4 * (bx * block + block / 2) + v.mv_x;
            const int ty = 4 * (by * block + block / 2) + v.mv_y;
            const BlockMotion& w = backward.at(std::clamp(floor_div(tx, 4 * block), 0, forward.blocks_x - 1),
                                               std::clamp(floor_div(ty, 4 * block), 0, forward.blocks_y - 1));
            figures.push_back(
                static_cast<std::uint32_t>(std::abs(v.mv_x + w.mv_x) + std::abs(v.mv_y + w.mv_y)));
        }
    }
    return figures;
}

}  // namespace xme
