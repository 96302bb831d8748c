// The CSV and NPY field writers' round trip: fields made from the input, written frame by frame to
// both formats and read back. Every row written is read back with its values; NPY refuses a value
// that int32 cannot hold (an xme::Error) and the file then still holds every earlier frame.
#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <vector>

#include "fuzz_support.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"

namespace {

// frame, x, y, mv_x, mv_y, cost, cost_scale, cost_kind (as cost_kind_code), candidates
using Row = std::array<std::int64_t, 9>;
constexpr std::size_t cost_kind_column = 7;

// CSV writes the cost kind by name: back to its code.
std::int64_t cost_kind_code_of(const std::string& name) {
    for (const xme::Distortion distortion :
         {xme::Distortion::sad, xme::Distortion::cost4, xme::Distortion::satd}) {
        for (const bool with_rate : {false, true}) {
            const xme::CostKind kind{distortion, with_rate};
            if (xme::to_string(kind) == name) return xme::cost_kind_code(kind);
        }
    }
    xme::fuzz::finding("an unknown cost kind '" + name + "'");
    return -1;
}

std::vector<Row> rows_of(std::int64_t frame_index, const xme::MotionField& field) {
    std::vector<Row> rows;
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const auto& block = field.at(bx, by);
            rows.push_back({frame_index, std::int64_t{bx} * field.block_size,
                            std::int64_t{by} * field.block_size, block.mv_x, block.mv_y, block.cost,
                            field.cost_scale(), xme::cost_kind_code(field.cost_kind), block.candidates});
        }
    }
    return rows;
}

std::vector<Row> read_csv(const std::string& path) {
    std::istringstream in(xme::fuzz::read_whole_file(path));
    std::string line;
    if (!std::getline(in, line) || line != "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates") {
        xme::fuzz::finding("the CSV header is '" + line + "'");
    }
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        Row row{};
        std::istringstream fields(line);
        char comma = ',';
        for (std::size_t i = 0; i < row.size(); ++i) {
            bool read = comma == ',';
            if (read && i == cost_kind_column) {
                std::string name;
                read = static_cast<bool>(std::getline(fields, name, ','));
                if (!read) xme::fuzz::finding("a malformed CSV row '" + line + "'");
                row[i] = cost_kind_code_of(name);  // getline consumed the comma after the name
                continue;
            }
            if (!read || !(fields >> row[i])) xme::fuzz::finding("a malformed CSV row '" + line + "'");
            fields >> comma;
        }
        if (!fields.eof()) xme::fuzz::finding("trailing text in CSV row '" + line + "'");
        rows.push_back(row);
    }
    return rows;
}

std::vector<Row> read_npy(const std::string& path) {
    const std::string bytes = xme::fuzz::read_whole_file(path);
    if (bytes.size() < 10 || bytes.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) != 0) {
        xme::fuzz::finding("no NPY 1.0 magic");
    }
    const std::size_t header_length =
        static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
    const std::string header = bytes.substr(10, header_length);
    const std::string prefix = "{'descr': '<i4', 'fortran_order': False, 'shape': (";
    if (header.compare(0, prefix.size(), prefix) != 0 || header.back() != '\n' ||
        (10 + header_length) % 64 != 0) {
        xme::fuzz::finding("an NPY header that numpy would not read: " + header);
    }
    std::size_t digits = 0;
    const std::int64_t rows = std::stoll(header.substr(prefix.size()), &digits);
    if (header.compare(prefix.size() + digits, 7, ", 9), }") != 0) xme::fuzz::finding("NPY shape: " + header);
    const std::size_t data_start = 10 + header_length;
    if (bytes.size() < data_start + static_cast<std::size_t>(rows) * 36)
        xme::fuzz::finding("NPY data shorter than its shape");
    std::vector<Row> result(static_cast<std::size_t>(rows));
    for (std::size_t i = 0; i < result.size() * 9; ++i) {
        std::uint32_t bits = 0;
        for (int b = 3; b >= 0; --b)
            bits = bits << 8 | static_cast<unsigned char>(bytes[data_start + 4 * i + b]);
        result[i / 9][i % 9] = static_cast<std::int32_t>(bits);
    }
    return result;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider input(data, size);
    const std::string& directory = xme::fuzz::scratch_directory();
    auto csv = xme::open_field_writer(directory + "/field.csv");
    auto npy = xme::open_field_writer(directory + "/field.NPY");  // the extension in any case
    std::vector<Row> expected, expected_npy;
    bool npy_refused = false;

    const int frames = input.ConsumeIntegralInRange(0, 4);
    for (int frame = 0; frame < frames && !npy_refused; ++frame) {
        xme::MotionField field;
        field.blocks_x = input.ConsumeIntegralInRange(0, 8);
        field.blocks_y = input.ConsumeIntegralInRange(0, 8);
        field.block_size =
            input.ConsumeBool() ? input.ConsumeIntegral<int>() : 4 << input.ConsumeIntegralInRange(0, 3);
        field.cost_kind = {static_cast<xme::Distortion>(input.ConsumeIntegralInRange(0, 2)),
                           input.ConsumeBool()};
        const auto frame_index =
            input.ConsumeBool() ? input.ConsumeIntegral<std::int64_t>() : std::int64_t{frame};
        for (int i = 0; i < field.blocks_x * field.blocks_y; ++i) {
            field.blocks.push_back(
                {input.ConsumeIntegral<std::int16_t>(), input.ConsumeIntegral<std::int16_t>(),
                 input.ConsumeIntegral<std::uint32_t>(), input.ConsumeIntegral<std::uint32_t>()});
        }
        const auto rows = rows_of(frame_index, field);
        csv->write(frame_index, field);
        expected.insert(expected.end(), rows.begin(), rows.end());
        bool fits = true;
        for (const auto& row : rows) {
            for (auto value : row) fits = fits && value >= INT32_MIN && value <= INT32_MAX;
        }
        try {
            npy->write(frame_index, field);
            if (!fits) xme::fuzz::finding("NPY accepted a value int32 cannot hold");
            expected_npy.insert(expected_npy.end(), rows.begin(), rows.end());
        } catch (const xme::Error& error) {
            if (fits || error.kind() != xme::ErrorKind::unsupported) throw;
            npy_refused = true;
        }
    }
    // Written beside their paths until finished (xme/staged_file.hpp).
    csv->finish(-1);
    npy->finish(-1);
    if (read_csv(directory + "/field.csv") != expected)
        xme::fuzz::finding("the CSV rows differ from those written");
    if (read_npy(directory + "/field.NPY") != expected_npy)
        xme::fuzz::finding("the NPY rows differ from those written");
    return 0;
}
