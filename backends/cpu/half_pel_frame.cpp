#include "half_pel_frame.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace xme::cpu {
void HalfPelFrame::assign(const SearchPlane& reference, const OperationKernels& kernels, int threads,
                          int margin) {
    begin(reference, kernels, margin);
    filter_all(threads);
}

void HalfPelFrame::begin(const SearchPlane& reference, const OperationKernels& kernels, int margin) {
    width_ = reference.width();
    height_ = reference.height();
    margin_ = std::clamp(margin, 1, half_pel_margin);
    // Whole vectors of 8 per row: the kernels' columns past the plane are filtered, never read.
    stride_ = (width_ + 2 * margin_ + 7) / 8 * 8;
    rows_ = height_ + 2 * margin_;
    plane_bytes_ = static_cast<std::size_t>(stride_) * static_cast<std::size_t>(rows_);
    // Slack after the last plane: the 4- and 8-wide SATD kernels load 8 or 16 bytes of a region's row,
    // which with a small margin can be the allocation's last.
    samples_.resize(3 * plane_bytes_ + 32);
    for (int p = 0; p < 3; ++p) {
        origins_[p] =
            samples_.data() + static_cast<std::size_t>(p) * plane_bytes_ + margin_ * stride_ + margin_;
    }
    // Sample (-margin, -margin) of the padded reference; the kernel reads 2 before and 3 after.
    source_ = reference.block(0, 0, 1, 1) - margin_ * reference.stride() - margin_;
    source_stride_ = reference.stride();
    kernels_ = &kernels;
    filtered_ = 0;
}

void HalfPelFrame::filter_through(int y, int threads) {
    const int end = std::min(rows_, y + margin_ + 1);
    if (end <= filtered_) return;
    if (scratch_.size() < static_cast<std::size_t>(threads))
        scratch_.resize(static_cast<std::size_t>(threads));
    const int width = static_cast<int>(stride_);
    // One band of rows per thread: each kernel call also filters the 5 rows of horizontal samples around its
    // band that the centre plane's vertical taps read, so fewer calls filter fewer rows twice.
    const int rows = end - filtered_;
    const int band_rows = (rows + threads - 1) / threads;
    const int bands = (rows + band_rows - 1) / band_rows;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int band = 0; band < bands; ++band) {
        std::vector<std::int32_t>& scratch = scratch_[static_cast<std::size_t>(omp_get_thread_num())];
        scratch.resize(half_pel_scratch_words(width));
        const int first = filtered_ + band * band_rows;
        const int count = std::min(band_rows, end - first);
        const std::size_t offset = static_cast<std::size_t>(first) * static_cast<std::size_t>(stride_);
        kernels_->half_pel_planes(source_ + first * source_stride_, source_stride_, width, count,
                                  samples_.data() + offset, samples_.data() + plane_bytes_ + offset,
                                  samples_.data() + 2 * plane_bytes_ + offset, scratch.data());
    }
    filtered_ = end;
}

void HalfPelFrame::unfiltered_region(int y, int h) const {
    throw std::logic_error("half-sample planes: rows " + std::to_string(y) + " .. " +
                           std::to_string(y + h - 1) + " read before they were filtered (" +
                           std::to_string(filtered_ - margin_) + " rows filtered)");
}

}  // namespace xme::cpu
