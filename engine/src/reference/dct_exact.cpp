// SPEC §13's accuracy oracle: the orthonormal 2-D DCT-II formula and its inverse, summed literally in
// double precision (no fast algorithm, no rounding): what IEEE Std 1180-1990 calls the reference
// transforms.
#include <array>
#include <cmath>
#include <numbers>

#include "xme/dct.hpp"

namespace xme::reference {
namespace {

// cosine[k][n] = C(k) / 2 * cos((2n + 1) k pi / 16), C(0) = 1/sqrt(2), C(k) = 1: so that
// F(u, v) = 1/4 C(u) C(v) sum ... is sum_x sum_y cosine[u][x] cosine[v][y] f(x, y).
std::array<std::array<double, 8>, 8> make_cosine() {
    std::array<std::array<double, 8>, 8> cosine{};
    for (int k = 0; k < 8; ++k) {
        const double c = k == 0 ? 1.0 / std::numbers::sqrt2 : 1.0;
        for (int n = 0; n < 8; ++n) {
            cosine[static_cast<std::size_t>(k)][static_cast<std::size_t>(n)] =
                c / 2.0 * std::cos((2.0 * n + 1.0) * k * std::numbers::pi / 16.0);
        }
    }
    return cosine;
}

const std::array<std::array<double, 8>, 8>& cosine() {
    static const std::array<std::array<double, 8>, 8> table = make_cosine();
    return table;
}

}  // namespace

ExactBlock8x8 forward_dct_exact(const ExactBlock8x8& samples) {
    const auto& c = cosine();
    ExactBlock8x8 coefficients{};
    for (std::size_t v = 0; v < 8; ++v) {
        for (std::size_t u = 0; u < 8; ++u) {
            double sum = 0.0;
            for (std::size_t y = 0; y < 8; ++y) {
                for (std::size_t x = 0; x < 8; ++x) sum += c[u][x] * c[v][y] * samples[8 * y + x];
            }
            coefficients[8 * v + u] = sum;
        }
    }
    return coefficients;
}

ExactBlock8x8 inverse_dct_exact(const ExactBlock8x8& coefficients) {
    const auto& c = cosine();
    ExactBlock8x8 samples{};
    for (std::size_t y = 0; y < 8; ++y) {
        for (std::size_t x = 0; x < 8; ++x) {
            double sum = 0.0;
            for (std::size_t v = 0; v < 8; ++v) {
                for (std::size_t u = 0; u < 8; ++u) sum += c[u][x] * c[v][y] * coefficients[8 * v + u];
            }
            samples[8 * y + x] = sum;
        }
    }
    return samples;
}

}  // namespace xme::reference
