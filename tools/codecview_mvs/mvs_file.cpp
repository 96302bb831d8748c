#include "mvs_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "xme/error.hpp"
#include "xme/mvs_io.hpp"

namespace xme::codecview {
namespace {

[[noreturn]] void not_mvs(const std::string& path, const std::string& why) {
    throw Error(ErrorKind::bad_input, path + " is not a file of xme estimate --export-mvs: " + why);
}

// Little-endian, whatever the host.
std::uint64_t le(const std::string& bytes, std::size_t at, std::size_t size) {
    std::uint64_t value = 0;
    for (std::size_t i = size; i-- > 0;) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
    return value;
}

}  // namespace

std::map<std::int64_t, std::vector<AVMotionVector>> read_mvs_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorKind::bad_input, "cannot open " + path + ": " + std::strerror(errno));
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (bytes.size() < 10 || bytes.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) != 0)
        not_mvs(path, "it does not start as a NumPy 1.0 file");
    const std::size_t data = 10 + le(bytes, 8, 2);
    if (data > bytes.size()) not_mvs(path, "its header is cut short");
    const std::string header = bytes.substr(10, data - 10);
    if (header.find("'descr': " + mvs_record_descr()) == std::string::npos)
        not_mvs(path, "its records are not AVMotionVector's fields and types");
    if (header.find("'fortran_order': False") == std::string::npos) not_mvs(path, "it is in Fortran order");
    const std::size_t shape = header.find("'shape': (");
    if (shape == std::string::npos) not_mvs(path, "its header has no shape");
    const std::uint64_t count = std::stoull(header.substr(shape + 10));
    if (count > (bytes.size() - data) / mvs_record_bytes)
        not_mvs(path, "it holds fewer records than its shape says");
    std::map<std::int64_t, std::vector<AVMotionVector>> frames;
    for (std::size_t i = 0, at = data; i < count; ++i, at += mvs_record_bytes) {
        AVMotionVector mv{};
        mv.source = static_cast<std::int32_t>(le(bytes, at + 4, 4));
        mv.w = static_cast<std::uint8_t>(le(bytes, at + 8, 1));
        mv.h = static_cast<std::uint8_t>(le(bytes, at + 9, 1));
        mv.src_x = static_cast<std::int16_t>(le(bytes, at + 10, 2));
        mv.src_y = static_cast<std::int16_t>(le(bytes, at + 12, 2));
        mv.dst_x = static_cast<std::int16_t>(le(bytes, at + 14, 2));
        mv.dst_y = static_cast<std::int16_t>(le(bytes, at + 16, 2));
        mv.flags = le(bytes, at + 18, 8);
        mv.motion_x = static_cast<std::int32_t>(le(bytes, at + 26, 4));
        mv.motion_y = static_cast<std::int32_t>(le(bytes, at + 30, 4));
        mv.motion_scale = static_cast<std::uint16_t>(le(bytes, at + 34, 2));
        frames[static_cast<std::int32_t>(le(bytes, at, 4))].push_back(mv);
    }
    return frames;
}

}  // namespace xme::codecview
