// SPEC §1-§4, line by line. Deliberately naive: this is the oracle every backend is checked against.
#include "xme/reference.hpp"

#include <cstdint>
#include <cstdlib>


namespace xme::reference {
namespace {

int padded_extent(int extent, int block_size) { return blocks_across(extent, block_size) * block_size; }

bool block_inside_padded_frame(int x, int y, int frame_width, int frame_height, int block_size) {
    return x >= 0 && x <= padded_extent(frame_width, block_size) - block_size && y >= 0 &&
           y <= padded_extent(frame_height, block_size) - block_size;
}

}  // namespace

bool integer_candidate_valid(int bx, int by, int dx, int dy, int frame_width, int frame_height,
                             const SearchParams& params) {
    if (dx == 0 && dy == 0) return true;
    if (params.border == BorderMode::pad) return true;
    return block_inside_padded_frame(bx + dx, by + dy, frame_width, frame_height, params.block_size);
}

bool halfpel_candidate_valid(int bx, int by, int mvx, int mvy, int frame_width, int frame_height,
                             const SearchParams& params) {
    if (params.border == BorderMode::pad) return true;
    // The samples interpolated lie between floor and ceil of the half-pel position.
    const int x_low = bx + (mvx >= 0 ? mvx / 4 : -((-mvx + 3) / 4));
    const int y_low = by + (mvy >= 0 ? mvy / 4 : -((-mvy + 3) / 4));
    const int x_high = x_low + (mvx % 4 != 0 ? 1 : 0);
    const int y_high = y_low + (mvy % 4 != 0 ? 1 : 0);
    const int b = params.block_size;
    return block_inside_padded_frame(x_low, y_low, frame_width, frame_height, b) &&
           block_inside_padded_frame(x_high, y_high, frame_width, frame_height, b);
}

std::uint32_t sad(PlaneView reference, PlaneView current, int bx, int by, int block_size, int dx, int dy) {
    std::uint32_t sum = 0;
    for (int j = 0; j < block_size; ++j) {
        for (int i = 0; i < block_size; ++i) {
            const int c = current.at_clamped(bx + i, by + j);
            const int r = reference.at_clamped(bx + i + dx, by + j + dy);
            sum += static_cast<std::uint32_t>(std::abs(c - r));
        }
    }
    return sum;
}

std::uint32_t cost4(PlaneView reference, PlaneView current, int bx, int by, int block_size, int mvx, int mvy) {
    // mv is on the half-pel grid: mv = 2*h, and the position is floor(h/2) plus a half step.
    const int hx = mvx / 2;
    const int hy = mvy / 2;
    const int ix = (hx >= 0 ? hx / 2 : -((-hx + 1) / 2));  // floor(hx / 2)
    const int iy = (hy >= 0 ? hy / 2 : -((-hy + 1) / 2));
    const bool half_x = hx != 2 * ix;
    const bool half_y = hy != 2 * iy;
    std::uint32_t sum = 0;
    for (int j = 0; j < block_size; ++j) {
        for (int i = 0; i < block_size; ++i) {
            const int x = bx + i + ix;
            const int y = by + j + iy;
            const int a = reference.at_clamped(x, y);
            const int b = reference.at_clamped(x + 1, y);
            const int c = reference.at_clamped(x, y + 1);
            const int d = reference.at_clamped(x + 1, y + 1);
            int four_interp = 4 * a;  // 4 * the exact bilinear average, an integer
            if (half_x && half_y) {
                four_interp = a + b + c + d;
            } else if (half_x) {
                four_interp = 2 * (a + b);
            } else if (half_y) {
                four_interp = 2 * (a + c);
            }
            sum += static_cast<std::uint32_t>(std::abs(4 * current.at_clamped(bx + i, by + j) - four_interp));
        }
    }
    return sum;
}

}  // namespace xme::reference
