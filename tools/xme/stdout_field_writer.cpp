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
    StdoutCsvWriter() { put("frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates\n"); }

    void write(std::int64_t frame_index, const MotionField& field) override {
        std::string text;
        for (int by = 0; by < field.blocks_y; ++by) {
            for (int bx = 0; bx < field.blocks_x; ++bx) {
                const BlockMotion& block = field.at(bx, by);
                text += std::to_string(frame_index) + ',' +
                        std::to_string(std::int64_t{bx} * field.block_size) + ',' +
                        std::to_string(std::int64_t{by} * field.block_size) + ',' +
                        std::to_string(block.mv_x) + ',' + std::to_string(block.mv_y) + ',' +
                        std::to_string(block.cost) + ',' + std::to_string(field.cost_scale()) + ',' +
                        to_string(field.cost_kind) + ',' + std::to_string(block.candidates) + '\n';
            }
        }
        put(text);
    }

private:
    static void put(const std::string& text) {
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
            throw Error(ErrorKind::io, std::string("cannot write the motion vectors to standard output: ") +
                                           std::strerror(errno));
        }
    }
};

}  // namespace

std::unique_ptr<FieldWriter> open_stdout_csv_writer() { return std::make_unique<StdoutCsvWriter>(); }

}  // namespace xme::cli
