// Shared by the search shaders: SPEC §1 edge replication, §2/§4 validity and the §3 search key.

// The key of engine/include/xme/search_key.hpp, (cost << 42) | (|x|+|y| << 28) | (y+8191 << 14) | (x+8191)
// with x, y in half-pel units, held as uvec2(low word, high word): compared as two 32-bit words, so it
// needs no 64-bit integer support (GPUs compare 64-bit integers as two 32-bit words anyway).
const int KEY_COORDINATE_OFFSET = 8191;  // xme::key_coordinate_offset
const uvec2 KEY_NONE = uvec2(0xFFFFFFFFu);

uvec2 pack_key(uint cost, int half_x, int half_y) {
    const uint manhattan = uint(abs(half_x) + abs(half_y));
    const uint low = (manhattan << 28) | (uint(half_y + KEY_COORDINATE_OFFSET) << 14) | uint(half_x + KEY_COORDINATE_OFFSET);
    return uvec2(low, (cost << 10) | (manhattan >> 4));
}

bool key_less(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }
uvec2 key_min(uvec2 a, uvec2 b) { return key_less(b, a) ? b : a; }
uint key_cost(uvec2 key) { return key.y >> 10; }
int key_half_x(uvec2 key) { return int(key.x & 0x3FFFu) - KEY_COORDINATE_OFFSET; }
int key_half_y(uvec2 key) { return int((key.x >> 14) & 0x3FFFu) - KEY_COORDINATE_OFFSET; }

// A block result as the host reads it: quarter-pel vector as two int16 in one word, then the cost.
uvec2 block_result(int quarter_x, int quarter_y, uint cost) {
    return uvec2((uint(quarter_x) & 0xFFFFu) | (uint(quarter_y) << 16), cost);
}
// Its vector, sign-extended.
ivec2 unpack_vector(uint word) { return ivec2(int(word << 16) >> 16, int(word) >> 16); }

// SPEC §1: the sample at (x, y) with edge replication, as an integer 0..255 (an R8_UNORM texel
// fetch returns value/255; rounding recovers the value exactly).
float pel(sampler2D frame, ivec2 position, ivec2 frame_size) {
    return round(texelFetch(frame, clamp(position, ivec2(0), frame_size - 1), 0).r * 255.0);
}

// SPEC §2/§4: whether the block whose top-left corner is at `corner` lies inside the padded frame.
bool inside_padded_frame(ivec2 corner, ivec2 padded_size, int block) {
    return all(greaterThanEqual(corner, ivec2(0))) && all(lessThanEqual(corner, padded_size - block));
}

// SPEC §4: a quarter-pel vector on the half-pel grid is valid in restrict mode when every integer
// sample it interpolates lies inside the padded frame: floor and ceil of the position.
bool halfpel_valid(ivec2 block_origin, ivec2 quarter, ivec2 padded_size, int block) {
    const ivec2 low = block_origin + (quarter >> 2);  // arithmetic shift: floor(quarter / 4)
    const ivec2 high = low + ivec2(notEqual(quarter & 3, ivec2(0)));
    return inside_padded_frame(low, padded_size, block) && inside_padded_frame(high, padded_size, block);
}

// SPEC §11's mean pyramid (ehds), as mean_pyramid.comp stores it: one uint per sample, level 1
// (ceil(W/2) x ceil(H/2)) then level 2 (ceil(W/4) x ceil(H/4)), rows in order.
ivec2 pyramid_level_size(ivec2 frame_size, int level) { return (frame_size + (1 << level) - 1) >> level; }

int pyramid_level_offset(ivec2 frame_size, int level) {
    const ivec2 level1 = pyramid_level_size(frame_size, 1);
    return level == 1 ? 0 : level1.x * level1.y;
}
