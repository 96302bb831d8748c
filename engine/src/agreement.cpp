#include "xme/agreement.hpp"

#include "xme/error.hpp"
#include "xme/reference.hpp"

namespace xme {
namespace {

std::uint32_t reference_cost(PlaneView reference, PlaneView current, const SearchParams& params, int bx, int by,
                             const BlockMotion& motion) {
    const int x = bx * params.block_size;
    const int y = by * params.block_size;
    if (params.algorithm == Algorithm::full_search_hpel) {
        return reference::cost4(reference, current, x, y, params.block_size, motion.mv_x, motion.mv_y);
    }
    return reference::sad(reference, current, x, y, params.block_size, motion.mv_x / 4, motion.mv_y / 4);
}

}  // namespace

std::uint32_t filtered_halfpel_tolerance(const SearchParams& params) {
    if (params.algorithm != Algorithm::full_search_hpel) return 0;
    return 4U * static_cast<std::uint32_t>(params.block_size * params.block_size);
}

Agreement compare_fields(PlaneView reference, PlaneView current, const SearchParams& params,
                         const MotionField& expected, const MotionField& actual, std::uint32_t tolerance) {
    if (expected.blocks_x != actual.blocks_x || expected.blocks_y != actual.blocks_y ||
        expected.cost_scale != actual.cost_scale) {
        throw Error(ErrorKind::mismatch, "motion fields of different shapes cannot be compared");
    }
    Agreement agreement;
    for (int by = 0; by < expected.blocks_y; ++by) {
        for (int bx = 0; bx < expected.blocks_x; ++bx) {
            ++agreement.blocks_compared;
            const BlockMotion& e = expected.at(bx, by);
            const BlockMotion& a = actual.at(bx, by);
            if (e == a) continue;
            ++agreement.blocks_different;
            BlockMismatch mismatch{bx, by, e, a, e.cost, a.cost};
            if (tolerance > 0) {
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
                               const MotionField& field, std::uint32_t tolerance) {
    Agreement agreement;
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            ++agreement.blocks_compared;
            const BlockMotion& reported = field.at(bx, by);
            const std::uint32_t truth = reference_cost(reference, current, params, bx, by, reported);
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
        return "(" + std::to_string(b.mv_x) + "," + std::to_string(b.mv_y) + ") cost " + std::to_string(b.cost);
    };
    return "block (" + std::to_string(m.block_x) + "," + std::to_string(m.block_y) + ") at pixel (" +
           std::to_string(m.block_x * block_size) + "," + std::to_string(m.block_y * block_size) + "): " +
           vector(m.expected) + " vs " + vector(m.actual);
}

}  // namespace xme
