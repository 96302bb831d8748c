// SPEC §9: the 41 partitions of a 16x16 macroblock and the modes a macroblock is coded in: the table
// and the mode rules every backend shares (the reference's search is in xme/partitions.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace xme {

inline constexpr int macroblock_size = 16;
inline constexpr int partition_count = 41;

struct Partition {
    int index = 0;
    int x = 0;  // relative to the macroblock's top-left pixel
    int y = 0;
    int width = 0;
    int height = 0;
};

// SPEC §9's fixed order. The 8x8 quadrants are (0,0), (8,0), (0,8), (8,8); each group below walks them
// in that order.
inline constexpr std::array<Partition, partition_count> macroblock_partitions = {{
    {0, 0, 0, 16, 16},
    // 16x8, 8x16
    {1, 0, 0, 16, 8},
    {2, 0, 8, 16, 8},
    {3, 0, 0, 8, 16},
    {4, 8, 0, 8, 16},
    // 8x8
    {5, 0, 0, 8, 8},
    {6, 8, 0, 8, 8},
    {7, 0, 8, 8, 8},
    {8, 8, 8, 8, 8},
    // 8x4: each quadrant's top then bottom half
    {9, 0, 0, 8, 4},
    {10, 0, 4, 8, 4},
    {11, 8, 0, 8, 4},
    {12, 8, 4, 8, 4},
    {13, 0, 8, 8, 4},
    {14, 0, 12, 8, 4},
    {15, 8, 8, 8, 4},
    {16, 8, 12, 8, 4},
    // 4x8: each quadrant's left then right half
    {17, 0, 0, 4, 8},
    {18, 4, 0, 4, 8},
    {19, 8, 0, 4, 8},
    {20, 12, 0, 4, 8},
    {21, 0, 8, 4, 8},
    {22, 4, 8, 4, 8},
    {23, 8, 8, 4, 8},
    {24, 12, 8, 4, 8},
    // 4x4: each quadrant's four in raster order
    {25, 0, 0, 4, 4},
    {26, 4, 0, 4, 4},
    {27, 0, 4, 4, 4},
    {28, 4, 4, 4, 4},
    {29, 8, 0, 4, 4},
    {30, 12, 0, 4, 4},
    {31, 8, 4, 4, 4},
    {32, 12, 4, 4, 4},
    {33, 0, 8, 4, 4},
    {34, 4, 8, 4, 4},
    {35, 0, 12, 4, 4},
    {36, 4, 12, 4, 4},
    {37, 8, 8, 4, 4},
    {38, 12, 8, 4, 4},
    {39, 8, 12, 4, 4},
    {40, 12, 12, 4, 4},
}};

// In SPEC §9's tie order: an earlier mode wins a tie.
enum class MacroblockMode : std::uint8_t { p16x16, p16x8, p8x16, p8x8 };
enum class SubMode : std::uint8_t { p8x8, p8x4, p4x8, p4x4 };

[[nodiscard]] const char* to_string(MacroblockMode mode);
[[nodiscard]] const char* to_string(SubMode mode);

// The partition indices a mode covers the macroblock with: {0}; {1, 2}; {3, 4}; or, for 8x8, each
// quadrant's sub-mode in quadrant order (8x8: 5 + q; 8x4: 9 + 2q, 10 + 2q; 4x8: 17 + 2q, 18 + 2q;
// 4x4: 25 + 4q .. 28 + 4q).
[[nodiscard]] std::vector<int> partitions_of_mode(MacroblockMode mode,
                                                  const std::array<SubMode, 4>& sub_modes);

// The same indices without allocating, for the per-frame loops over every macroblock (metrics,
// prediction: a vector per macroblock made a 1080p frame's metrics take ~1 ms).
struct ModePartitions {
    std::array<int, 16> indices{};
    int count = 0;

    [[nodiscard]] const int* begin() const { return indices.data(); }
    [[nodiscard]] const int* end() const { return indices.data() + count; }
};
[[nodiscard]] ModePartitions mode_partitions(MacroblockMode mode, const std::array<SubMode, 4>& sub_modes);

struct ModeDecision {
    MacroblockMode mode = MacroblockMode::p16x16;
    // The cheapest sub-mode of each quadrant, always filled in; they cover the macroblock only when
    // mode is 8x8.
    std::array<SubMode, 4> sub_modes{};
    std::uint64_t cost = 0;  // the chosen mode's J

    friend bool operator==(const ModeDecision&, const ModeDecision&) = default;
};

}  // namespace xme
