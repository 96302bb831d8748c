// Small readers for the tests of the files other tools read: a Middlebury .flo (as OpenCV's
// readOpticalFlow reads it), the AVMotionVector records of --export-mvs, and xme's own int32 .npy of
// vectors.
#pragma once

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace xme::test::exports {

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

// One record of an .mvs.npy (xme/mvs_io.hpp), read field by field from its packed little-endian bytes.
struct MvsRecord {
    std::int32_t frame = 0;
    std::int32_t source = 0;
    int w = 0;
    int h = 0;
    std::int16_t src_x = 0, src_y = 0, dst_x = 0, dst_y = 0;
    std::uint64_t flags = 0;
    std::int32_t motion_x = 0, motion_y = 0;
    int motion_scale = 0;
};

// Checks the header's structured type (the fields' names, order and types) and reads every record.
inline std::vector<MvsRecord> read_mvs_npy(const std::string& path) {
    const std::string bytes = file_bytes(path);
    INFO(path);
    REQUIRE(bytes.size() >= 10);
    REQUIRE(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
    const std::size_t header =
        10 + (static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8);
    CHECK(bytes.find(
              "'descr': [('frame', '<i4'), ('source', '<i4'), ('w', 'u1'), ('h', 'u1'), ('src_x', '<i2'), "
              "('src_y', '<i2'), ('dst_x', '<i2'), ('dst_y', '<i2'), ('flags', '<u8'), ('motion_x', '<i4'), "
              "('motion_y', '<i4'), ('motion_scale', '<u2')]") < header);
    constexpr std::size_t record = 36;
    REQUIRE((bytes.size() - header) % record == 0);
    const std::size_t count = (bytes.size() - header) / record;
    CHECK(bytes.find("'shape': (" + std::to_string(count) + ",)") < header);
    auto u16 = [&](std::size_t at) {
        return static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[at]) |
                                          static_cast<unsigned char>(bytes[at + 1]) << 8);
    };
    std::vector<MvsRecord> records;
    for (std::size_t at = header; at < bytes.size(); at += record) {
        MvsRecord r;
        r.frame = static_cast<std::int32_t>(le32(bytes, at));
        r.source = static_cast<std::int32_t>(le32(bytes, at + 4));
        r.w = static_cast<unsigned char>(bytes[at + 8]);
        r.h = static_cast<unsigned char>(bytes[at + 9]);
        r.src_x = static_cast<std::int16_t>(u16(at + 10));
        r.src_y = static_cast<std::int16_t>(u16(at + 12));
        r.dst_x = static_cast<std::int16_t>(u16(at + 14));
        r.dst_y = static_cast<std::int16_t>(u16(at + 16));
        r.flags = le32(bytes, at + 18) | std::uint64_t{le32(bytes, at + 22)} << 32;
        r.motion_x = static_cast<std::int32_t>(le32(bytes, at + 26));
        r.motion_y = static_cast<std::int32_t>(le32(bytes, at + 30));
        r.motion_scale = u16(at + 34);
        records.push_back(r);
    }
    return records;
}

}  // namespace xme::test::exports
