// The CPU's operations path: every chain of SPEC §8-§11 per frame pair, OpenMP over blocks, and for the
// spatial predictor a wavefront (the blocks of one diagonal bx + 2 by in parallel: left, top, top-right
// and top-left neighbours all lie on earlier diagonals).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cpu_kernels.hpp"
#include "integer_search.hpp"
#include "partition_search.hpp"
#include "subpel_refine.hpp"
#include "xme/device.hpp"
#include "xme/session_support.hpp"

namespace xme::cpu {

class ChainEstimator {
public:
    // `resident_frames`: the padded frames kept by id (SessionOptions::resident_frames).
    ChainEstimator(const SearchParams& params, const std::string& variant, int threads,
                   std::size_t resident_frames = 2);

    // The chain's field for one pair; `previous` is the temporal predictor's field (null: p = 0).
    [[nodiscard]] MotionField estimate(const FramePair& pair, const MotionField* previous);
    // A pair's frames as another path padded them (the fast full search's), `margin` samples on every side.
    struct PaddedPair {
        const std::uint8_t* current = nullptr;    // pixel (0, 0)
        const std::uint8_t* reference = nullptr;  // pixel (0, 0)
        std::ptrdiff_t stride = 0;
        int margin = 0;
    };
    // The refinement alone after the fast full search: `field` holds its integer vectors (quarter pel),
    // SAD costs and candidates; refined in place. The search's padded frames are read where their margin
    // covers every read of the refinement (restrict mode), instead of padding the frames again.
    void refine(const FramePair& pair, MotionField& field, const PaddedPair& searched);
    // refine() filters half-sample planes larger than this band by band (default: half this core's L2);
    // the same results either way, so tests force both.
    void set_band_planes_above(std::size_t bytes) { band_planes_above_ = bytes; }
    // The frames the last estimate() or refine() padded (PairResult::frames_taken_in).
    [[nodiscard]] int frames_taken_in() const { return frames_taken_in_; }

private:
    [[nodiscard]] IntegerBlock block_at(int bx, int by, MotionVector predictor) const;
    // The block's result into `field` (with partitions, its macroblock's too), from thread `thread`.
    // `previous`: the previous pair's field (SPEC §8), null at a segment's start or when not read.
    void search_block(int bx, int by, MotionVector predictor, const MotionField* previous, int thread,
                      MotionField& field);
    // The table's kernel, given what the search's row needs (the pyramid; the predictor set from the
    // final vectors in `field` and `previous`).
    [[nodiscard]] IntegerResult integer_search(const IntegerBlock& block, const MotionField& field,
                                               const MotionField* previous) const;
    // Into `out` (the field's slot) rather than returned: g++ built the returned BlockMotion on the stack
    // from 16-bit stores and read it back as 64 bits, a load no store can forward
    // (docs/cpu.md, "The operations path: searches").
    void refine_block(const IntegerBlock& block, MotionVector pel, std::uint64_t integer_cost,
                      std::uint32_t candidates, BlockMotion& out) const;
    // The frames and what the chain reads besides; the half-sample planes begun, and filtered whole unless
    // the caller filters them band by band.
    void prepare(const FramePair& pair, const PaddedPair* searched = nullptr, bool whole_planes = true);
    // Points reference_ and current_ at the pair's padded planes, padding a frame only when it is not
    // resident (a pair's current frame is the next pair's reference).
    void pad(const FramePair& pair);

    SearchParams params_;
    OperationKernels kernels_;
    const SearchKernelFunction* search_kernel_;  // the CPU table's row for params_.search
    bool predictor_set_;                         // the search's row needs SPEC §8's predictor set
    int threads_ = 1;
    ResidentFrameSlots padded_ids_;
    std::vector<SearchPlane> padded_;
    int frames_taken_in_ = 0;  // the last pair's frames padded (PairResult::frames_taken_in)
    // The frames read where they are (in place, or as the fast full search padded them) when no read
    // leaves what they hold.
    SearchPlane reference_view_;
    SearchPlane current_view_;
    const SearchPlane* reference_ = nullptr;
    const SearchPlane* current_ = nullptr;
    std::optional<MeanPyramid> pyramid_;  // Need::mean_pyramid
    // The reference's half-sample planes for qpel, and the frame they were filtered from.
    HalfPelFrame half_pel_;
    std::optional<std::int64_t> half_pel_id_;
    PartitionCandidates partition_kernel_;
    std::vector<PartitionScratch> partition_scratch_;  // one per thread, with partitions
    int padded_width_ = 0;
    int padded_height_ = 0;
    std::size_t band_planes_above_;
};

}  // namespace xme::cpu
