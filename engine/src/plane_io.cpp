#include "xme/plane_io.hpp"

#include "appending_file.hpp"
#include "xme/video.hpp"

namespace xme {
namespace {

class NpyInt16StackWriter final : public Int16StackWriter, AppendingFile {
public:
    NpyInt16StackWriter(const std::string& path, int width, int height)
        : AppendingFile(path), width_(width), height_(height) {
        append(header(0));
        commit();
    }

    void write(const Int16Plane& plane) override {
        if (plane.width != width_ || plane.height != height_) {
            throw Error(ErrorKind::invalid_argument, "cannot append a " + std::to_string(plane.width) + "x" +
                                                         std::to_string(plane.height) + " plane to " + path_ +
                                                         ", whose planes are " + std::to_string(width_) +
                                                         "x" + std::to_string(height_));
        }
        std::string data;
        data.reserve(plane.values.size() * 2);
        for (const std::int16_t value : plane.values) {  // little-endian whatever the host
            const auto bits = static_cast<std::uint16_t>(value);
            data += static_cast<char>(bits & 0xff);
            data += static_cast<char>(bits >> 8);
        }
        // Data first, shape second, as the motion-field files; a plane is one row of the stack.
        append(data);
        put(header(whole_rows() + 1), 0);
        commit(1);
    }

    void finish(std::int64_t frames) override { finish_frames(frames); }

private:
    [[nodiscard]] std::string header(std::int64_t frames) const override {
        return npy_header("<i2", "(" + std::to_string(frames) + ", " + std::to_string(height_) + ", " +
                                     std::to_string(width_) + ")");
    }

    int width_;
    int height_;
};

}  // namespace

std::unique_ptr<Int16StackWriter> open_int16_stack_writer(const std::string& path, int width, int height) {
    if (lowercase_extension(path) != ".npy") {
        throw Error(ErrorKind::invalid_argument, "cannot write int16 planes to " + path +
                                                     ": use a .npy file (an array of shape (pairs, H, W))");
    }
    return std::make_unique<NpyInt16StackWriter>(path, width, height);
}

}  // namespace xme
