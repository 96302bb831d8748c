// SPEC §10's Hadamard cost of one 4x4 difference block, for qpel_stage.glsl and partition_qpel.glsl.

const int HADAMARD[16] = int[16](1, 1, 1, 1, 1, 1, -1, -1, 1, -1, -1, 1, 1, -1, 1, -1);

// satd4 of engine/src/reference/satd.cpp: (sum |H D H^T|) >> 1, as the matrix products.
uint satd4(int d[16]) {
    int hd[16];
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            int sum = 0;
            for (int k = 0; k < 4; ++k) sum += HADAMARD[r * 4 + k] * d[k * 4 + c];
            hd[r * 4 + c] = sum;
        }
    }
    uint total = 0u;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            int coefficient = 0;
            for (int k = 0; k < 4; ++k) coefficient += hd[r * 4 + k] * HADAMARD[c * 4 + k];
            total += uint(abs(coefficient));
        }
    }
    return total >> 1;
}
