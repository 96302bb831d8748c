// SPEC §13 on a plane: the variants' dispatch, and 8x8 tiles from (0, 0) with partial tiles reading
// zeros outside the plane and written back cropped.
#include <string>

#include "xme/dct.hpp"
#include "xme/error.hpp"

namespace xme {

const char* to_string(TransformAlgorithm algorithm) {
    switch (algorithm) {
        case TransformAlgorithm::matrix:
            return "matrix";
        case TransformAlgorithm::loeffler:
            return "loeffler";
    }
    return "?";
}

const char* to_string(TransformDirection direction) {
    return direction == TransformDirection::forward ? "forward" : "inverse";
}

TransformAlgorithm parse_transform_algorithm(std::string_view name, std::string_view option) {
    for (const TransformAlgorithm algorithm : {TransformAlgorithm::matrix, TransformAlgorithm::loeffler}) {
        if (name == to_string(algorithm)) return algorithm;
    }
    throw Error(ErrorKind::invalid_argument,
                "unknown " + std::string(option) + " '" + std::string(name) + "': use matrix or loeffler");
}

namespace reference {
namespace {

Block8x8 read_tile(const Int16Plane& plane, int left, int top) {
    Block8x8 tile{};  // zeros where the tile leaves the plane
    for (int y = 0; y < 8 && top + y < plane.height; ++y) {
        for (int x = 0; x < 8 && left + x < plane.width; ++x) {
            tile[static_cast<std::size_t>(8 * y + x)] = plane.at(left + x, top + y);
        }
    }
    return tile;
}

void write_tile(const Block8x8& tile, int left, int top, Int16Plane& plane) {
    for (int y = 0; y < 8 && top + y < plane.height; ++y) {
        for (int x = 0; x < 8 && left + x < plane.width; ++x) {
            plane.at(left + x, top + y) = tile[static_cast<std::size_t>(8 * y + x)];
        }
    }
}

template <class Transform>
Int16Plane transform_tiles(const Int16Plane& input, Transform transform) {
    Int16Plane output(input.width, input.height);
    for (int top = 0; top < input.height; top += 8) {
        for (int left = 0; left < input.width; left += 8) {
            write_tile(transform(read_tile(input, left, top)), left, top, output);
        }
    }
    return output;
}

}  // namespace

Block8x8 forward_dct(TransformAlgorithm algorithm, const Block8x8& samples) {
    return algorithm == TransformAlgorithm::matrix ? forward_dct_matrix(samples)
                                                   : forward_dct_loeffler(samples);
}

Block8x8 inverse_dct(TransformAlgorithm algorithm, const Block8x8& coefficients) {
    return algorithm == TransformAlgorithm::matrix ? inverse_dct_matrix(coefficients)
                                                   : inverse_dct_loeffler(coefficients);
}

Block8x8 transform_block(TransformAlgorithm algorithm, TransformDirection direction, const Block8x8& block) {
    return direction == TransformDirection::forward ? forward_dct(algorithm, block)
                                                    : inverse_dct(algorithm, block);
}

Int16Plane forward_transform_plane(const Int16Plane& residual, TransformAlgorithm algorithm) {
    return transform_tiles(residual,
                           [algorithm](const Block8x8& tile) { return forward_dct(algorithm, tile); });
}

Int16Plane inverse_transform_plane(const Int16Plane& coefficients, TransformAlgorithm algorithm) {
    return transform_tiles(coefficients,
                           [algorithm](const Block8x8& tile) { return inverse_dct(algorithm, tile); });
}

}  // namespace reference
}  // namespace xme
