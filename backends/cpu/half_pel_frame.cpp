#include "half_pel_frame.hpp"

#include <omp.h>

#include <algorithm>

namespace xme::cpu {
void HalfPelFrame::assign(const SearchPlane& reference, const OperationKernels& kernels, int threads,
                          int margin) {
    width_ = reference.width();
    height_ = reference.height();
    margin_ = std::clamp(margin, 1, half_pel_margin);
    // Whole vectors of 8 per row: the kernels' columns past the plane are filtered, never read.
    stride_ = (width_ + 2 * margin_ + 7) / 8 * 8;
    const int rows = height_ + 2 * margin_;
    const auto plane_bytes = static_cast<std::size_t>(stride_) * static_cast<std::size_t>(rows);
    // Slack after the last plane: the 4- and 8-wide SATD kernels load 8 or 16 bytes of a region's row,
    // which with a small margin can be the allocation's last.
    samples_.resize(3 * plane_bytes + 32);
    for (int p = 0; p < 3; ++p) {
        origins_[p] =
            samples_.data() + static_cast<std::size_t>(p) * plane_bytes + margin_ * stride_ + margin_;
    }
    scratch_.resize(static_cast<std::size_t>(threads));
    const int width = static_cast<int>(stride_);
    // Sample (-margin, -margin) of the padded reference; the kernel reads 2 before and 3 after.
    const std::uint8_t* source = reference.block(0, 0, 1, 1) - margin_ * reference.stride() - margin_;
    // One band of rows per thread: each kernel call also filters the 5 rows of horizontal samples around its
    // band that the centre plane's vertical taps read, so fewer calls filter fewer rows twice.
    const int band_rows = (rows + threads - 1) / threads;
    const int bands = (rows + band_rows - 1) / band_rows;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int band = 0; band < bands; ++band) {
        std::vector<std::int32_t>& scratch = scratch_[static_cast<std::size_t>(omp_get_thread_num())];
        scratch.resize(half_pel_scratch_words(width));
        const int first = band * band_rows;
        const int count = std::min(band_rows, rows - first);
        const std::size_t offset = static_cast<std::size_t>(first) * static_cast<std::size_t>(stride_);
        kernels.half_pel_planes(source + first * reference.stride(), reference.stride(), width, count,
                                samples_.data() + offset, samples_.data() + plane_bytes + offset,
                                samples_.data() + 2 * plane_bytes + offset, scratch.data());
    }
}

}  // namespace xme::cpu
