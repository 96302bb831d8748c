// SPEC §10's half-sample planes (b, h, j) of a whole reference frame, filtered once per frame rather
// than once per block: neighbouring blocks' quarter-pel neighbourhoods overlap. Per 16x16 block, its own
// 24x18 region of each plane was 1.4 times the samples of the frame's planes (margin included), on rows
// too short for 16-sample vectors.
// Like SearchPlane, any region is one pointer: beyond the frame each plane is constant along rows and
// columns once the 6-tap support lies past the edge (3 samples), so a region past the margin reads the
// same samples as the region clamped to it.
#pragma once

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
    // share the rows).
    void assign(const SearchPlane& reference, const OperationKernels& kernels, int threads);

    // The top-left of the w x h region at (x, y) of one plane; w and h at most 34.
    [[nodiscard]] const std::uint8_t* region(Plane plane, int x, int y, int w, int h) const {
        const int cx = x < -half_pel_margin               ? -half_pel_margin
                       : x > width_ + half_pel_margin - w ? width_ + half_pel_margin - w
                                                          : x;
        const int cy = y < -half_pel_margin                ? -half_pel_margin
                       : y > height_ + half_pel_margin - h ? height_ + half_pel_margin - h
                                                           : y;
        return origins_[plane] + cy * stride_ + cx;
    }
    [[nodiscard]] std::ptrdiff_t stride() const { return stride_; }

private:
    std::vector<std::uint8_t> samples_;               // the three planes one after the other
    const std::uint8_t* origins_[3] = {};             // sample (0, 0) of each
    std::vector<std::vector<std::int32_t>> scratch_;  // one per thread
    int width_ = 0;
    int height_ = 0;
    std::ptrdiff_t stride_ = 0;
};

}  // namespace xme::cpu
