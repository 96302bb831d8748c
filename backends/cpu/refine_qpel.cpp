// SPEC §10: the quarter-pel refinement, half stage then quarter stage (qpel_stages.hpp). The half-pel
// planes are the reference frame's (filtered once per frame); every one of H.264's 16 sample positions is
// the rounded average of two of its planes (or one plane, averaged with itself).
#include "qpel_stages.hpp"

namespace xme::cpu {

QpelNeighbourhood qpel_neighbourhood(const IntegerBlock& block, int left, int top, int width, int height,
                                     MotionVector integer_pel, const HalfPelFrame& planes) {
    // Integer positions ix - 1 .. ix + width (and the same rows), the last one for H, M, m and s: each
    // region's top-left as the plane clamps it, so its sample (1, 1) is the integer position's.
    const int columns = width + 2;
    const int rows = height + 2;
    const int x = left + integer_pel.x - 1;
    const int y = top + integer_pel.y - 1;
    const std::uint8_t* const corner[h264_plane_count] = {
        block.reference->block(x, y, columns, rows),
        planes.region(HalfPelFrame::horizontal, x, y, columns, rows),
        planes.region(HalfPelFrame::vertical, x, y, columns, rows),
        planes.region(HalfPelFrame::centre, x, y, columns, rows)};
    const std::ptrdiff_t strides[h264_plane_count] = {block.reference->stride(), planes.stride(),
                                                      planes.stride(), planes.stride()};
    QpelNeighbourhood n;  // NOLINT(cppcoreguidelines-pro-type-member-init): every slot written below
    for (int plane = 0; plane < h264_plane_count; ++plane) {
        for (int dy = -1; dy <= 1; ++dy) {
            n.at[3 * plane + dy + 1] = corner[plane] + (1 + dy) * strides[plane] + 1;
            n.stride[3 * plane + dy + 1] = strides[plane];
        }
    }
    return n;
}

SubpelResult refine_qpel(const IntegerBlock& block, int left, int top, int width, int height,
                         MotionVector integer_pel, const HalfPelFrame& planes) {
    const QpelNeighbourhood neighbourhood =
        qpel_neighbourhood(block, left, top, width, height, integer_pel, planes);
    const std::uint8_t* current = block.current->block(left, top, width, height);
    const std::ptrdiff_t current_stride = block.current->stride();
    const OperationKernels& kernels = *block.kernels;
    if (width == 16 && height == 16 && kernels.refine_qpel16 != nullptr)
        return kernels.refine_qpel16(block, integer_pel, neighbourhood, current, current_stride);

    // The current block's half of SATD once for its up to 17 candidates, where the kernels have that form.
    TransformedCurrent transformed;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
    const bool is_transformed =
        kernels.transform_current != nullptr &&
        kernels.transform_current(current, current_stride, width, height, transformed);
    return qpel_stages(block, integer_pel, neighbourhood, [&](const QpelPrediction& r, std::uint32_t limit) {
        if (is_transformed) {
            return kernels.satd_transformed(transformed, r.p, r.p_stride, r.q, r.q_stride, width, height,
                                            limit);
        }
        return kernels.satd(current, current_stride, r.p, r.p_stride, r.q, r.q_stride, width, height, limit);
    });
}

}  // namespace xme::cpu
