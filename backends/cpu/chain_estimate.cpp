#include "chain_estimate.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <limits>

#include "mean_downsample.hpp"
#include "spatial_predictor.hpp"
#include "xme/backend.hpp"
#include "xme/error.hpp"
#include "xme/kernel_table.hpp"
#include "xme/operations.hpp"
#include "xme/session_support.hpp"

namespace xme::cpu {
namespace {

// This core's L2 (glibc reads it from the CPU), or 1 MiB where it is not known.
std::size_t level2_cache_bytes() {
    static const std::size_t bytes = [] {
#ifdef _SC_LEVEL2_CACHE_SIZE
        const long reported = sysconf(_SC_LEVEL2_CACHE_SIZE);
        if (reported > 0) return static_cast<std::size_t>(reported);
#endif
        return std::size_t{1} << 20;
    }();
    return bytes;
}

// The table's kernel; CpuDevice::supports refuses a search without one before a session opens.
const SearchKernelFunction* checked_search_kernel(SearchMethod search) {
    const SearchKernelFunction* kernel = find_search_kernel(search);
    if (kernel == nullptr) require_supported(search_kernel_support("cpu", search, false));
    return kernel;
}

}  // namespace

ChainEstimator::ChainEstimator(const SearchParams& params, const std::string& variant, int threads,
                               std::size_t resident_frames)
    : params_(params),
      kernels_(operation_kernels_for(variant)),
      search_kernel_(checked_search_kernel(params.search)),
      predictor_set_(has(chain_needs(params), Need::predictor_set)),
      threads_(threads),
      padded_ids_(resident_frames),
      padded_(resident_frames),
      partition_kernel_(partition_candidates_for(variant)),
      partition_scratch_(params.partitions == Partitions::all ? static_cast<std::size_t>(threads) : 0),
      band_planes_above_(level2_cache_bytes() / 2) {}

void ChainEstimator::pad(const FramePair& pair) {
    const ResidentFrameSlots::PairSlots slots = padded_ids_.place(pair.reference_id, pair.current_id);
    SearchPlane& reference = padded_[static_cast<std::size_t>(slots.reference)];
    SearchPlane& current = padded_[static_cast<std::size_t>(slots.current)];
    frames_taken_in_ = xme::frames_taken_in(slots);
    try {
        if (slots.reference_claimed) reference.assign(pair.reference);
        if (slots.current_claimed) current.assign(pair.current);
    } catch (...) {
        padded_ids_.forget();
        throw;
    }
    reference_ = &reference;
    current_ = &current;
}

void ChainEstimator::prepare(const FramePair& pair, const PaddedPair* searched, bool whole_planes) {
    const PlaneView reference = pair.reference;
    const PlaneView current = pair.current;
    const int b = params_.block_size;
    // Restrict mode keeps every candidate block inside Wp x Hp (SPEC §2); on a frame of whole blocks that
    // is the frame itself, and without a sub-pel step (whose samples reach past the block) or ehds's
    // pyramid nothing reads past an edge: the frames are read in place instead of padded, a copy per
    // pair that was 12% of tz's time at range 16.
    const bool in_place = params_.border == BorderMode::restrict && params_.subpel == Subpel::none &&
                          !has(chain_needs(params_), Need::mean_pyramid) && current.width % b == 0 &&
                          current.height % b == 0;
    frames_taken_in_ = 0;
    padded_width_ = blocks_across(current.width, b) * b;
    padded_height_ = blocks_across(current.height, b) * b;
    // In restrict mode the refinement reads at most restrict_margin samples past the frame, and the
    // half-sample planes' 6-tap filter 3 more: the search's padded frames (margin range + 4) usually
    // cover that, and padding the frames again was ~2% of fs+qpel's time on vtest.avi.
    const bool searched_covers =
        searched != nullptr && params_.border == BorderMode::restrict &&
        searched->margin >= restrict_margin(current.width, current.height, padded_width_, padded_height_) + 3;
    if (in_place) {
        current_view_.view(current);
        reference_view_.view(reference);
        current_ = &current_view_;
        reference_ = &reference_view_;
    } else if (searched_covers) {
        current_view_.view_padded(searched->current, searched->stride, current.width, current.height,
                                  searched->margin);
        reference_view_.view_padded(searched->reference, searched->stride, reference.width, reference.height,
                                    searched->margin);
        current_ = &current_view_;
        reference_ = &reference_view_;
    } else {
        pad(pair);
    }
    if (params_.subpel == Subpel::qpel) {
        if (half_pel_id_ != pair.reference_id) {
            const int margin =
                params_.border == BorderMode::restrict
                    ? restrict_margin(current.width, current.height, padded_width_, padded_height_)
                    : half_pel_margin;
            half_pel_.begin(*reference_, kernels_, margin);
            half_pel_id_ = pair.reference_id;
        }
        if (whole_planes) half_pel_.filter_all(threads_);
    }
    if (has(chain_needs(params_), Need::mean_pyramid)) {
        const Plane reference1 = mean_downsample(reference);
        const Plane current1 = mean_downsample(current);
        pyramid_.emplace(MeanPyramid{SearchPlane(reference1.view()), SearchPlane(current1.view()),
                                     SearchPlane(mean_downsample(reference1.view()).view()),
                                     SearchPlane(mean_downsample(current1.view()).view())});
    }
}

IntegerBlock ChainEstimator::block_at(int bx, int by, MotionVector predictor) const {
    IntegerBlock block;
    block.reference = reference_;
    block.current = current_;
    block.kernels = &kernels_;
    block.size = params_.block_size;
    block.x = bx * block.size;
    block.y = by * block.size;
    block.range = params_.range;
    block.border = params_.border;
    block.padded_width = padded_width_;
    block.padded_height = padded_height_;
    block.lambda = params_.lambda;
    block.predictor = predictor;
    block.centre =
        params_.centre == WindowCentre::predictor ? round_quarter_to_pel(predictor) : MotionVector{};
    return block;
}

IntegerResult ChainEstimator::integer_search(const IntegerBlock& block, const MotionField& field,
                                             const MotionField* previous) const {
    SearchSurroundings surroundings;
    if (pyramid_) surroundings.pyramid = &*pyramid_;
    if (predictor_set_) {
        surroundings.predictor_set =
            predictor_set(field, block.x / block.size, block.y / block.size, previous);
    }
    return (*search_kernel_)(block, surroundings);
}

void ChainEstimator::refine_block(const IntegerBlock& block, MotionVector pel, std::uint64_t integer_cost,
                                  std::uint32_t candidates, BlockMotion& out) const {
    SubpelResult final{{4 * pel.x, 4 * pel.y}, integer_cost};
    if (params_.subpel == Subpel::hpel) final = refine_hpel(block, pel);
    if (params_.subpel == Subpel::qpel) final = refine_qpel(block, pel, half_pel_);
    out = fitted_block_motion(final, candidates);
}

void ChainEstimator::search_block(int bx, int by, MotionVector predictor, const MotionField* previous,
                                  int thread, MotionField& field) {
    const IntegerBlock block = block_at(bx, by, predictor);
    const auto slot = static_cast<std::size_t>(thread);
    if (params_.partitions == Partitions::all) {
        MacroblockMotion& macroblock = field.macroblocks[static_cast<std::size_t>(by * field.blocks_x + bx)];
        macroblock =
            partition_search(block, partition_kernel_, params_.subpel == Subpel::qpel ? &half_pel_ : nullptr,
                             partition_scratch_[slot]);
        field.at(bx, by) = macroblock.partitions[0];  // SPEC §8: the predictors read the 16x16 partition
        return;
    }
    const IntegerResult integer = integer_search(block, field, previous);
    refine_block(block, integer.pel, integer.cost, integer.candidates, field.at(bx, by));
}

MotionField ChainEstimator::estimate(const FramePair& pair, const MotionField* previous) {
    prepare(pair);
    const PlaneView current = pair.current;
    MotionField field(current.width, current.height, params_.block_size, cost_kind_of(params_));
    if (previous != nullptr &&
        (previous->blocks_x != field.blocks_x || previous->blocks_y != field.blocks_y)) {
        throw Error(ErrorKind::invalid_argument, "the previous pair's result has another block grid");
    }
    if (params_.partitions == Partitions::all) field.macroblocks.resize(field.blocks.size());
    const int bx_count = field.blocks_x;
    const int by_count = field.blocks_y;
    const auto predictor_of = [&](int bx, int by) -> MotionVector {
        if (params_.predictor == Predictor::spatial) return spatial_predictor(field, bx, by);
        if (params_.predictor == Predictor::temporal && previous != nullptr) {
            const BlockMotion& m = previous->at(bx, by);
            return {m.mv_x, m.mv_y};
        }
        return {};
    };
    if (needs_wavefront(params_)) {
        // Diagonal t holds the blocks with bx + 2 by = t.
        const int diagonals = bx_count + 2 * (by_count - 1);
        for (int t = 0; t < diagonals; ++t) {
            const int by_low = t - bx_count + 1 > 0 ? (t - bx_count + 2) / 2 : 0;
            const int by_high = t / 2 < by_count - 1 ? t / 2 : by_count - 1;
#pragma omp parallel for num_threads(threads_) schedule(dynamic)
            for (int by = by_low; by <= by_high; ++by) {
                const int bx = t - 2 * by;
                search_block(bx, by, predictor_of(bx, by), previous, omp_get_thread_num(), field);
            }
        }
    } else {
        const int blocks = bx_count * by_count;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 4)
        for (int i = 0; i < blocks; ++i) {
            const int bx = i % bx_count;
            const int by = i / bx_count;
            search_block(bx, by, predictor_of(bx, by), previous, omp_get_thread_num(), field);
        }
    }
    const auto unfit = [](const BlockMotion& m) { return m == unfit_block; };
    const bool any_unfit =
        std::any_of(field.blocks.begin(), field.blocks.end(), unfit) ||
        std::any_of(field.macroblocks.begin(), field.macroblocks.end(), [&](const MacroblockMotion& m) {
            return std::any_of(m.partitions.begin(), m.partitions.end(), unfit);
        });
    if (any_unfit) {
        throw Error(ErrorKind::unsupported, "a cost exceeds 32 bits or a vector int16: use a smaller lambda");
    }
    return field;
}

void ChainEstimator::refine(const FramePair& pair, MotionField& field, const PaddedPair& searched) {
    prepare(pair, &searched, false);
    // Where the three half-sample planes are larger than half the L2, bands of about 64 rows of blocks,
    // each band's planes filtered (down to the lowest row its vectors read) just before its blocks are
    // refined, so that they are read from the cache instead of memory: at 1920x1080 (6 MB of planes) the
    // refinement ~30% faster, on vtest.avi (1.3 MB) as fast; planes that fit stay whole, as tree.avi's
    // (0.23 MB) were refined ~10% slower by bands (docs/cpu.md, "The fast full search").
    const int b = params_.block_size;
    const bool qpel = params_.subpel == Subpel::qpel;
    const bool by_bands = qpel && half_pel_.bytes() > band_planes_above_;
    if (qpel && !by_bands) half_pel_.filter_all(threads_);
    const int band_rows = by_bands ? std::max(1, 64 / b) : field.blocks_y;  // of blocks
    const int band_blocks = field.blocks_x * band_rows;
    const int blocks = field.blocks_x * field.blocks_y;
    for (int band = 0; band < blocks; band += band_blocks) {
        const int end = std::min(blocks, band + band_blocks);
        if (by_bands) {
            int lowest = 0;  // frame row: a refinement reads rows to y + vy + height (refine_qpel.cpp)
            for (int i = band; i < end; ++i) {
                const BlockMotion& m = field.blocks[static_cast<std::size_t>(i)];
                lowest = std::max(lowest, (i / field.blocks_x) * b + m.mv_y / 4 + b);
            }
            half_pel_.filter_through(lowest, threads_);
        }
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 4)
        for (int i = band; i < end; ++i) {
            BlockMotion& m = field.blocks[static_cast<std::size_t>(i)];
            const IntegerBlock block = block_at(i % field.blocks_x, i / field.blocks_x, {});
            refine_block(block, {m.mv_x / 4, m.mv_y / 4}, m.cost, m.candidates, m);
        }
    }
}

}  // namespace xme::cpu
