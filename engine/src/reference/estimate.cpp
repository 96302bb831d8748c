// The reference's whole chain for one frame pair (SPEC §8-§11): per block, in raster order, the
// predictor, the window centre, the integer search and the sub-pel refinement. Raster order
// respects the spatial predictor's wavefront (every block above and left is final before it).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "xme/error.hpp"
#include "xme/operations.hpp"
#include "xme/partitions.hpp"
#include "xme/reference.hpp"
#include "xme/reference_ops.hpp"

namespace xme::reference {
namespace {

// The planes of ehds's mean pyramid (SPEC §11), built once per frame pair.
struct Pyramid {
    Plane level1_reference, level1_current, level2_reference, level2_current;

    Pyramid(PlaneView reference, PlaneView current)
        : level1_reference(mean_downsample(reference)),
          level1_current(mean_downsample(current)),
          level2_reference(mean_downsample(level1_reference.view())),
          level2_current(mean_downsample(level1_current.view())) {}
};

MotionVector vector_of(const BlockMotion& block) { return {block.mv_x, block.mv_y}; }

MotionVector predictor_of(const SearchParams& params, const MotionField* previous,
                          const std::vector<MotionVector>& finals, int blocks_x, int blocks_y, int bx,
                          int by) {
    switch (params.predictor) {
        case Predictor::none:
            return {};
        case Predictor::temporal:
            return previous != nullptr ? vector_of(previous->at(bx, by)) : MotionVector{};
        case Predictor::spatial:
            return spatial_predictor(finals, blocks_x, blocks_y, bx, by);
    }
    return {};
}

BlockResult refinement(const SearchParams& params, const BlockSearch& search, const BlockResult& integer) {
    switch (params.subpel) {
        case Subpel::none:
            return integer;
        case Subpel::hpel:
            return refine_hpel(search, integer.mv);
        case Subpel::qpel:
            return refine_qpel(search, integer.mv);
    }
    return integer;
}

std::int16_t quarter_pel(int value) {
    if (value < std::numeric_limits<std::int16_t>::min() ||
        value > std::numeric_limits<std::int16_t>::max()) {
        throw Error(ErrorKind::unsupported,
                    "vector component " + std::to_string(value) + " does not fit int16");
    }
    return static_cast<std::int16_t>(value);
}

BlockMotion block_motion(const BlockResult& result, std::uint32_t candidates) {
    if (result.cost > std::numeric_limits<std::uint32_t>::max()) {
        throw Error(ErrorKind::unsupported, "a cost exceeds 32 bits: use a smaller lambda");
    }
    return {quarter_pel(result.mv.x), quarter_pel(result.mv.y), static_cast<std::uint32_t>(result.cost),
            candidates};
}

MacroblockMotion macroblock_motion(const MacroblockResult& result) {
    MacroblockMotion motion;
    for (std::size_t i = 0; i < motion.partitions.size(); ++i)
        motion.partitions[i] = block_motion(result.partitions[i], result.partitions[i].candidates);
    motion.decision = result.decision;
    return motion;
}

}  // namespace

std::vector<MotionVector> field_predictors(const SearchParams& params, const MotionField* previous,
                                           const MotionField& field) {
    std::vector<MotionVector> finals;
    finals.reserve(field.blocks.size());
    for (const BlockMotion& block : field.blocks) finals.push_back(vector_of(block));
    std::vector<MotionVector> predictors;
    predictors.reserve(field.blocks.size());
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            predictors.push_back(
                predictor_of(params, previous, finals, field.blocks_x, field.blocks_y, bx, by));
        }
    }
    return predictors;
}

MotionField estimate(PlaneView reference, PlaneView current, const SearchParams& params,
                     const MotionField* previous) {
    params.validate();
    const int b = params.block_size;
    MotionField field(current.width, current.height, b, cost_kind_of(params));
    if (!needs_previous_field(params)) previous = nullptr;
    if (previous != nullptr &&
        (previous->blocks_x != field.blocks_x || previous->blocks_y != field.blocks_y)) {
        throw Error(ErrorKind::invalid_argument, "the previous pair's result has another block grid");
    }
    std::optional<Pyramid> pyramid;
    SearchSurroundings surroundings;
    if (has(chain_needs(params), Need::mean_pyramid)) {
        pyramid.emplace(reference, current);
        surroundings.level1_reference = pyramid->level1_reference.view();
        surroundings.level1_current = pyramid->level1_current.view();
        surroundings.level2_reference = pyramid->level2_reference.view();
        surroundings.level2_current = pyramid->level2_current.view();
    }
    std::vector<MotionVector> finals(field.blocks.size());
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const MotionVector predictor =
                predictor_of(params, previous, finals, field.blocks_x, field.blocks_y, bx, by);
            const MotionVector centre =
                params.centre == WindowCentre::predictor ? round_quarter_to_pel(predictor) : MotionVector{};
            const BlockSearch search{reference,    current,       bx * b,        by * b,    b,     b, b,
                                     params.range, params.border, params.lambda, predictor, centre};
            if (params.partitions == Partitions::all) {
                // SPEC §9; the macroblock's 16x16 partition is its final vector for §8's predictors.
                const MacroblockMotion motion =
                    macroblock_motion(partition_search(search, params.subpel == Subpel::qpel));
                field.macroblocks.push_back(motion);
                field.at(bx, by) = motion.partitions[0];
                finals[static_cast<std::size_t>(by * field.blocks_x + bx)] = vector_of(motion.partitions[0]);
                continue;
            }
            if (has(chain_needs(params), Need::predictor_set)) {
                const MotionVector temporal = previous != nullptr ? vector_of(previous->at(bx, by)) : MotionVector{};
                surroundings.predictor_set = predictor_set(finals, field.blocks_x, field.blocks_y, bx, by,
                                                           previous != nullptr ? &temporal : nullptr);
            }
            const BlockResult integer = integer_search(params.search, search, surroundings);
            const BlockResult final = refinement(params, search, integer);
            field.at(bx, by) = block_motion(final, integer.candidates);
            finals[static_cast<std::size_t>(by * field.blocks_x + bx)] = final.mv;
        }
    }
    return field;
}

}  // namespace xme::reference
