// Pictures `xme draw` wrote, read back through FFmpeg's decoders (not xme's code) for the tests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace xme::test {

struct RgbPicture {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgb;  // RGB24, tightly packed

    [[nodiscard]] std::array<int, 3> at(int x, int y) const {
        const std::size_t i =
            (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
        return {rgb[i], rgb[i + 1], rgb[i + 2]};
    }
};

// Every frame of a PNG or a video, as RGB24; throws std::runtime_error saying why it cannot.
[[nodiscard]] std::vector<RgbPicture> decode_pictures(const std::string& path);

}  // namespace xme::test
