#include "xme/agreement.hpp"

#include <algorithm>

#include "xme/error.hpp"
#include "xme/rate.hpp"
#include "xme/reference.hpp"
#include "xme/reference_ops.hpp"

namespace xme {
namespace {

// The distortion of the field's kind at a block's vector. Tolerances apply to chains without a rate
// term (SPEC §6: only filtered half-pel samples differ, and no device with them supports lambda > 0).
std::uint32_t reference_cost(PlaneView reference, PlaneView current, const SearchParams& params, int bx,
                             int by, const BlockMotion& motion) {
    const int b = params.block_size;
    const int x = bx * b;
    const int y = by * b;
    switch (cost_kind_of(params).distortion) {
        case Distortion::cost4:
            return reference::cost4(reference, current, x, y, b, motion.mv_x, motion.mv_y);
        case Distortion::satd:
            return reference::satd(reference, current, x, y, b, b, {motion.mv_x, motion.mv_y});
        case Distortion::sad:
            break;
    }
    return reference::sad(reference, current, x, y, b, motion.mv_x / 4, motion.mv_y / 4);
}

void require_no_rate_under_tolerance(const SearchParams& params, std::uint32_t tolerance) {
    if (tolerance > 0 && params.lambda > 0) {
        throw Error(ErrorKind::unsupported,
                    "a tolerance (SPEC §6) applies only to chains without a rate term");
    }
}

}  // namespace

Agreement compare_fields(PlaneView reference, PlaneView current, const SearchParams& params,
                         const MotionField& expected, const MotionField& actual, std::uint32_t tolerance) {
    if (expected.blocks_x != actual.blocks_x || expected.blocks_y != actual.blocks_y ||
        expected.cost_kind != actual.cost_kind || expected.macroblocks.size() != actual.macroblocks.size()) {
        throw Error(ErrorKind::mismatch,
                    "motion fields of different shapes or cost kinds cannot be compared");
    }
    require_no_rate_under_tolerance(params, tolerance);
    Agreement agreement;
    for (int by = 0; by < expected.blocks_y; ++by) {
        for (int bx = 0; bx < expected.blocks_x; ++bx) {
            ++agreement.blocks_compared;
            BlockMotion e = expected.at(bx, by);
            BlockMotion a = actual.at(bx, by);
            const auto i = static_cast<std::size_t>(by * expected.blocks_x + bx);
            const bool partitions_agree =
                expected.macroblocks.empty() || expected.macroblocks[i] == actual.macroblocks[i];
            if (e == a && partitions_agree) continue;
            if (e == a) {
                // SPEC §9: the 16x16 partitions agree; the first other partition that does not is the
                // mismatch (or, where only the mode decision differs, the 16x16 one).
                const auto& ep = expected.macroblocks[i].partitions;
                const auto [first_e, first_a] =
                    std::mismatch(ep.begin(), ep.end(), actual.macroblocks[i].partitions.begin());
                if (first_e != ep.end()) {
                    e = *first_e;
                    a = *first_a;
                }
            }
            ++agreement.blocks_different;
            BlockMismatch mismatch{bx, by, e, a, e.cost, a.cost};
            // Under a tolerance the candidate counts of full search still agree; vectors may differ.
            if (tolerance > 0 && e.candidates == a.candidates) {
                mismatch.expected_reference_cost = reference_cost(reference, current, params, bx, by, e);
                mismatch.actual_reference_cost = reference_cost(reference, current, params, bx, by, a);
                if (mismatch.actual_reference_cost <= mismatch.expected_reference_cost + tolerance) continue;
            }
            agreement.mismatches.push_back(mismatch);
        }
    }
    return agreement;
}

Agreement check_reported_costs(PlaneView reference, PlaneView current, const SearchParams& params,
                               const MotionField& field, std::uint32_t tolerance,
                               const MotionField* previous) {
    require_no_rate_under_tolerance(params, tolerance);
    const std::vector<MotionVector> predictors = reference::field_predictors(params, previous, field);
    // SPEC §8: cost4 weighs the rate 4 times, as its distortion is in quarter grey levels.
    const std::uint64_t weight =
        static_cast<std::uint64_t>(params.lambda) * cost_scale_of(cost_kind_of(params));
    Agreement agreement;
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            ++agreement.blocks_compared;
            const BlockMotion& reported = field.at(bx, by);
            const auto block = static_cast<std::size_t>(by * field.blocks_x + bx);
            const std::uint64_t j = reference_cost(reference, current, params, bx, by, reported) +
                                    weight * static_cast<std::uint64_t>(rate_bits(
                                                 {reported.mv_x, reported.mv_y}, predictors[block]));
            const auto truth = static_cast<std::uint32_t>(std::min<std::uint64_t>(j, 0xffffffffU));
            if (truth == reported.cost) continue;
            ++agreement.blocks_different;
            const std::uint32_t gap = truth > reported.cost ? truth - reported.cost : reported.cost - truth;
            if (gap <= tolerance) continue;
            BlockMotion expected = reported;
            expected.cost = truth;
            agreement.mismatches.push_back({bx, by, expected, reported, truth, truth});
        }
    }
    return agreement;
}

std::string describe(const BlockMismatch& m, int block_size) {
    auto vector = [](const BlockMotion& b) {
        return "(" + std::to_string(b.mv_x) + "," + std::to_string(b.mv_y) + ") cost " +
               std::to_string(b.cost) + ", " + std::to_string(b.candidates) + " candidates";
    };
    return "block (" + std::to_string(m.block_x) + "," + std::to_string(m.block_y) + ") at pixel (" +
           std::to_string(m.block_x * block_size) + "," + std::to_string(m.block_y * block_size) +
           "): " + vector(m.expected) + " vs " + vector(m.actual);
}

}  // namespace xme
