#include "ieee1180.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

namespace xme::test {
namespace {

// Limits of IEEE Std 1180-1990 (SPEC §13).
constexpr int peak_limit = 1;
constexpr double position_mse_limit = 0.06;
constexpr double overall_mse_limit = 0.02;
constexpr double position_mean_limit = 0.015;
constexpr double overall_mean_limit = 0.0015;

// The oracle's value rounded to nearest, halves away from zero (SPEC §13). With integer samples F(0,0) is
// sum / 8, a half exactly once in 8 blocks (F(4,0), F(0,4), F(4,4) likewise), but its double evaluation
// lands a few ulps either side of the half; a value that close to a half is taken as the half it is.
int round_to_int(double v) {
    const double magnitude = std::abs(v);
    const double whole = std::floor(magnitude);
    const double rounded = std::abs(magnitude - whole - 0.5) < 1e-9 ? whole + 1 : std::round(magnitude);
    return static_cast<int>(v < 0 ? -rounded : rounded);
}

ExactBlock8x8 to_exact(const Block8x8& block) {
    ExactBlock8x8 exact{};
    for (std::size_t i = 0; i < 64; ++i) exact[i] = block[i];
    return exact;
}

Block8x8 random_block(Ieee1180Random& random, Ieee1180Range range) {
    Block8x8 block{};
    for (std::int16_t& sample : block) {  // rows then columns, as the standard fills it
        const int value = random.next(range.low, range.high);
        sample = static_cast<std::int16_t>(range.sign_flipped ? -value : value);
    }
    return block;
}

class ErrorStatistics {
public:
    void add(const Block8x8& actual, const Block8x8& expected) {
        for (std::size_t i = 0; i < 64; ++i) {
            const int e = actual[i] - expected[i];
            peak_ = std::max(peak_, std::abs(e));
            sum_[i] += e;
            squared_[i] += static_cast<long long>(e) * e;
        }
        ++blocks_;
    }

    [[nodiscard]] Ieee1180Figures figures(bool zero_in_zero_out) const {
        Ieee1180Figures f;
        f.peak_error = peak_;
        long long sum = 0;
        long long squared = 0;
        for (std::size_t i = 0; i < 64; ++i) {
            f.worst_position_mse = std::max(f.worst_position_mse, static_cast<double>(squared_[i]) / blocks_);
            f.worst_position_mean =
                std::max(f.worst_position_mean, std::abs(static_cast<double>(sum_[i]) / blocks_));
            sum += sum_[i];
            squared += squared_[i];
        }
        f.overall_mse = static_cast<double>(squared) / (64.0 * blocks_);
        f.overall_mean = std::abs(static_cast<double>(sum)) / (64.0 * blocks_);
        f.zero_in_zero_out = zero_in_zero_out;
        return f;
    }

private:
    int peak_ = 0;
    std::array<long long, 64> sum_{};
    std::array<long long, 64> squared_{};
    int blocks_ = 0;
};

bool zero_in_zero_out(const BatchTransform& transform) {
    std::vector<Block8x8> zero(1);
    transform(zero);
    return std::all_of(zero[0].begin(), zero[0].end(), [](std::int16_t v) { return v == 0; });
}

BatchTransform one_block_at_a_time(const BlockTransform& transform) {
    return [&transform](std::span<Block8x8> blocks) {
        for (Block8x8& block : blocks) block = transform(block);
    };
}

}  // namespace

int Ieee1180Random::next(int low, int high) {
    // The standard's 32-bit long wraps modulo 2^32; the masked bits depend on nothing above bit 30, so
    // uint32_t arithmetic gives the same sequence on any machine.
    state_ = state_ * 1103515245u + 12345u;
    const double unit = static_cast<double>(state_ & 0x7ffffffeu) / static_cast<double>(0x7fffffff);
    return static_cast<int>(unit * (low + high + 1)) - low;  // truncation of a non-negative value: floor
}

std::vector<Ieee1180Range> ieee1180_ranges() {
    std::vector<Ieee1180Range> ranges;
    for (const bool flipped : {false, true}) {
        for (const auto& [low, high] : {std::pair{256, 255}, std::pair{5, 5}, std::pair{300, 300}}) {
            ranges.push_back({low, high, flipped});
        }
    }
    return ranges;
}

bool Ieee1180Figures::within_limits() const {
    return zero_in_zero_out && peak_error <= peak_limit && worst_position_mse <= position_mse_limit &&
           overall_mse <= overall_mse_limit && worst_position_mean <= position_mean_limit &&
           overall_mean <= overall_mean_limit;
}

std::string Ieee1180Figures::describe() const {
    char line[320];
    std::snprintf(line, sizeof line,
                  "peak %d (<= %d), position mse %.6f (<= %.2f), overall mse %.6f (<= %.2f), position mean "
                  "%.6f (<= %.3f), overall mean %.6f (<= %.4f), zero in zero out %s",
                  peak_error, peak_limit, worst_position_mse, position_mse_limit, overall_mse,
                  overall_mse_limit, worst_position_mean, position_mean_limit, overall_mean,
                  overall_mean_limit, zero_in_zero_out ? "yes" : "NO");
    return line;
}

std::string describe(Ieee1180Range range) {
    return "(L, H) = (" + std::to_string(range.low) + ", " + std::to_string(range.high) + ")" +
           (range.sign_flipped ? " sign-flipped" : "");
}

Ieee1180Figures ieee1180_inverse_batch(const BatchTransform& inverse, Ieee1180Range range) {
    Ieee1180Random random;  // the standard seeds each run with 1
    std::vector<Block8x8> coefficients(ieee1180_blocks);
    std::vector<Block8x8> expected(ieee1180_blocks);
    for (std::size_t b = 0; b < coefficients.size(); ++b) {
        const ExactBlock8x8 exact_coefficients =
            reference::forward_dct_exact(to_exact(random_block(random, range)));
        for (std::size_t i = 0; i < 64; ++i) {
            coefficients[b][i] =
                static_cast<std::int16_t>(std::clamp(round_to_int(exact_coefficients[i]), -2048, 2047));
        }
        const ExactBlock8x8 exact_samples = reference::inverse_dct_exact(to_exact(coefficients[b]));
        for (std::size_t i = 0; i < 64; ++i) {
            expected[b][i] = static_cast<std::int16_t>(
                std::clamp(round_to_int(exact_samples[i]), idct_output_min, idct_output_max));
        }
    }
    inverse(coefficients);
    ErrorStatistics statistics;
    for (std::size_t b = 0; b < coefficients.size(); ++b) statistics.add(coefficients[b], expected[b]);
    return statistics.figures(zero_in_zero_out(inverse));
}

Ieee1180Figures ieee1180_forward_batch(const BatchTransform& forward, Ieee1180Range range) {
    Ieee1180Random random;
    std::vector<Block8x8> samples(ieee1180_blocks);
    std::vector<Block8x8> expected(ieee1180_blocks);
    for (std::size_t b = 0; b < samples.size(); ++b) {
        samples[b] = random_block(random, range);
        const ExactBlock8x8 exact = reference::forward_dct_exact(to_exact(samples[b]));
        for (std::size_t i = 0; i < 64; ++i)
            expected[b][i] = static_cast<std::int16_t>(round_to_int(exact[i]));
    }
    forward(samples);
    ErrorStatistics statistics;
    for (std::size_t b = 0; b < samples.size(); ++b) statistics.add(samples[b], expected[b]);
    return statistics.figures(zero_in_zero_out(forward));
}

Ieee1180Figures ieee1180_inverse(const BlockTransform& inverse, Ieee1180Range range) {
    return ieee1180_inverse_batch(one_block_at_a_time(inverse), range);
}

Ieee1180Figures ieee1180_forward(const BlockTransform& forward, Ieee1180Range range) {
    return ieee1180_forward_batch(one_block_at_a_time(forward), range);
}

}  // namespace xme::test
