// SPEC §8's key (J, |mv - p|, mv.y, mv.x), J = D + weight * R(mv - p), for every shader with a rate
// term: rate_search.comp and its walks compare it as a uvec4; full_search.comp packs it into its
// two-word key (strip_rate_key there) and hpel_refine.comp refines from that.

const uint BIAS = 1u << 20;  // makes the vector components of a key unsigned; |component| < 2^17

// SPEC §8's se(v) length: k = 2v - 1 for v > 0, -2v otherwise; 2 floor(log2(k + 1)) + 1.
uint se_bits(int v) {
    const uint k = v > 0 ? uint(2 * v - 1) : uint(-2 * v);
    return 2u * uint(findMSB(k + 1u)) + 1u;
}

// §8's key of quarter-pel vector mv with distortion d, rate weight `weight` per bit.
uvec4 candidate_key(uint distortion, uint weight, ivec2 mv, ivec2 p) {
    const ivec2 d = mv - p;
    const uint cost = distortion + weight * (se_bits(d.x) + se_bits(d.y));
    return uvec4(cost, uint(abs(d.x) + abs(d.y)), uint(mv.y) + BIAS, uint(mv.x) + BIAS);
}

bool key_less4(uvec4 a, uvec4 b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    if (a.z != b.z) return a.z < b.z;
    return a.w < b.w;
}

ivec2 key_vector(uvec4 key) { return ivec2(int(key.w - BIAS), int(key.z - BIAS)); }
