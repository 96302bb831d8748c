// Small readers for the tests of the files other tools read: a Middlebury .flo (as OpenCV's
// readOpticalFlow reads it) and xme's own int32 .npy of vectors.
#pragma once

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace xme::test::flo {

inline std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::uint32_t le32(const std::string& bytes, std::size_t offset) {
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i)
        value = (value << 8) | static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(i)]);
    return value;
}

struct Flow {
    int width = 0;
    int height = 0;
    std::vector<float> uv;  // (u, v) per pixel, row-major

    [[nodiscard]] float u(int x, int y) const { return uv[2 * (static_cast<std::size_t>(y) * width + x)]; }
    [[nodiscard]] float v(int x, int y) const {
        return uv[2 * (static_cast<std::size_t>(y) * width + x) + 1];
    }
};

// Checks the header ("PIEH", the float 202021.25) and the size against the file's length.
inline Flow read_flo(const std::string& path) {
    const std::string bytes = file_bytes(path);
    INFO(path);
    REQUIRE(bytes.size() >= 12);
    CHECK(bytes.substr(0, 4) == "PIEH");
    CHECK(std::bit_cast<float>(le32(bytes, 0)) == 202021.25F);
    Flow flow;
    flow.width = static_cast<int>(le32(bytes, 4));
    flow.height = static_cast<int>(le32(bytes, 8));
    REQUIRE(bytes.size() ==
            12 + 8 * static_cast<std::size_t>(flow.width) * static_cast<std::size_t>(flow.height));
    for (std::size_t offset = 12; offset < bytes.size(); offset += 4)
        flow.uv.push_back(std::bit_cast<float>(le32(bytes, offset)));
    return flow;
}

// xme's vectors .npy (int32, (rows, columns), the fixed 128-byte header): its rows.
inline std::vector<std::vector<std::int32_t>> read_vectors_npy(const std::string& path, int columns) {
    const std::string bytes = file_bytes(path);
    REQUIRE(bytes.size() >= 128);
    REQUIRE(bytes.substr(0, 6) == "\x93NUMPY");
    REQUIRE((bytes.size() - 128) % (4 * static_cast<std::size_t>(columns)) == 0);
    std::vector<std::vector<std::int32_t>> rows;
    for (std::size_t offset = 128; offset < bytes.size();) {
        auto& row = rows.emplace_back();
        for (int c = 0; c < columns; ++c, offset += 4)
            row.push_back(static_cast<std::int32_t>(le32(bytes, offset)));
    }
    return rows;
}

}  // namespace xme::test::flo
