// Motion-field writers (CSV, NPY) and writer errors, on random data from a seed printed per run.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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
        field.blocks.push_back({static_cast<std::int16_t>(mv(rng)), static_cast<std::int16_t>(mv(rng)),
                                cost(rng), candidates(rng)});
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
            values.push_back(csv ? xme::to_string(field.cost_kind)
                                 : std::to_string(xme::cost_kind_code(field.cost_kind)));
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

// Writes `fields` (frames 1, 2, ...) to `path` in a child process whose files may not grow past
// `limit` bytes (RLIMIT_FSIZE, SIGXFSZ ignored: writes fail with EFBIG, as on a full disk).
// Returns the frames written and the error's kind and message ("" if none).
struct LimitedWrite {
    int frames = 0;
    std::string error;
};
LimitedWrite write_with_size_limit(const std::string& path, const std::vector<xme::MotionField>& fields,
                                   rlim_t limit) {
    int channel[2];
    REQUIRE(pipe(channel) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(channel[0]);
        const rlimit size_limit{limit, limit};
        setrlimit(RLIMIT_FSIZE, &size_limit);
        signal(SIGXFSZ, SIG_IGN);
        int frames = 0;
        std::string error;
        try {
            auto writer = xme::open_field_writer(path);
            for (const auto& field : fields) {
                writer->write(frames + 1, field);
                ++frames;
            }
        } catch (const xme::Error& e) {
            error = std::to_string(e.exit_code()) + " " + e.what();
        }
        const std::string report = std::to_string(frames) + "\n" + error;
        if (write(channel[1], report.data(), report.size()) < 0) _exit(1);
        _exit(0);
    }
    close(channel[1]);
    std::string report;
    char buffer[1024];
    for (ssize_t n; (n = read(channel[0], buffer, sizeof buffer)) > 0;)
        report.append(buffer, static_cast<std::size_t>(n));
    close(channel[0]);
    int status = 0;
    waitpid(child, &status, 0);
    REQUIRE(WIFEXITED(status));
    const std::size_t newline = report.find('\n');
    REQUIRE(newline != std::string::npos);
    return {std::stoi(report.substr(0, newline)), report.substr(newline + 1)};
}

}  // namespace

TEST_SUITE_BEGIN("io");

TEST_CASE("a write that fails mid-file (full disk, size limit) leaves whole frames and says why") {
    SEEDED_RNG(rng, "io/size limit");
    TempDir dir;
    std::vector<xme::MotionField> fields;
    for (int i = 0; i < 12; ++i)
        fields.push_back(random_field(7, 5, 16, {xme::Distortion::cost4, false}, rng));
    const rlim_t limit = std::uniform_int_distribution<rlim_t>(600, 3000)(rng);
    INFO("file size limit ", limit);

    const std::string csv = dir.file("limited.csv");
    const LimitedWrite csv_run = write_with_size_limit(csv, fields, limit);
    CHECK(csv_run.frames < 12);
    CHECK(csv_run.error == "7 cannot write " + csv + ": File too large; it keeps the frames written before");
    std::string expected = "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates\n";
    for (int i = 0; i < csv_run.frames; ++i)
        expected += join(expected_values(i + 1, fields[static_cast<std::size_t>(i)], true), 9, ',');
    CHECK(read_file(csv) == expected);  // whole frames only: no half-written row

    const std::string npy = dir.file("limited.npy");
    const LimitedWrite npy_run = write_with_size_limit(npy, fields, limit);
    CHECK(npy_run.frames < 12);
    CHECK(npy_run.error.rfind("7 cannot write " + npy + ": File too large", 0) == 0);
    const std::size_t rows = static_cast<std::size_t>(npy_run.frames) * 35;
    CHECK(read_file(npy).size() == 128 + rows * 9 * 4);
    CHECK(read_file(npy).substr(0, 128).find("'shape': (" + std::to_string(rows) + ", 9)") !=
          std::string::npos);
    if (std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") == 0) {
        std::vector<std::string> values;
        for (int i = 0; i < npy_run.frames; ++i) {
            const auto more = expected_values(i + 1, fields[static_cast<std::size_t>(i)], false);
            values.insert(values.end(), more.begin(), more.end());
        }
        CHECK(load_with_numpy(npy) == "<i4 (" + std::to_string(rows) + ", 9)" +
                                          (values.empty() ? "\n" : " " + join(values, values.size(), ' ')));
    }

    // A full device from the first byte: the header cannot be written.
    const std::string full = dir.file("full.csv");
    std::filesystem::create_symlink("/dev/full", full);
    check_error([&] { (void)xme::open_field_writer(full); }, ErrorKind::io,
                {full, "No space left on device"});
}

TEST_CASE("CSV field file: header, then one row per block, whole after every frame, in place when finished") {
    SEEDED_RNG(rng, "io/csv");
    TempDir dir;
    const std::string path = dir.file("field.csv");
    write_file(path, "an older file\n");
    auto writer = xme::open_field_writer(path);
    std::string expected = "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates\n";
    // Written beside the path, which keeps the older file until the writer finishes.
    const std::string staged = staged_path(path);
    REQUIRE(!staged.empty());
    CHECK(read_file(staged) == expected);
    for (std::int64_t frame_index : {1, 7}) {
        const xme::MotionField field =
            random_field(3, 2, 16, {xme::Distortion::cost4, frame_index == 7}, rng);
        writer->write(frame_index, field);
        expected += join(expected_values(frame_index, field, true), 9, ',');
        CHECK(read_file(staged) == expected);
        CHECK(read_file(path) == "an older file\n");
    }
    writer->finish(-1);
    CHECK(read_file(path) == expected);
    CHECK(staged_path(path).empty());
    CHECK(!std::filesystem::exists(staged));
}

TEST_CASE("NPY field file: int32 (rows, 9), loadable with numpy after every frame") {
    SEEDED_RNG(rng, "io/npy");
    TempDir dir;
    const std::string path = dir.file("field.npy");
    auto writer = xme::open_field_writer(path);
    const std::string staged = staged_path(path);  // where it is written until finished
    REQUIRE(!staged.empty());
    CHECK(read_file(staged).size() == 128);  // the fixed header, shape (0, 9)
    if (std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0) {
        MESSAGE("skipped loading with numpy: /usr/bin/python3 with numpy is absent");
        return;
    }
    CHECK(load_with_numpy(staged) == "<i4 (0, 9)\n");
    std::vector<std::string> values;
    std::size_t rows = 0;
    for (std::int64_t frame_index : {0, 1}) {
        const xme::MotionField field = random_field(5, 3, 8, {xme::Distortion::satd, true}, rng);
        writer->write(frame_index, field);
        const auto more = expected_values(frame_index, field, false);
        values.insert(values.end(), more.begin(), more.end());
        rows += field.blocks.size();
        CHECK(load_with_numpy(staged) ==
              "<i4 (" + std::to_string(rows) + ", 9) " + join(values, values.size(), ' '));
    }
    // Finished with fewer frames than written (the frames a run's other outputs hold): the first one,
    // its header's shape counting its rows only.
    writer->finish(1);
    CHECK(!std::filesystem::exists(staged));
    const std::vector<std::string> first(values.begin(), values.begin() + 15 * 9);
    CHECK(load_with_numpy(path) == "<i4 (15, 9) " + join(first, first.size(), ' '));
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
    csv->finish(-1);
    CHECK(read_file(dir.file("big.csv")).find(",4294967295,1,sad,") != std::string::npos);
}

TEST_SUITE_END();
