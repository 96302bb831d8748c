// The compact field files (--vectors, --costs, --candidates: xme/field_io.hpp's FieldArray) and the
// writer that writes any field file on a thread of its own, on random fields, read back byte by byte
// and with numpy, and on a file that stops growing for real (RLIMIT_FSIZE).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "io_test_helpers.hpp"
#include "xme/error.hpp"
#include "xme/field_io.hpp"

using namespace xme::test::io;
using xme::ErrorKind;
using xme::FieldArray;

namespace {

xme::MotionField random_field(int blocks_x, int blocks_y, std::mt19937_64& rng) {
    xme::MotionField field;
    field.blocks_x = blocks_x;
    field.blocks_y = blocks_y;
    field.block_size = 16;
    field.cost_kind = {xme::Distortion::satd, true};
    std::uniform_int_distribution<int> mv(-16380, 16380);
    std::uniform_int_distribution<std::uint32_t> value(0, 0xffffffffu);
    for (int i = 0; i < blocks_x * blocks_y; ++i) {
        field.blocks.push_back(
            {static_cast<std::int16_t>(mv(rng)), static_cast<std::int16_t>(mv(rng)), value(rng), value(rng)});
    }
    return field;
}

// The little-endian bytes the file must hold for `fields`, after its 128-byte header.
std::string expected_data(const std::vector<xme::MotionField>& fields, FieldArray array) {
    std::string data;
    auto put = [&](std::uint64_t value, int bytes) {
        for (int byte = 0; byte < bytes; ++byte) data += static_cast<char>((value >> (8 * byte)) & 0xff);
    };
    for (const auto& field : fields) {
        for (const auto& block : field.blocks) {
            if (array == FieldArray::vectors) {
                put(static_cast<std::uint16_t>(block.mv_x), 2);
                put(static_cast<std::uint16_t>(block.mv_y), 2);
            } else {
                put(array == FieldArray::costs ? block.cost : block.candidates, 4);
            }
        }
    }
    return data;
}

std::string numpy_sum(const std::string& path) {
    const std::string command =
        "/usr/bin/python3 -c \"import numpy, sys; a = numpy.load(sys.argv[1]); "
        "print(a.dtype.str, a.shape, int(a.astype(numpy.int64).sum()))\" " +
        path + " 2>&1";
    std::string output;
    if (std::FILE* pipe = popen(command.c_str(), "r")) {
        char buffer[512];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
        pclose(pipe);
    }
    return output;
}

}  // namespace

// In the scheduler's suite, which ThreadSanitizer runs: the writer's thread works beside the run's delivery.
TEST_CASE("field arrays: (pairs, by, bx, 2) int16 vectors, uint32 costs and candidates, in the background" *
          doctest::test_suite("scheduler")) {
    SEEDED_RNG(rng, "io/field arrays");
    TempDir dir;
    const int blocks_x = std::uniform_int_distribution<int>(1, 130)(rng);
    const int blocks_y = std::uniform_int_distribution<int>(1, 70)(rng);
    std::vector<xme::MotionField> fields;
    for (int i = 0; i < 5; ++i) fields.push_back(random_field(blocks_x, blocks_y, rng));
    const bool have_numpy = std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") == 0;
    for (const FieldArray array : {FieldArray::vectors, FieldArray::costs, FieldArray::candidates}) {
        const std::string path = dir.file("array" + std::to_string(static_cast<int>(array)) + ".npy");
        auto writer = xme::write_in_background(xme::open_field_array_writer(path, array, blocks_x, blocks_y));
        for (std::size_t i = 0; i < fields.size(); ++i)
            writer->write(static_cast<std::int64_t>(i + 1), fields[i]);
        CHECK(writer->settle() == 5);
        writer->finish(4);  // the pairs a run's other outputs hold
        const std::string file = read_file(path);
        const std::string shape =
            array == FieldArray::vectors
                ? "(4, " + std::to_string(blocks_y) + ", " + std::to_string(blocks_x) + ", 2)"
                : "(4, " + std::to_string(blocks_y) + ", " + std::to_string(blocks_x) + ")";
        REQUIRE(file.size() >= 128);
        CHECK(file.substr(0, 128).find("'descr': '" +
                                       std::string(array == FieldArray::vectors ? "<i2" : "<u4") +
                                       "', 'fortran_order': False, 'shape': " + shape) != std::string::npos);
        CHECK(file.substr(128) == expected_data({fields.begin(), fields.begin() + 4}, array));
        if (have_numpy) {
            std::int64_t sum = 0;
            for (int i = 0; i < 4; ++i) {
                for (const auto& block : fields[static_cast<std::size_t>(i)].blocks) {
                    sum += array == FieldArray::vectors ? std::int64_t{block.mv_x} + block.mv_y
                           : array == FieldArray::costs ? std::int64_t{block.cost}
                                                        : std::int64_t{block.candidates};
                }
            }
            CHECK(numpy_sum(path) == std::string(array == FieldArray::vectors ? "<i2 " : "<u4 ") + shape +
                                         " " + std::to_string(sum) + "\n");
        }
    }
}

TEST_SUITE_BEGIN("io");

TEST_CASE("field arrays refuse partitions, another shape and another extension") {
    TempDir dir;
    std::mt19937_64 rng(7);  // the values do not matter: only the shape is checked
    auto writer = xme::open_field_array_writer(dir.file("v.npy"), FieldArray::vectors, 4, 3);
    xme::MotionField other = random_field(3, 4, rng);
    check_error([&] { writer->write(1, other); }, ErrorKind::invalid_argument,
                {"3x4 blocks, the file's 4x3"});
    xme::MotionField partitioned = random_field(4, 3, rng);
    partitioned.macroblocks.resize(12);
    check_error([&] { writer->write(1, partitioned); }, ErrorKind::unsupported, {"partitions", "use -o"});
    check_error([&] { (void)xme::open_field_array_writer(dir.file("v.csv"), FieldArray::costs, 4, 3); },
                ErrorKind::invalid_argument, {"v.csv", "use a .npy file"});
}

TEST_CASE("a background writer whose file stops growing: the error comes back, the file keeps whole pairs") {
    SEEDED_RNG(rng, "io/background limit");
    TempDir dir;
    const std::string path = dir.file("limited.npy");
    const int blocks = 8 * 6;
    std::vector<xme::MotionField> fields;
    for (int i = 0; i < 40; ++i) fields.push_back(random_field(8, 6, rng));
    const rlim_t limit =
        std::uniform_int_distribution<rlim_t>(128 + 4 * blocks * 4, 128 + 4 * blocks * 30)(rng);
    INFO("file size limit ", limit);
    int channel[2];
    REQUIRE(pipe(channel) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {  // a real file-size limit (EFBIG, as a full disk's ENOSPC), in a process of its own
        close(channel[0]);
        const rlimit size_limit{limit, limit};
        setrlimit(RLIMIT_FSIZE, &size_limit);
        signal(SIGXFSZ, SIG_IGN);
        std::string report;
        auto writer =
            xme::write_in_background(xme::open_field_array_writer(path, FieldArray::vectors, 8, 6), 4);
        int handed = 0;
        try {
            for (const auto& field : fields) {
                writer->write(handed + 1, field);
                ++handed;
            }
        } catch (const xme::Error& e) {
            report = "write " + std::string(e.what()) + "\n";
        }
        const std::int64_t whole = writer->settle();
        try {
            writer->finish(handed);
        } catch (const xme::Error& e) {
            report += "finish " + std::to_string(e.exit_code()) + " " + e.what() + "\n";
        }
        report = std::to_string(whole) + "\n" + report;
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
    INFO(report);
    const int whole = std::stoi(report.substr(0, report.find('\n')));
    CHECK(whole < 40);
    CHECK(report.find("finish 7 cannot write " + path + ": File too large") != std::string::npos);
    const std::string file = read_file(path);
    CHECK(file.size() == 128 + static_cast<std::size_t>(whole) * blocks * 4);
    CHECK(file.substr(0, 128).find("'shape': (" + std::to_string(whole) + ", 6, 8, 2)") != std::string::npos);
    CHECK(file.substr(128) == expected_data({fields.begin(), fields.begin() + whole}, FieldArray::vectors));
}

TEST_SUITE_END();
