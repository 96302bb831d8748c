// What one motion search computes (SPEC §1-§4), independent of the device that computes it.
#pragma once

#include <string>
#include <string_view>

namespace xme {

enum class Algorithm {
    full_search,       // "fs": integer exhaustive search (SPEC §3)
    full_search_hpel,  // "fs+hpel": full search, then bilinear half-pel refinement (SPEC §4)
};

enum class BorderMode {
    pad,       // every candidate valid (unrestricted vectors)
    restrict,  // candidate block must lie inside the padded frame
};

// The largest range: keeps quarter-pel vectors in int16 and the packed search key in 64 bits.
inline constexpr int max_search_range = 4095;
inline constexpr int max_frame_dimension = 16384;

struct SearchParams {
    int block_size = 16;  // 4, 8, 16 or 32
    int range = 16;       // candidates -range..range in x and y
    BorderMode border = BorderMode::pad;
    Algorithm algorithm = Algorithm::full_search;

    // Throws Error(invalid_argument) naming the field and the allowed values.
    void validate() const;
};

// Parsers accept exactly the names to_string prints and throw Error(invalid_argument) otherwise,
// listing the allowed values.
[[nodiscard]] Algorithm parse_algorithm(std::string_view name);
[[nodiscard]] BorderMode parse_border_mode(std::string_view name);
[[nodiscard]] std::string_view to_string(Algorithm algorithm);
[[nodiscard]] std::string_view to_string(BorderMode border);

// Blocks per row and column for a frame (SPEC §1: blocks tile the frame from (0,0), partial edge
// blocks included).
[[nodiscard]] constexpr int blocks_across(int width, int block_size) {
    return (width + block_size - 1) / block_size;
}

}  // namespace xme
