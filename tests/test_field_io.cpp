// Motion-field writers (CSV, NPY) and writer errors, on random data from a seed printed per run.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "io_test_helpers.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"
#include "xme/video.hpp"

using namespace xme::test::io;
using xme::ChromaFormat;
using xme::ErrorKind;

namespace {

xme::MotionField random_field(int blocks_x, int blocks_y, int block_size, xme::CostKind kind,
                              std::mt19937_64& rng) {
    xme::MotionField field;
    field.blocks_x = blocks_x;
    field.blocks_y = blocks_y;
    field.block_size = block_size;
    field.cost_kind = kind;
    std::uniform_int_distribution<int> mv(-512, 512);
    std::uniform_int_distribution<std::uint32_t> cost(0, 4 * 255 * 32 * 32);
    std::uniform_int_distribution<std::uint32_t> candidates(1, 65 * 65);
    for (int i = 0; i < blocks_x * blocks_y; ++i) {
        field.blocks.push_back(
            {static_cast<std::int16_t>(mv(rng)), static_cast<std::int16_t>(mv(rng)), cost(rng), candidates(rng)});
    }
    return field;
}

// The rows both formats hold, one string per value, in file order; the cost kind by name in CSV and
// by its code in NPY.
std::vector<std::string> expected_values(std::int64_t frame_index, const xme::MotionField& field, bool csv) {
    std::vector<std::string> values;
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const xme::BlockMotion& b = field.at(bx, by);
            for (std::int64_t v :
                 {frame_index, std::int64_t{bx} * field.block_size, std::int64_t{by} * field.block_size,
                  std::int64_t{b.mv_x}, std::int64_t{b.mv_y}, std::int64_t{b.cost},
                  std::int64_t{field.cost_scale()}}) {
                values.push_back(std::to_string(v));
            }
            values.push_back(csv ? xme::to_string(field.cost_kind) : std::to_string(xme::cost_kind_code(field.cost_kind)));
            values.push_back(std::to_string(b.candidates));
        }
    }
    return values;
}

std::string join(const std::vector<std::string>& values, std::size_t per_line, char separator) {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i) {
        text += values[i];
        text += (i + 1) % per_line == 0 ? '\n' : separator;
    }
    return text;
}

// What numpy.load makes of the file: "dtype shape values...".
std::string load_with_numpy(const std::string& path) {
    const std::string command =
        "/usr/bin/python3 -c \"import numpy, sys; a = numpy.load(sys.argv[1]); "
        "print(a.dtype.str, a.shape, *a.ravel().tolist())\" " +
        path + " 2>&1";
    std::string output;
    if (std::FILE* pipe = popen(command.c_str(), "r")) {
        char buffer[4096];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
        pclose(pipe);
    }
    return output;
}

}  // namespace

TEST_SUITE_BEGIN("io");

TEST_CASE("CSV field file: header, then one row per block, complete after every frame") {
    SEEDED_RNG(rng, "io/csv");
    TempDir dir;
    const std::string path = dir.file("field.csv");
    auto writer = xme::open_field_writer(path);
    std::string expected = "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates\n";
    CHECK(read_file(path) == expected);
    for (std::int64_t frame_index : {1, 7}) {
        const xme::MotionField field = random_field(3, 2, 16, {xme::Distortion::cost4, frame_index == 7}, rng);
        writer->write(frame_index, field);
        expected += join(expected_values(frame_index, field, true), 9, ',');
        CHECK(read_file(path) == expected);
    }
}

TEST_CASE("NPY field file: int32 (rows, 9), loadable with numpy after every frame") {
    SEEDED_RNG(rng, "io/npy");
    TempDir dir;
    const std::string path = dir.file("field.npy");
    auto writer = xme::open_field_writer(path);
    CHECK(read_file(path).size() == 128);  // the fixed header, shape (0, 9)
    if (std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0) {
        MESSAGE("skipped loading with numpy: /usr/bin/python3 with numpy is absent");
        return;
    }
    CHECK(load_with_numpy(path) == "<i4 (0, 9)\n");
    std::vector<std::string> values;
    std::size_t rows = 0;
    for (std::int64_t frame_index : {0, 1}) {
        const xme::MotionField field = random_field(5, 3, 8, {xme::Distortion::satd, true}, rng);
        writer->write(frame_index, field);
        const auto more = expected_values(frame_index, field, false);
        values.insert(values.end(), more.begin(), more.end());
        rows += field.blocks.size();
        CHECK(load_with_numpy(path) ==
              "<i4 (" + std::to_string(rows) + ", 9) " + join(values, values.size(), ' '));
    }
}

TEST_CASE("field and Y4M writers: bad extension, unwritable path, wrong frame, value too large") {
    SEEDED_RNG(rng, "io/writer errors");
    TempDir dir;
    check_error([&] { (void)xme::open_field_writer(dir.file("field.txt")); }, ErrorKind::invalid_argument,
                {"field.txt", ".csv", ".npy"});
    const std::string unwritable = dir.file("no/such/dir/field.csv");
    check_error([&] { (void)xme::open_field_writer(unwritable); }, ErrorKind::io,
                {unwritable, "No such file"});
    check_error([&] { xme::Y4mWriter(dir.file("no/out.y4m"), 8, 8, ChromaFormat::yuv420); }, ErrorKind::io,
                {"no/out.y4m", "No such file"});

    xme::Y4mWriter y4m(dir.file("out.y4m"), 8, 8, ChromaFormat::yuv420);
    check_error([&] { y4m.write(random_frame(8, 8, ChromaFormat::yuv444, rng)); },
                ErrorKind::invalid_argument, {"out.y4m", "8x8 yuv444p", "8x8 yuv420p"});
    check_error([&] { y4m.write(random_frame(9, 8, ChromaFormat::yuv420, rng)); },
                ErrorKind::invalid_argument, {"9x8"});

    xme::MotionField field = random_field(1, 1, 8, {}, rng);
    field.blocks[0].cost = 0xffffffffU;
    check_error([&] { xme::open_field_writer(dir.file("big.npy"))->write(0, field); }, ErrorKind::unsupported,
                {"big.npy", "4294967295", ".csv"});
    auto csv = xme::open_field_writer(dir.file("big.csv"));
    csv->write(0, field);
    CHECK(read_file(dir.file("big.csv")).find(",4294967295,1,sad,") != std::string::npos);
}

TEST_SUITE_END();
