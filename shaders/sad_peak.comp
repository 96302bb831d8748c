// The peak of the "fast" variant's SAD arithmetic, for `xme bench`'s fraction of peak. GLSL has no
// packed-byte SAD instruction, so the peak is that of the form full_search.comp uses: a subtraction,
// then an addition of its absolute value (f16vec2 pairs, two pixels per instruction, with HALF_PAIRS;
// floats otherwise). Independent chains per invocation, so throughput, not latency, limits it. Each
// chain settles at `other` (|s - o| + s = o for s <= o), so values stay finite, but the compiler
// cannot know that; the sums are written out so that nothing is dropped.
#version 450
#extension GL_EXT_control_flow_attributes : require
#ifdef HALF_PAIRS
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define VALUE f16vec2
#else
#define VALUE float
#endif

layout(local_size_x = 256) in;
layout(push_constant) uniform SadPeakParams { int iterations; } params;
layout(set = 0, binding = 0, std430) buffer SadPeakResult { float sink[]; };

const int chains = 8;

void main() {
    const VALUE other = VALUE(float(gl_LocalInvocationID.x & 7u) + 200.0);
    VALUE sums[chains];
    [[unroll]] for (int c = 0; c < chains; ++c) sums[c] = VALUE(float(c));
    for (int i = 0; i < params.iterations; ++i) {
        [[unroll]] for (int c = 0; c < chains; ++c) sums[c] = abs(sums[c] - other) + sums[c];
    }
    VALUE total = VALUE(0.0);
    [[unroll]] for (int c = 0; c < chains; ++c) total += sums[c];
#ifdef HALF_PAIRS
    sink[gl_GlobalInvocationID.x] = float(total.x) + float(total.y);
#else
    sink[gl_GlobalInvocationID.x] = total;
#endif
}
