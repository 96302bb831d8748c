// What one job computes per frame pair (SPEC §1-§11), independent of the device that computes it: a
// chain of operations, an integer search, then an optional sub-pel refinement, each with its cost.
// Later operations (partitions, compensation, transforms) are further fields, not new types.
#pragma once

#include <string>
#include <string_view>

namespace xme {

enum class BorderMode {
    pad,       // every candidate valid (unrestricted vectors)
    restrict,  // candidate block must lie inside the padded frame
};

// What the engine prepares before a stage's blocks run. Backends and the scheduler ask for these
// (xme/operations.hpp's needs_previous_field, needs_wavefront) instead of testing for particular
// searches or predictors.
enum class Need : unsigned {
    none = 0,
    mean_pyramid = 1U << 0,        // SPEC §11: 2x2 mean levels 1 and 2 of both frames
    neighbour_vectors = 1U << 1,   // this frame's left, top, top-right final vectors: §8's wavefront order
    previous_field = 1U << 2,      // the previous pair's field of the same segment (§8's temporal source)
    half_sample_planes = 1U << 3,  // §10's H.264 half samples of the reference
    // §8's predictor set (the neighbours' and the previous field's vectors) given to each block's
    // search; implies neighbour_vectors and previous_field (chain_needs adds them).
    predictor_set = 1U << 4,
};
[[nodiscard]] constexpr Need operator|(Need a, Need b) {
    return static_cast<Need>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
[[nodiscard]] constexpr bool has(Need set, Need flag) {
    return (static_cast<unsigned>(set) & static_cast<unsigned>(flag)) != 0;
}

// The integer search (SPEC §3, §8, §11): one enumerator per row of search_methods.def, whose rows also
// give each its name, SPEC section and needs (xme/operations.hpp).
enum class SearchMethod {
#define XME_SEARCH(identifier, code, name, spec, needs, min_block, summary) identifier = code,
#include "xme/search_methods.def"
#undef XME_SEARCH
};

// The smallest block size a search is defined for (search_methods.def's min_block), for code that cannot
// read the table of operations (device code).
[[nodiscard]] constexpr int min_block_size(SearchMethod search) {
    switch (search) {
#define XME_SEARCH(identifier, code, name, spec, needs, min_block, summary) \
    case SearchMethod::identifier:                                          \
        return min_block;
#include "xme/search_methods.def"
#undef XME_SEARCH
    }
    return 4;
}

// What a search needs prepared (search_methods.def's needs), for code that cannot read the table of
// operations (device code).
[[nodiscard]] constexpr Need search_needs(SearchMethod search) {
    // The .def's needs are Need's enumerators by name (no `using enum`: CUDA compiles C++17).
    constexpr Need none = Need::none, mean_pyramid = Need::mean_pyramid,
                   neighbour_vectors = Need::neighbour_vectors, previous_field = Need::previous_field,
                   half_sample_planes = Need::half_sample_planes, predictor_set = Need::predictor_set;
    static_cast<void>(neighbour_vectors), static_cast<void>(previous_field),
        static_cast<void>(half_sample_planes);
    switch (search) {
#define XME_SEARCH(identifier, code, name, spec, needs, min_block, summary) \
    case SearchMethod::identifier:                                          \
        return needs;
#include "xme/search_methods.def"
#undef XME_SEARCH
    }
    return none;
}

// The sub-pel refinement after the integer search.
enum class Subpel {
    none,  // integer vectors
    hpel,  // SPEC §4: bilinear half-pel, cost4
    qpel,  // SPEC §10: H.264 6-tap half and quarter pel, SATD
};

// SPEC §9: whether a 16x16 block is searched as a whole or as its 41 partitions with a mode decision.
enum class Partitions {
    none,  // one vector per block
    all,   // the 41 partitions of every macroblock, then the mode decision (block 16, full search)
};

// SPEC §8: where each block's predicted vector p comes from.
enum class Predictor {
    none,      // p = 0
    temporal,  // the co-located block of the previous pair of the same segment
    spatial,   // H.264's median of the left, top and top-right blocks of this frame
};

// SPEC §8: the centre of the search window.
enum class WindowCentre {
    zero,       // c = 0
    predictor,  // c = round(p / 4)
};

// The largest range: keeps quarter-pel vectors in int16 and the packed search key in 64 bits.
inline constexpr int max_search_range = 4095;
inline constexpr int max_frame_dimension = 16384;
// Keeps J = D + lambda * R (SPEC §8) of the largest block in 32 bits.
inline constexpr int max_lambda = 65535;

struct SearchParams {
    int block_size = 16;  // 4, 8, 16 or 32
    int range = 16;       // integer candidates c + [-range, range]^2
    BorderMode border = BorderMode::pad;
    SearchMethod search = SearchMethod::full;
    Subpel subpel = Subpel::none;
    Partitions partitions = Partitions::none;
    int lambda = 0;  // SPEC §8's rate weight; 0: distortion only
    Predictor predictor = Predictor::none;
    WindowCentre centre = WindowCentre::zero;
    int refresh = 0;  // temporal predictor: a new segment every `refresh` pairs; 0: one segment

    // Throws Error(invalid_argument) naming the field and the allowed values, or a combination SPEC
    // does not define.
    void validate() const;
};

// The chain's short name: the search, "+p41" with partitions, then "+hpel" or "+qpel": "fs", "fs+hpel",
// "tz+qpel", "fs+p41+qpel".
[[nodiscard]] std::string chain_name(const SearchParams& params);
// Sets the search, the partitions and the refinement from such a name (`--algo fs+hpel`); other fields
// unchanged.
void apply_chain_name(SearchParams& params, std::string_view name);

// Parsers accept exactly the names to_string prints and throw Error(invalid_argument) otherwise,
// listing the allowed values.
[[nodiscard]] BorderMode parse_border_mode(std::string_view name);
[[nodiscard]] SearchMethod parse_search_method(std::string_view name);
[[nodiscard]] Subpel parse_subpel(std::string_view name);
[[nodiscard]] Partitions parse_partitions(std::string_view name);
[[nodiscard]] Predictor parse_predictor(std::string_view name);
[[nodiscard]] WindowCentre parse_window_centre(std::string_view name);
[[nodiscard]] std::string_view to_string(BorderMode border);
[[nodiscard]] std::string_view to_string(SearchMethod search);
[[nodiscard]] std::string_view to_string(Subpel subpel);
[[nodiscard]] std::string_view to_string(Partitions partitions);
[[nodiscard]] std::string_view to_string(Predictor predictor);
[[nodiscard]] std::string_view to_string(WindowCentre centre);

// Blocks per row and column for a frame (SPEC §1: blocks tile the frame from (0,0), partial edge
// blocks included).
[[nodiscard]] constexpr int blocks_across(int width, int block_size) {
    return (width + block_size - 1) / block_size;
}

}  // namespace xme
