// SPEC §12-§13 after the search (predict_residual.comp, quantise.comp, reconstruct.comp): their push
// constants, the planes' layouts and the frame's figures. Needs: `figures[]`, the Figures buffer.

layout(push_constant) uniform CompensationParams {
    ivec2 frame_size;
    int blocks_x;
    int tiles_x;           // 8x8 tiles across: ceil(W / 8)
    int prediction_pitch;  // words per row of the prediction, 4 samples (bytes) per word
    int quantiser_step;    // S, 1..4096
} params;

// The tile-major planes (residual, coefficients, dequantised): sample (x, y) is element
// 64 * (tile row * tiles_x + tile column) + 8 * (y & 7) + (x & 7), as dct.comp reads its blocks; two
// int16 per word, the lower element in the low half.
int tile_element(ivec2 at) { return ((at.y >> 3) * params.tiles_x + (at.x >> 3)) * 64 + (at.y & 7) * 8 + (at.x & 7); }
int low_int16(uint word) { return int(word << 16) >> 16; }
int high_int16(uint word) { return int(word) >> 16; }
uint pack_int16(int low, int high) { return (uint(low) & 0xFFFFu) | (uint(high) << 16); }

bool inside_frame(ivec2 at) { return all(lessThan(at, params.frame_size)); }

// The figures, each a 64-bit sum held as (low, high) words: core Vulkan has no 64-bit atomics.
const int RESIDUAL_ABS_SUM = 0;
const int COEFFICIENT_ENERGY = 1;
const int ZERO_COEFFICIENTS = 2;
const int RECONSTRUCTION_SSE = 3;
const int PREDICTION_SSE = 4;   // residual^2: MC-PSNR's sum
const int ZERO_MOTION_SSE = 5;  // (current - reference)^2: zero-motion PSNR's
const int NO_FIGURE = -1;

// Adds `value` to a figure: the carry out of the low word goes to the high one. Each addition wraps
// the low word at most once, so once all are done the two words hold the exact sum.
void add_to_figure(int figure, uint value) {
    if (value == 0u) return;
    const uint before = atomicAdd(figures[2 * figure], value);
    if (before + value < before) atomicAdd(figures[2 * figure + 1], 1u);
}

// A workgroup's share of up to three figures (NO_FIGURE: unused): summed in shared memory, then one
// atomic each. Per workgroup the sums fit 32 bits (a block's |residual| <= 1024 * 255 and residual^2 <=
// 1024 * 255^2; a tile's F^2 <= 64 * 4080^2).
shared uint group_sums[3];
void clear_group_sums(uint lane) {  // then a barrier before add_group_sums
    if (lane < 3u) group_sums[lane] = 0u;
}
void add_group_sums(uint lane, ivec3 figure, uvec3 value) {
    for (int i = 0; i < 3; ++i) {
        if (value[i] != 0u) atomicAdd(group_sums[i], value[i]);
    }
    barrier();
    if (lane == 0u) {
        for (int i = 0; i < 3; ++i) {
            if (figure[i] != NO_FIGURE) add_to_figure(figure[i], group_sums[i]);
        }
    }
}
