// The compact field files (xme/field_io.hpp, open_field_array_writer): one NPY array per quantity, a
// pair per row of its first axis, the bytes of each pair made in one pass over the field.
#include <cstring>

#include "appending_file.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"
#include "xme/video.hpp"

namespace xme {
namespace {

class NpyFieldArrayWriter final : public FieldWriter, AppendingFile {
public:
    NpyFieldArrayWriter(const std::string& path, FieldArray array, int blocks_x, int blocks_y)
        : AppendingFile(path), array_(array), blocks_x_(blocks_x), blocks_y_(blocks_y) {
        append(header(0));
        commit();
    }

    void write(std::int64_t frame_index, const MotionField& field) override {
        if (!field.macroblocks.empty()) {
            throw Error(ErrorKind::unsupported, "cannot write frame " + std::to_string(frame_index) + " to " +
                                                    path_ +
                                                    ": its field has partitions (SPEC §9), which a "
                                                    "field array does not hold; use -o's rows");
        }
        if (field.blocks_x != blocks_x_ || field.blocks_y != blocks_y_ ||
            field.blocks.size() !=
                static_cast<std::size_t>(blocks_x_) * static_cast<std::size_t>(blocks_y_)) {
            throw Error(ErrorKind::invalid_argument,
                        "cannot write frame " + std::to_string(frame_index) + " to " + path_ +
                            ": its field is " + std::to_string(field.blocks_x) + "x" +
                            std::to_string(field.blocks_y) + " blocks, the file's " +
                            std::to_string(blocks_x_) + "x" + std::to_string(blocks_y_));
        }
        const bool vectors = array_ == FieldArray::vectors;
        data_.resize(field.blocks.size() * 4);  // two int16 or one uint32 a block
        char* out = data_.data();
        for (const BlockMotion& block : field.blocks) {
            if (vectors) {
                put_little_endian(out, static_cast<std::uint16_t>(block.mv_x));
                put_little_endian(out + 2, static_cast<std::uint16_t>(block.mv_y));
            } else {
                put_little_endian(out, array_ == FieldArray::costs ? block.cost : block.candidates);
            }
            out += 4;
        }
        // Data first, shape second, as every NPY writer of xme: a process that dies in between leaves
        // the old shape, and numpy ignores the bytes past it.
        append(data_);
        put(header(whole_rows() + 1), 0);
        commit(1);
    }

    void finish(std::int64_t frames) override { finish_frames(frames); }

private:
    template <class Unsigned>
    static void put_little_endian(char* out, Unsigned value) {  // whatever the host's order
        for (std::size_t byte = 0; byte < sizeof value; ++byte)
            out[byte] = static_cast<char>((value >> (8 * byte)) & 0xff);
    }

    [[nodiscard]] std::string header(std::int64_t pairs) const override {
        const std::string shape =
            "(" + std::to_string(pairs) + ", " + std::to_string(blocks_y_) + ", " + std::to_string(blocks_x_);
        return array_ == FieldArray::vectors ? npy_header("<i2", shape + ", 2)")
                                             : npy_header("<u4", shape + ")");
    }

    FieldArray array_;
    int blocks_x_;
    int blocks_y_;
    std::string data_;  // one pair's bytes, kept for the next pair
};

}  // namespace

std::unique_ptr<FieldWriter> open_field_array_writer(const std::string& path, FieldArray array, int blocks_x,
                                                     int blocks_y) {
    if (lowercase_extension(path) != ".npy") {
        throw Error(ErrorKind::invalid_argument,
                    "cannot write a field array to " + path + ": use a .npy file (numpy.load reads it)");
    }
    return std::make_unique<NpyFieldArrayWriter>(path, array, blocks_x, blocks_y);
}

}  // namespace xme
