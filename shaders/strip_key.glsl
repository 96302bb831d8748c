// full_search.comp's two-word keys, written by it and read back by hpel_refine.comp (or by itself when it
// writes the block results): SPEC §3's key (search_common.glsl's pack_key) or, with a rate term, SPEC §8's
// packed as strip_rate_key. Needs search_common.glsl and rate_key.glsl included first.

// Half the strip kernel's rate key: the highest window offset a 9-bit field holds (range <= this).
const int RATE_KEY_OFFSET = 255;

// SPEC §8's key (J, |4d - p|, d.y, d.x) of integer vector d (pel; mv = 4d, so mv's order is d's) packed
// in two words, compared as pack_key's: high = J, low = (|4d - p| - floor) << 18 | (d.y + 255) << 9 |
// (d.x + 255). J takes the whole high word: with block 32, lambda 65535 and p anywhere in int16,
// |4d - p| <= 4 * 255 + 32768 per component, se(v) <= 33 bits, so J <= 32*32*255 + 65535 * 66 =
// 4,586,430 < 2^23. `floor` = max(0, |p.x| - 4R) + max(0, |p.y| - 4R) is the least |4d - p| in the
// window, the same for every candidate of the block, so subtracting it keeps the order, and what is
// left is at most 8R per component: 16 * 255 < 2^12 fits the 12 bits above the offsets whatever p is.
uvec2 strip_rate_key(uint sad, ivec2 d, ivec2 p, uint distance_floor, uint lambda) {
    const ivec2 e = 4 * d - p;
    const uint cost = sad + lambda * (se_bits(e.x) + se_bits(e.y));
    const uint distance = uint(abs(e.x) + abs(e.y)) - distance_floor;
    return uvec2((distance << 18) | (uint(d.y + RATE_KEY_OFFSET) << 9) | uint(d.x + RATE_KEY_OFFSET), cost);
}

// The integer vector and the cost (SAD, or J with the rate key) of such a key.
ivec2 strip_key_vector(uvec2 key, bool rate_key) {
    if (rate_key) return ivec2(int(key.x & 0x1FFu), int((key.x >> 9) & 0x1FFu)) - RATE_KEY_OFFSET;
    return ivec2(key_half_x(key), key_half_y(key)) / 2;
}
uint strip_key_cost(uvec2 key, bool rate_key) { return rate_key ? key.y : key_cost(key); }

// full_search.comp's one-word key (ONE_WORD_RANK_BITS = r > 0): SAD << r | the candidate's rank in SPEC
// §3's order of ties (|d.x| + |d.y|, then d.y, then d.x), so that one unsigned min compares what
// key_less compares in two words. Given m = |d.x| + |d.y| and d.y, d.x is -(m - |d.y|) or m - |d.y|:
// (m, d.y, d.x > 0) names the candidate, and numbered in that order it keeps §3's order. The rank is
// below 8R(R + 1) + 2; full_search.cpp chooses r so that the largest SAD and rank fit in 32 bits.
uint candidate_rank(ivec2 d, int range) {
    return uint(((abs(d.x) + abs(d.y)) * (2 * range + 1) + d.y + range) * 2 + (d.x > 0 ? 1 : 0));
}

// The two-word key (pack_key's) of a one-word key; KEY_NONE for none.
uvec2 expand_one_word_key(uint word, int rank_bits, int range) {
    if (word == 0xFFFFFFFFu) return KEY_NONE;
    const int rank = int(word & ((1u << rank_bits) - 1u));
    const int row_and_sign = rank % (2 * (2 * range + 1));
    const int d_y = row_and_sign / 2 - range;
    const int d_x_length = rank / (2 * (2 * range + 1)) - abs(d_y);
    const int d_x = (row_and_sign & 1) != 0 ? d_x_length : -d_x_length;
    return pack_key(word >> rank_bits, 2 * d_x, 2 * d_y);
}
