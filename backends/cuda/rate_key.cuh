// SPEC §8's key (J, |mv - p|, mv.y, mv.x) that picks the unique best candidate, the se(v) bit lengths it
// needs, and SPEC §1's reference sample at any position. __host__ __device__, so that the emulation
// tests (qpel_emulation_test.cpp, walk_emulation_test.cpp) run the device code on the host.
#pragma once

#include <cstdint>

#include "kernels.hpp"
#include "qpel_arith.cuh"  // XME_QPEL_HD and the integer helpers both compilers accept

namespace xme::cuda {

// Length of H.264's se(v): k = 2v - 1 for v > 0, -2v otherwise; 2 * floor(log2(k + 1)) + 1.
XME_QPEL_HD int se_bits(int v) {
    const unsigned k = v > 0 ? 2u * static_cast<unsigned>(v) - 1u : 2u * static_cast<unsigned>(-v);
    return 2 * (qpel::bit_width(k + 1u) - 1) + 1;
}

struct Vector {
    int x = 0;
    int y = 0;
};

// round(q / 4), halves away from zero (xme::round_quarter_to_pel).
XME_QPEL_HD int round_quarter(int q) { return q >= 0 ? (q + 2) / 4 : -((-q + 2) / 4); }

// SPEC §8's key, compared member by member: J, then |mv - p|_1, then mv.y, then mv.x (quarter-pel).
struct RateKey {
    std::uint32_t cost = ~0u;
    std::uint32_t distance = ~0u;
    int y = 0x7FFFFFFF;
    int x = 0x7FFFFFFF;
};

XME_QPEL_HD bool operator<(const RateKey& a, const RateKey& b) {
    if (a.cost != b.cost) return a.cost < b.cost;
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.y != b.y) return a.y < b.y;
    return a.x < b.x;
}

// The key of vector mv (quarter-pel) with distortion d and rate weight lambda (4 * lambda for cost4).
// J fits 32 bits for every lambda SPEC §8 allows: the host checks the bound before a launch.
XME_QPEL_HD RateKey rate_key(std::uint32_t distortion, int lambda, int mvx, int mvy, Vector p) {
    const int ex = mvx - p.x;
    const int ey = mvy - p.y;
    const std::uint32_t bits = static_cast<std::uint32_t>(se_bits(ex) + se_bits(ey));
    return {distortion + static_cast<std::uint32_t>(lambda) * bits,
            static_cast<std::uint32_t>(qpel::absolute(ex) + qpel::absolute(ey)), mvy, mvx};
}

// The fast rate kernel's packed winner (full_search_fast.cu): J << 32 | |mv - p| << 18 | (dy + range) << 9 |
// (dx + range), integer pel, so that a 64-bit min picks SPEC §8's best. Decoded by the host
// (cuda_session.cpp), by the next pair's temporal predictor and by the refinements that start from it.
inline constexpr std::uint64_t no_fast_rate_key = ~std::uint64_t{0};  // the block got no candidate

XME_QPEL_HD std::uint64_t pack_fast_rate_key(std::uint32_t cost, std::uint32_t distance, int dx, int dy,
                                             int range) {
    return static_cast<std::uint64_t>(cost) << 32 | distance << 18 |
           static_cast<std::uint32_t>(dy + range) << 9 | static_cast<std::uint32_t>(dx + range);
}
XME_QPEL_HD std::uint32_t fast_rate_key_cost(std::uint64_t key) {
    return static_cast<std::uint32_t>(key >> 32);
}
XME_QPEL_HD int fast_rate_key_dx(std::uint64_t key, int range) {
    return static_cast<int>(static_cast<std::uint32_t>(key) & 511u) - range;
}
XME_QPEL_HD int fast_rate_key_dy(std::uint64_t key, int range) {
    return static_cast<int>((static_cast<std::uint32_t>(key) >> 9) & 511u) - range;
}
// The winner as a BlockMotion or a MotionRecord: its vector in quarter pel and J (the candidate
// count, where the type has one, is the caller's).
template <class Motion>
XME_QPEL_HD Motion motion_of_fast_rate_key(std::uint64_t key, int range) {
    return {static_cast<std::int16_t>(4 * fast_rate_key_dx(key, range)),
            static_cast<std::int16_t>(4 * fast_rate_key_dy(key, range)), fast_rate_key_cost(key)};
}

// Column and row ranges of the padded reference that hold SPEC §1's replicated samples (the padding
// kernel fills whole rows of `pitch` bytes).
struct Stored {
    int low_x, high_x, low_y, high_y;

    // Whether the B x B block at (left, top) lies inside: then its samples are read as they are.
    XME_QPEL_HD bool holds(int left, int top, int b) const {
        return left >= low_x && left + b - 1 <= high_x && top >= low_y && top + b - 1 <= high_y;
    }
};

XME_QPEL_HD Stored stored_region(const FrameLayout& f) {
    return {-f.margin_x, f.pitch - f.margin_x - 1, -f.margin_y, f.padded_height + f.margin_y - 1};
}

// SPEC §1's pel(x, y) of the reference for any (x, y), also far outside the frame (a window centred on
// a predictor): beyond the stored margin every sample repeats the stored edge.
XME_QPEL_HD int reference_pel(const SearchJob& job, int x, int y) {
    const Stored s = stored_region(job.layout);
    x = qpel::min_int(qpel::maximum(x, s.low_x), s.high_x);
    y = qpel::min_int(qpel::maximum(y, s.low_y), s.high_y);
    return job.reference[static_cast<std::ptrdiff_t>(y) * job.layout.pitch + x];
}

}  // namespace xme::cuda
