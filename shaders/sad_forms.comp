// Peak rates of candidate SAD formulations (docs/vulkan-notes.md, "The SAD formulation"), measured by
// xme_vulkan_forms; forms 3 and 8, the fast kernel's own (acc += |c - r|, the subtraction off the
// accumulator's chain), are the SAD peak of `xme bench`. 8 independent chains per invocation, so
// throughput, not latency, limits them. FORM selects the arithmetic:
//   chained, s = |s - o| + s (values settle at o, but the compiler cannot know it):
//     1 float; 2 f16vec2; 4 half f16vec2 and half float chains; 5 int; 6 i16vec2; 7 uint max - min;
//   independent, acc += |x - o| with o changing per step: 3 f16vec2; 8 float.
// The sums are written out so that nothing is dropped.
#version 450
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require

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
#endif
    sink[gl_GlobalInvocationID.x] = total;
}
