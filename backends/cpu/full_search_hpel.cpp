#include "full_search_hpel.hpp"

#include <cstdlib>
#include <limits>

#include "xme/reference.hpp"
#include "xme/search_key.hpp"

namespace xme::cpu {
namespace {

int floor_half(int half_units) { return half_units >= 0 ? half_units / 2 : -((-half_units + 1) / 2); }

// cost4 at half-pel position (hx, hy) relative to the block, read from the padded reference.
std::uint32_t cost4_at(const SearchFrames& f, int x, int y, int hx, int hy) {
    const int b = f.params.block_size;
    const int ix = floor_half(hx);
    const int iy = floor_half(hy);
    const std::ptrdiff_t step_x = hx != 2 * ix ? 1 : 0;
    const std::ptrdiff_t step_y = hy != 2 * iy ? f.stride : 0;
    std::uint32_t sum = 0;
    for (int j = 0; j < b; ++j) {
        const std::uint8_t* cur = f.current + (y + j) * f.stride + x;
        const std::uint8_t* a = f.reference + (y + j + iy) * f.stride + x + ix;
        for (int i = 0; i < b; ++i) {
            // a + b + c + d covers all four cases: a step of 0 repeats a sample.
            const int four_interp = a[i] + a[i + step_x] + a[i + step_y] + a[i + step_x + step_y];
            sum += static_cast<std::uint32_t>(std::abs(4 * cur[i] - four_interp));
        }
    }
    return sum;
}

}  // namespace

BlockMotion refine_full_search_hpel(const SearchFrames& frames, int frame_width, int frame_height, int bx, int by,
                            std::uint64_t integer_key) {
    const int x = bx * frames.params.block_size;
    const int y = by * frames.params.block_size;
    const int center_x = key_half_x(integer_key);
    const int center_y = key_half_y(integer_key);
    std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
    for (int sy = -1; sy <= 1; ++sy) {
        for (int sx = -1; sx <= 1; ++sx) {
            const int hx = center_x + sx;
            const int hy = center_y + sy;
            if (!reference::halfpel_candidate_valid(x, y, 2 * hx, 2 * hy, frame_width, frame_height, frames.params)) {
                continue;
            }
            const std::uint64_t key = pack_search_key(cost4_at(frames, x, y, hx, hy), hx, hy);
            if (key < best) best = key;
        }
    }
    return motion_of_search_key<BlockMotion>(best);
}

}  // namespace xme::cpu
