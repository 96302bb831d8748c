// SPEC §9: the 41 partitions of a macroblock from one grid of sixteen 4x4 SADs per candidate (002's
// way), each partition's best by §8's key, optional §10 refinement per partition, the mode decision.
#include <array>
#include <string>

#include "xme/error.hpp"
#include "xme/partitions.hpp"
#include "xme/rate.hpp"

namespace xme::reference {
namespace {

// The 4x4 SADs of the macroblock at one integer displacement, row-major: sad4[row][column], each 4x4
// at (4 * column, 4 * row) of the macroblock.
using SadGrid = std::array<std::array<std::uint32_t, 4>, 4>;

SadGrid sad_grid(const BlockSearch& search, MotionVector pel) {
    SadGrid grid{};
    for (int row = 0; row < 4; ++row) {
        for (int column = 0; column < 4; ++column) {
            grid[row][column] = block_sad(search.reference, search.current, search.x + 4 * column,
                                          search.y + 4 * row, 4, 4, pel.x, pel.y);
        }
    }
    return grid;
}

std::uint32_t partition_sad(const SadGrid& grid, const Partition& partition) {
    std::uint32_t sum = 0;
    for (int row = partition.y / 4; row < (partition.y + partition.height) / 4; ++row) {
        for (int column = partition.x / 4; column < (partition.x + partition.width) / 4; ++column) {
            sum += grid[row][column];
        }
    }
    return sum;
}

struct Best {
    bool found = false;
    CandidateKey key;
    BlockResult result;
};

void require_macroblock(const BlockSearch& search) {
    search.validate();
    if (search.width != macroblock_size || search.height != macroblock_size ||
        search.restrict_block_size != macroblock_size || search.x % macroblock_size != 0 ||
        search.y % macroblock_size != 0) {
        throw Error(ErrorKind::invalid_argument,
                    "partition search (SPEC §9) runs on 16x16 macroblocks of the 16-grid, got " +
                        std::to_string(search.width) + "x" + std::to_string(search.height) + " at (" +
                        std::to_string(search.x) + "," + std::to_string(search.y) + ") with restrict block " +
                        std::to_string(search.restrict_block_size));
    }
}

}  // namespace

MacroblockResult partition_search(const BlockSearch& search, bool quarter_pel) {
    require_macroblock(search);
    std::array<Best, partition_count> best{};
    std::uint32_t evaluated = 0;
    const auto evaluate = [&](MotionVector pel) {
        ++evaluated;
        const SadGrid grid = sad_grid(search, pel);
        const MotionVector quarter{4 * pel.x, 4 * pel.y};
        for (const Partition& partition : macroblock_partitions) {
            const std::uint32_t sad = partition_sad(grid, partition);
            const std::uint64_t cost = rate_constrained_cost(sad, search.lambda, quarter, search.predictor);
            const CandidateKey key = make_candidate_key(cost, quarter, search.predictor);
            Best& slot = best[static_cast<std::size_t>(partition.index)];
            if (slot.found && !(key < slot.key)) continue;
            slot = {true, key, {quarter, cost, sad, 0}};
        }
    };
    // One window and one validity test for the whole macroblock (§9's common search area).
    for (int dy = -search.range; dy <= search.range; ++dy) {
        for (int dx = -search.range; dx <= search.range; ++dx) {
            const MotionVector pel{search.centre.x + dx, search.centre.y + dy};
            if (integer_displacement_valid(search, pel)) evaluate(pel);
        }
    }
    // As full_search: a window centred on the predictor may hold no valid candidate in `restrict` mode;
    // SPEC §8 keeps the zero vector valid, so it is taken then. (SPEC does not say; full_search.cpp
    // does the same.)
    if (evaluated == 0) evaluate({0, 0});

    MacroblockResult result;
    std::array<std::uint64_t, partition_count> costs{};
    for (const Partition& partition : macroblock_partitions) {
        const auto index = static_cast<std::size_t>(partition.index);
        BlockResult chosen = best[index].result;
        if (quarter_pel) {
            // §9: refined from the partition's own integer vector, with its own SATD. The 16x16 block of
            // the 16-grid that contains the partition is its macroblock, so `restrict` still tests the
            // macroblock displaced (fractional_vector_valid).
            BlockSearch own = search;
            own.x = search.x + partition.x;
            own.y = search.y + partition.y;
            own.width = partition.width;
            own.height = partition.height;
            chosen = refine_qpel(own, chosen.mv);
        }
        // Candidates in SPEC §7/§11's units: the integer candidates evaluated, as whole-block chains
        // report them.
        chosen.candidates = evaluated;
        result.partitions[index] = chosen;
        costs[index] = chosen.cost;
    }
    result.decision = decide_mode(costs);
    return result;
}

}  // namespace xme::reference
