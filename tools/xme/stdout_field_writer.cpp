#include "stdout_field_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "xme/error.hpp"

namespace xme::cli {
namespace {

class StdoutCsvWriter final : public FieldWriter {
public:
    explicit StdoutCsvWriter(FieldLayout layout) : layout_(layout) { put(field_csv_header(layout)); }

    void write(std::int64_t frame_index, const MotionField& field) override {
        put(field_csv_rows(frame_index, field, layout_));
    }

private:
    static void put(const std::string& text) {
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
            throw Error(ErrorKind::io, std::string("cannot write the motion vectors to standard output: ") +
                                           std::strerror(errno));
        }
    }

    FieldLayout layout_;
};

}  // namespace

std::unique_ptr<FieldWriter> open_stdout_csv_writer(FieldLayout layout) {
    return std::make_unique<StdoutCsvWriter>(layout);
}

}  // namespace xme::cli
