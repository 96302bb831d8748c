// SPEC §10's sixteen sample positions as pairs of H.264's planes (ITU-T H.264 8.4.2.2.1): each
// position is the rounded average (p + q + 1) >> 1 of two samples (one averaged with itself), each
// sample one of the planes G (the integer samples), b (horizontal half), h (vertical half) and j
// (centre) at the position's floor or one column or row past it. The reference computes each letter
// from its definition (reference/h264_sample.cpp); code that filters whole planes or rectangles reads
// this table instead.
#pragma once

namespace xme {

// A plane and the column and row offset of its sample from the position's floor.
struct H264Tap {
    int plane;  // 0: G, 1: b, 2: h, 3: j
    int col;
    int row;
};

inline constexpr int h264_plane_count = 4;

namespace h264_letters {
inline constexpr H264Tap G{0, 0, 0}, H{0, 1, 0}, M{0, 0, 1}, b{1, 0, 0}, h{2, 0, 0}, j{3, 0, 0}, m{2, 1, 0},
    s{1, 0, 1};
}  // namespace h264_letters

// Per fraction fy * 4 + fx: the two samples averaged.
inline constexpr H264Tap h264_position_taps[16][2] = {
    {h264_letters::G, h264_letters::G}, {h264_letters::G, h264_letters::b},
    {h264_letters::b, h264_letters::b}, {h264_letters::H, h264_letters::b},
    {h264_letters::G, h264_letters::h}, {h264_letters::b, h264_letters::h},
    {h264_letters::b, h264_letters::j}, {h264_letters::b, h264_letters::m},
    {h264_letters::h, h264_letters::h}, {h264_letters::h, h264_letters::j},
    {h264_letters::j, h264_letters::j}, {h264_letters::j, h264_letters::m},
    {h264_letters::M, h264_letters::h}, {h264_letters::h, h264_letters::s},
    {h264_letters::j, h264_letters::s}, {h264_letters::m, h264_letters::s}};

}  // namespace xme
