#include "io_test_helpers.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>

namespace fs = std::filesystem;

namespace xme::test::io {
namespace {

void fill_random(xme::Frame& frame, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> byte(0, 255);
    for (xme::Plane* plane : {&frame.luma, &frame.cb, &frame.cr}) {
        std::generate_n(plane->data(), plane->size_bytes(),
                        [&] { return static_cast<std::uint8_t>(byte(rng)); });
    }
}

}  // namespace

TempDir::TempDir() {
    std::random_device device;
    do {
        path_ = fs::temp_directory_path() / ("xme_test_io_" + std::to_string(device()));
    } while (!fs::create_directory(path_));
}

TempDir::~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

xme::Frame random_frame(int width, int height, xme::ChromaFormat format, std::mt19937_64& rng) {
    xme::Frame frame = xme::make_frame(width, height, format);
    fill_random(frame, rng);
    return frame;
}

bool same_plane(const xme::Plane& a, const xme::Plane& b) {
    return a.width() == b.width() && a.height() == b.height() &&
           std::equal(a.data(), a.data() + a.size_bytes(), b.data(), b.data() + b.size_bytes());
}

bool same_frame(const xme::Frame& a, const xme::Frame& b) {
    return a.chroma == b.chroma && same_plane(a.luma, b.luma) && same_plane(a.cb, b.cb) &&
           same_plane(a.cr, b.cr);
}

std::string planes_bytes(const xme::Frame& frame) {
    std::string bytes;
    for (const xme::Plane* plane : {&frame.luma, &frame.cb, &frame.cr}) {
        bytes.append(reinterpret_cast<const char*>(plane->data()), plane->size_bytes());
    }
    return bytes;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string staged_path(const std::string& path) {
    const std::filesystem::path given(path);
    const std::string prefix = "." + given.filename().string() + ".xme-";
    std::string found;
    for (const auto& entry : std::filesystem::directory_iterator(given.parent_path())) {
        if (!entry.path().filename().string().starts_with(prefix)) continue;
        if (!found.empty()) return "";
        found = entry.path().string();
    }
    return found;
}

std::vector<xme::Frame> write_y4m(const std::string& path, int width, int height, xme::ChromaFormat format,
                                  int count, std::mt19937_64& rng) {
    xme::Y4mWriter writer(path, width, height, format, 30000, 1001);
    std::vector<xme::Frame> frames;
    for (int i = 0; i < count; ++i)
        writer.write(frames.emplace_back(random_frame(width, height, format, rng)));
    return frames;
}

}  // namespace xme::test::io
