// Peak rates of candidate SAD formulations (docs/vulkan.md, "The SAD formulation"), measured by
// xme_vulkan_forms; forms 3 and 8, the fast kernel's own (acc += |c - r|, the subtraction off the
// accumulator's chain), are the SAD peak of `xme bench`. 8 independent chains per invocation, so
// throughput, not latency, limits them. FORM selects the arithmetic:
//   chained, s = |s - o| + s (values settle at o, but the compiler cannot know it):
//     1 float; 2 f16vec2; 4 half f16vec2 and half float chains; 5 int; 6 i16vec2; 7 uint max - min;
//   independent, acc += |x - o| with o changing per step: 3 f16vec2; 8 float;
//   9 uint SWAR: 4 packed bytes per word, the bytes' min summed (below);
//   mixed, the chains split between pipes: 10 seven f16vec2 (form 3) and one SWAR; 11 six and two;
//   12 six f16vec2 and two int acc += |x - o| (32-bit integers, one pixel each).
// The sums are written out so that nothing is dropped.
#version 450
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require

// SWAR on the integer pipe (issue 13's mixed form): GLSL has no packed-byte SAD, but
// sum |a - b| = sum a + sum b - 2 sum min(a, b), and sum a, sum b are one value per block and per
// candidate, so per pixel only the bytes' min is needed. Per word of 4 pixels: d = (a | 0x80..) -
// (b & 0x7f..) subtracts the low 7 bits of each byte without a borrow between bytes; a byte's a < b is
// the borrow out of its bit 7, majority(~a, b, ~d) (one 3-input logic op, then the mask); the mask is
// spread over the byte ((lt << 1) - (lt >> 7)), the min selected (one 3-input op) and its bytes summed
// into 16-bit lanes: about 10 integer instructions per 4 pixels, b's low 7 bits hoisted (the kernel
// would keep the window so masked). Exact while a lane's sum stays below 2^16 (the peak only counts).
uint sum_of_byte_mins(uint a, uint b, uint b_low7) {
    const uint d = (a | 0x80808080u) - b_low7;
    const uint less = ((~a & b) | (~(a ^ b) & ~d)) & 0x80808080u;
    const uint mask = (less << 1u) - (less >> 7u);
    const uint low_min = (a & mask) | (b & ~mask);
    return (low_min & 0x00ff00ffu) + ((low_min >> 8u) & 0x00ff00ffu);
}

layout(local_size_x = 256) in;
layout(push_constant) uniform SadPeakParams { int iterations; } params;
layout(set = 0, binding = 0, std430) buffer SadPeakResult { float sink[]; };

const int chains = 8;

void main() {
    const uint lane = gl_LocalInvocationID.x;
    float total = 0.0;
#if FORM == 1 || FORM == 2 || FORM == 5 || FORM == 6 || FORM == 7
#if FORM == 1
#define VALUE float
#elif FORM == 2
#define VALUE f16vec2
#elif FORM == 5
#define VALUE int
#elif FORM == 6
#define VALUE i16vec2
#else
#define VALUE uint
#endif
    const VALUE other = VALUE(int(lane & 7u) + 200);
    VALUE sums[chains];
    [[unroll]] for (int c = 0; c < chains; ++c) sums[c] = VALUE(c);
    for (int i = 0; i < params.iterations; ++i) {
#if FORM == 7
        [[unroll]] for (int c = 0; c < chains; ++c) sums[c] = max(sums[c], other) - min(sums[c], other) + sums[c];
#else
        [[unroll]] for (int c = 0; c < chains; ++c) sums[c] = abs(sums[c] - other) + sums[c];
#endif
    }
    [[unroll]] for (int c = 0; c < chains; ++c) total += float(dot(vec2(sums[c]), vec2(1.0)));
#elif FORM == 3 || FORM == 8
#if FORM == 3
#define VALUE f16vec2
#else
#define VALUE float
#endif
    VALUE other = VALUE(float(lane & 7u) + 200.0);
    VALUE sums[chains], x[chains];
    [[unroll]] for (int c = 0; c < chains; ++c) { sums[c] = VALUE(0.0); x[c] = VALUE(float(c + lane % 5u)); }
    for (int i = 0; i < params.iterations; ++i) {
        [[unroll]] for (int c = 0; c < chains; ++c) sums[c] += abs(x[c] - other);
        other = other * VALUE(0.5) + VALUE(100.0);  // stays 200: changes per step for the compiler
    }
    [[unroll]] for (int c = 0; c < chains; ++c) total += float(dot(vec2(sums[c]), vec2(1.0)));
#elif FORM == 4
    const f16vec2 other = f16vec2(float(lane & 7u) + 200.0);
    const float other32 = float(lane & 7u) + 200.0;
    f16vec2 sums[chains / 2];
    float sums32[chains / 2];
    [[unroll]] for (int c = 0; c < chains / 2; ++c) { sums[c] = f16vec2(float(c)); sums32[c] = float(c); }
    for (int i = 0; i < params.iterations; ++i) {
        [[unroll]] for (int c = 0; c < chains / 2; ++c) {
            sums[c] = abs(sums[c] - other) + sums[c];
            sums32[c] = abs(sums32[c] - other32) + sums32[c];
        }
    }
    [[unroll]] for (int c = 0; c < chains / 2; ++c) total += float(sums[c].x) + float(sums[c].y) + sums32[c];
#elif FORM >= 9 && FORM <= 12
#if FORM == 9
#define HALF_CHAINS 0
#elif FORM == 10
#define HALF_CHAINS 7
#else
#define HALF_CHAINS 6
#endif
#define INTEGER_CHAINS (chains - HALF_CHAINS)
#if HALF_CHAINS > 0
    f16vec2 other = f16vec2(float(lane & 7u) + 200.0);
    f16vec2 sums[HALF_CHAINS], x[HALF_CHAINS];
    [[unroll]] for (int c = 0; c < HALF_CHAINS; ++c) { sums[c] = f16vec2(0.0); x[c] = f16vec2(float(c + lane % 5u)); }
#endif
#if FORM == 12
    int other_int = int(lane & 7u) + 200;
    int int_sums[INTEGER_CHAINS], int_x[INTEGER_CHAINS];
    [[unroll]] for (int c = 0; c < INTEGER_CHAINS; ++c) { int_sums[c] = 0; int_x[c] = c + int(lane % 5u); }
#else
    uint current = 0x5a3c96e1u ^ lane;
    uint words[INTEGER_CHAINS], words_low7[INTEGER_CHAINS], word_sums[INTEGER_CHAINS];
    [[unroll]] for (int c = 0; c < INTEGER_CHAINS; ++c) {
        words[c] = 0x9e3779b1u * uint(c + 1) + lane;
        words_low7[c] = words[c] & 0x7f7f7f7fu;
        word_sums[c] = 0u;
    }
#endif
    for (int i = 0; i < params.iterations; ++i) {
#if HALF_CHAINS > 0
        [[unroll]] for (int c = 0; c < HALF_CHAINS; ++c) sums[c] += abs(x[c] - other);
        other = other * f16vec2(0.5) + f16vec2(100.0);
#endif
#if FORM == 12
        [[unroll]] for (int c = 0; c < INTEGER_CHAINS; ++c) int_sums[c] += abs(int_x[c] - other_int);
        other_int ^= i & 7;  // changes per step for the compiler
#else
        [[unroll]] for (int c = 0; c < INTEGER_CHAINS; ++c) word_sums[c] += sum_of_byte_mins(current, words[c], words_low7[c]);
        current = (current << 1u) | (current >> 31u);
#endif
    }
#if HALF_CHAINS > 0
    [[unroll]] for (int c = 0; c < HALF_CHAINS; ++c) total += float(sums[c].x) + float(sums[c].y);
#endif
#if FORM == 12
    [[unroll]] for (int c = 0; c < INTEGER_CHAINS; ++c) total += float(int_sums[c]);
#else
    [[unroll]] for (int c = 0; c < INTEGER_CHAINS; ++c) total += float(word_sums[c]);
#endif
#endif
    sink[gl_GlobalInvocationID.x] = total;
}
