// SPEC §13's 8x8 transforms, in place on a buffer of blocks (64 int16 each, row-major, so one row is
// one uvec4). Ported statement by statement from engine/src/reference/dct_matrix.cpp and
// dct_loeffler.cpp, whose comments define the arithmetic; bit-identity with them rests on:
// - `precise` on every float local, so that every addition and multiplication that feeds one carries
//   SPIR-V's NoContraction (no fused multiply-add, no reassociation): tests/test_vulkan.cpp checks
//   that every OpFAdd, OpFSub and OpFMul of the compiled shader is so decorated;
// - the reference's order and grouping of operations, and its float constants digit for digit;
// - rounding halves away from zero without GLSL's round() (its halves go either way) and without
//   floor(v + 0.5) (which turns 0.49999997 into 1): the fraction v - trunc(v) is exact.
// Eight invocations per block, as backends/cuda/dct_kernels.cu: invocation `lane` transforms row
// `lane` in pass 1 and column `lane` in pass 2, through a shared tile.
#version 450
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x = 64) in;
layout(constant_id = 0) const int LOEFFLER = 0;  // 0: variant matrix, 1: variant loeffler
layout(constant_id = 1) const int INVERSE = 0;   // 0: forward, 1: inverse

layout(set = 0, binding = 0, std430) buffer Blocks { uvec4 rows[]; };

layout(push_constant) uniform DctParams {
    uint block_count;  // blocks in the buffer
    uint first_block;  // of this dispatch: a plane with more blocks than one dispatch's workgroups
} params;

const uint BLOCKS_PER_GROUP = 8;
shared float tiles[BLOCKS_PER_GROUP][8][9];  // [block][row][column], padded against bank conflicts

// ---- Variant matrix: dct_matrix.cpp's basis S[u][x] = sqrt(2) cos((2x + 1) u pi / 16), S[0][x] = 1.
const float SQRT2_COS[9] = float[9](1.41421354, 1.38703990, 1.30656302, 1.17587554, 1.0, 0.785694957,
                                    0.541196108, 0.27589938, 0.0);

float basis(int u, int x) {
    if (u == 0) return 1.0;
    const int m = ((2 * x + 1) * u) % 32;
    if (m <= 8) return SQRT2_COS[m];
    if (m <= 16) return -SQRT2_COS[16 - m];
    if (m <= 24) return -SQRT2_COS[m - 16];
    return SQRT2_COS[32 - m];
}

// Forward: out[u] = sum over x ascending of S[u][x] * in[x]; inverse: out[x] = sum over u of
// S[u][x] * in[u]. Each from +0.0, one rounded product then one rounded sum per term.
void matrix_1d(const float values[8], out float result[8]) {
    [[unroll]] for (int o = 0; o < 8; ++o) {
        precise float acc = 0.0;
        [[unroll]] for (int i = 0; i < 8; ++i) {
            precise float product = (INVERSE == 0 ? basis(o, i) : basis(i, o)) * values[i];
            acc = acc + product;
        }
        result[o] = acc;
    }
}

// ---- Variant loeffler: dct_loeffler.cpp's constants (ck = cos(k pi / 16), sk = sin(k pi / 16)).
const float SQRT2 = 1.41421354;
const float SQRT2_C6 = 0.541196108;
const float SQRT2_C2_MINUS_C6 = 0.765366852;
const float SQRT2_C2_PLUS_C6 = 1.84775901;
const float C3 = 0.831469595;
const float S3_MINUS_C3 = -0.27589938;
const float C3_PLUS_S3 = 1.3870399;
const float C1 = 0.980785251;
const float S1_MINUS_C1 = -0.785694957;
const float C1_PLUS_S1 = 1.17587554;

void loeffler_forward_1d(const float x[8], out float y[8]) {
    precise float a0 = x[0] + x[7];
    precise float a7 = x[0] - x[7];
    precise float a1 = x[1] + x[6];
    precise float a6 = x[1] - x[6];
    precise float a2 = x[2] + x[5];
    precise float a5 = x[2] - x[5];
    precise float a3 = x[3] + x[4];
    precise float a4 = x[3] - x[4];
    precise float b0 = a0 + a3;
    precise float b3 = a0 - a3;
    precise float b1 = a1 + a2;
    precise float b2 = a1 - a2;
    precise float y0 = b0 + b1;
    precise float y4 = b0 - b1;
    precise float even = SQRT2_C6 * (b2 + b3);
    precise float y2 = even + SQRT2_C2_MINUS_C6 * b3;
    precise float y6 = even - SQRT2_C2_PLUS_C6 * b2;
    precise float odd3 = C3 * (a4 + a7);
    precise float u4 = odd3 + S3_MINUS_C3 * a7;
    precise float u7 = odd3 - C3_PLUS_S3 * a4;
    precise float odd1 = C1 * (a5 + a6);
    precise float u5 = odd1 + S1_MINUS_C1 * a6;
    precise float u6 = odd1 - C1_PLUS_S1 * a5;
    precise float v4 = u4 + u6;
    precise float v6 = u4 - u6;
    precise float v7 = u7 + u5;
    precise float v5 = u7 - u5;
    precise float y1 = v7 + v4;
    precise float y7 = v7 - v4;
    precise float y3 = SQRT2 * v5;
    precise float y5 = SQRT2 * v6;
    y = float[8](y0, y1, y2, y3, y4, y5, y6, y7);
}

void loeffler_inverse_1d(const float y[8], out float x[8]) {
    precise float v7 = y[1] + y[7];
    precise float v4 = y[1] - y[7];
    precise float v5 = SQRT2 * y[3];
    precise float v6 = SQRT2 * y[5];
    precise float u4 = v4 + v6;
    precise float u6 = v4 - v6;
    precise float u7 = v7 + v5;
    precise float u5 = v7 - v5;
    precise float odd3 = C3 * (u4 + u7);
    precise float a4 = odd3 - C3_PLUS_S3 * u7;
    precise float a7 = odd3 + S3_MINUS_C3 * u4;
    precise float odd1 = C1 * (u5 + u6);
    precise float a5 = odd1 - C1_PLUS_S1 * u6;
    precise float a6 = odd1 + S1_MINUS_C1 * u5;
    precise float b0 = y[0] + y[4];
    precise float b1 = y[0] - y[4];
    precise float even = SQRT2_C6 * (y[2] + y[6]);
    precise float b2 = even - SQRT2_C2_PLUS_C6 * y[6];
    precise float b3 = even + SQRT2_C2_MINUS_C6 * y[2];
    precise float a0 = b0 + b3;
    precise float a3 = b0 - b3;
    precise float a1 = b1 + b2;
    precise float a2 = b1 - b2;
    precise float x0 = a0 + a7;
    precise float x7 = a0 - a7;
    precise float x1 = a1 + a6;
    precise float x6 = a1 - a6;
    precise float x2 = a2 + a5;
    precise float x5 = a2 - a5;
    precise float x3 = a3 + a4;
    precise float x4 = a3 - a4;
    x = float[8](x0, x1, x2, x3, x4, x5, x6, x7);
}

void one_d(const float values[8], out float result[8]) {
    if (LOEFFLER == 0) {
        matrix_1d(values, result);
    } else if (INVERSE == 0) {
        loeffler_forward_1d(values, result);
    } else {
        loeffler_inverse_1d(values, result);
    }
}

// 0.125 times the two passes' result (exact), rounded halves away from zero; the inverse's clipped to
// -256..255.
float epilogue(float value) {
    precise float scaled = 0.125 * value;
    precise float whole = trunc(scaled);
    precise float fraction = scaled - whole;  // exact
    precise float away = whole + sign(scaled);
    precise float rounded = abs(fraction) >= 0.5 ? away : whole;
    return INVERSE == 0 ? rounded : clamp(rounded, -256.0, 255.0);
}

int low_half(uint word) { return int(word << 16) >> 16; }
int high_half(uint word) { return int(word) >> 16; }
uint pack_halves(float low, float high) { return (uint(int(low)) & 0xFFFFu) | (uint(int(high)) << 16); }

void main() {
    const uint lane = gl_LocalInvocationID.x % 8;
    const uint local_block = gl_LocalInvocationID.x / 8;
    const uint block = params.first_block + gl_WorkGroupID.x * BLOCKS_PER_GROUP + local_block;
    // Lanes past the last block compute on zeros and store nothing: every lane reaches the barriers.
    const bool in_range = block < params.block_count;

    float values[8];
    float transformed[8];
    const uvec4 row = in_range ? rows[8 * block + lane] : uvec4(0);
    for (int k = 0; k < 4; ++k) {
        values[2 * k] = float(low_half(row[k]));
        values[2 * k + 1] = float(high_half(row[k]));
    }
    // Pass 1: row `lane`.
    one_d(values, transformed);
    [[unroll]] for (int k = 0; k < 8; ++k) tiles[local_block][lane][k] = transformed[k];
    barrier();
    // Pass 2: column `lane`; each invocation overwrites only the column it read itself.
    [[unroll]] for (int k = 0; k < 8; ++k) values[k] = tiles[local_block][k][lane];
    one_d(values, transformed);
    [[unroll]] for (int k = 0; k < 8; ++k) tiles[local_block][k][lane] = epilogue(transformed[k]);
    barrier();
    // Row `lane` of the result.
    if (!in_range) return;
    uvec4 result;
    for (int k = 0; k < 4; ++k) result[k] = pack_halves(tiles[local_block][lane][2 * k], tiles[local_block][lane][2 * k + 1]);
    rows[8 * block + lane] = result;
}
