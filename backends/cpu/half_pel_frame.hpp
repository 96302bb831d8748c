// SPEC §10's half-sample planes (b, h, j) of a whole reference frame, filtered once per frame rather
// than once per block: neighbouring blocks' quarter-pel neighbourhoods overlap. Per 16x16 block, its own
// 24x18 region of each plane was 1.4 times the samples of the frame's planes (margin included), on rows
// too short for 16-sample vectors.
// Like SearchPlane, any region is one pointer: beyond the frame each plane is constant along rows and
// columns once the 6-tap support lies past the edge (3 samples), so a region past the margin reads the
// same samples as the region clamped to it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu_kernels.hpp"
#include "search_plane.hpp"

namespace xme::cpu {

// A region of size + 2 samples (a 32x32 block's quarter-pel neighbourhood) clamped to the margin lies
// wholly where the planes are constant: margin >= (32 + 2) + 2 on the left and top, (32 + 2) + 1 on the
// right and bottom. The filter reads 3 samples beyond, inside the search plane's margin of 48.
inline constexpr int half_pel_margin = 36;

class HalfPelFrame {
public:
    enum Plane { horizontal = 0, vertical = 1, centre = 2 };  // H.264's b, h, j

    // Filters the three planes of `reference`, a padded plane (its margin covers the 6-tap reach; threads
    // share the rows), `margin` samples beyond the frame on each side: half_pel_margin for any region, or
    // less where every region asked for lies within that margin (restrict_margin).
    void assign(const SearchPlane& reference, const OperationKernels& kernels, int threads,
                int margin = half_pel_margin);

    // The same planes a band of rows at a time, so that a refinement reads each band while it is still in
    // the cache (three planes of a 768x576 frame are 1.3 MB, more than the dev machine's L2): begin() sizes
    // them for `reference` and filters nothing; filter_through(y, threads) filters every row up to frame row
    // y (clamped to the margin) not filtered yet. assign() is begin() and every row.
    void begin(const SearchPlane& reference, const OperationKernels& kernels, int margin = half_pel_margin);
    void filter_through(int y, int threads);
    void filter_all(int threads) { filter_through(height_ + margin_, threads); }

    // The top-left of the w x h region at (x, y) of one plane; w and h at most 34.
    [[nodiscard]] const std::uint8_t* region(Plane plane, int x, int y, int w, int h) const {
        const int cx = x < -margin_ ? -margin_ : x > width_ + margin_ - w ? width_ + margin_ - w : x;
        const int cy = y < -margin_ ? -margin_ : y > height_ + margin_ - h ? height_ + margin_ - h : y;
        if (cy + margin_ + h > filtered_) [[unlikely]]
            unfiltered_region(y, h);
        return origins_[plane] + cy * stride_ + cx;
    }
    [[nodiscard]] std::ptrdiff_t stride() const { return stride_; }
    [[nodiscard]] std::size_t bytes() const { return 3 * plane_bytes_; }  // of the three planes

private:
    // A read of rows filter_through() has not reached: a caller's bug, never a result.
    [[noreturn]] void unfiltered_region(int y, int h) const;

    std::vector<std::uint8_t> samples_;               // the three planes one after the other
    const std::uint8_t* origins_[3] = {};             // sample (0, 0) of each
    std::vector<std::vector<std::int32_t>> scratch_;  // one per thread
    const std::uint8_t* source_ = nullptr;            // the reference's sample (-margin, -margin)
    std::ptrdiff_t source_stride_ = 0;
    const OperationKernels* kernels_ = nullptr;
    std::size_t plane_bytes_ = 0;
    int rows_ = 0;      // of each plane, margins included
    int filtered_ = 0;  // rows filtered so far, from the top margin's first
    int width_ = 0;
    int height_ = 0;
    int margin_ = half_pel_margin;
    std::ptrdiff_t stride_ = 0;
};

// SPEC §2's restrict mode keeps a block of the padded frame (whole blocks, padded_width x padded_height)
// inside it at every vector the refinement costs, so its regions (one sample more on each side) reach
// only 1 sample past the padded frame: on vtest.avi's 768x576 the planes' default margin of 36 filtered
// 23% more samples than the frame (59% on tree.avi's 320x240; docs/cpu.md, "Sub-pel refinement").
[[nodiscard]] inline int restrict_margin(int width, int height, int padded_width, int padded_height) {
    return std::max(padded_width - width, padded_height - height) + 1;
}

}  // namespace xme::cpu
