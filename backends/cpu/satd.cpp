// SPEC §10's SATD in plain C++: the 4x4 Hadamard transform as butterflies (rows, then columns); it stops
// after a row of tiles once the sum exceeds the caller's limit.
#include <cstdlib>

#include "cpu_kernels.hpp"

namespace xme::cpu {

std::uint32_t plain_satd(const std::uint8_t* current, std::ptrdiff_t current_stride, const std::uint8_t* p,
                         std::ptrdiff_t p_stride, const std::uint8_t* q, std::ptrdiff_t q_stride, int width,
                         int height, std::uint32_t limit) {
    std::uint32_t total = 0;
    for (int ty = 0; ty < height && total <= limit; ty += 4) {
        for (int tx = 0; tx < width; tx += 4) {
            int t[4][4];
            for (int j = 0; j < 4; ++j) {
                const std::uint8_t* cur = current + (ty + j) * current_stride + tx;
                const std::uint8_t* a = p + (ty + j) * p_stride + tx;
                const std::uint8_t* b = q + (ty + j) * q_stride + tx;
                int pred[4];
                for (int i = 0; i < 4; ++i) pred[i] = (a[i] + b[i] + 1) >> 1;
                const int d0 = cur[0] - pred[0];
                const int d1 = cur[1] - pred[1];
                const int d2 = cur[2] - pred[2];
                const int d3 = cur[3] - pred[3];
                // Columns of H^T: the order of the outputs does not matter to the sum of magnitudes.
                const int s01 = d0 + d1;
                const int m01 = d0 - d1;
                const int s23 = d2 + d3;
                const int m23 = d2 - d3;
                t[j][0] = s01 + s23;
                t[j][1] = s01 - s23;
                t[j][2] = m01 + m23;
                t[j][3] = m01 - m23;
            }
            std::uint32_t sum = 0;
            for (int i = 0; i < 4; ++i) {
                const int s01 = t[0][i] + t[1][i];
                const int m01 = t[0][i] - t[1][i];
                const int s23 = t[2][i] + t[3][i];
                const int m23 = t[2][i] - t[3][i];
                sum += static_cast<std::uint32_t>(std::abs(s01 + s23) + std::abs(s01 - s23) +
                                                  std::abs(m01 + m23) + std::abs(m01 - m23));
            }
            // Every coefficient of a 4x4 Hadamard transform has the parity of the sum of D, so the sum of
            // their magnitudes is even and halving it per tile or per block is the same.
            total += sum >> 1;
        }
    }
    return total;
}

}  // namespace xme::cpu
