// The AVMotionVector-shaped .mvs.npy (xme/mvs_io.hpp): every record field by field against the field
// written, for blocks and for chosen partitions, loadable with numpy; and its errors. Random fields from
// a seed printed per run.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "export_test_helpers.hpp"
#include "io_test_helpers.hpp"
#include "xme/mvs_io.hpp"

using namespace xme::test::io;
using xme::ErrorKind;
using xme::test::exports::MvsRecord;
using xme::test::exports::read_mvs_npy;

namespace {

xme::MotionField random_field(int width, int height, int block, std::mt19937_64& rng) {
    xme::MotionField field(width, height, block, {xme::Distortion::sad, false});
    std::uniform_int_distribution<int> mv(-32767, 32767);  // the whole int16 range: src's truncation
    for (auto& b : field.blocks) {
        b.mv_x = static_cast<std::int16_t>(mv(rng));
        b.mv_y = static_cast<std::int16_t>(mv(rng));
    }
    return field;
}

// What FFmpeg's convention makes of one block or partition (libavutil/motion_vector.h; dst the centre
// as its decoders and mestimate fill it, src = dst + motion / motion_scale in C's division).
void check_record(const MvsRecord& r, std::int64_t frame, int x, int y, int w, int h,
                  const xme::BlockMotion& b) {
    INFO("block at ", x, ",", y, " of ", w, "x", h, ", vector ", b.mv_x, ",", b.mv_y);
    CHECK(r.frame == frame);
    CHECK(r.source == -1);
    CHECK(r.w == w);
    CHECK(r.h == h);
    CHECK(r.dst_x == x + w / 2);
    CHECK(r.dst_y == y + h / 2);
    CHECK(r.motion_x == b.mv_x);
    CHECK(r.motion_y == b.mv_y);
    CHECK(r.motion_scale == 4);
    const int truncated_x = b.mv_x / 4;  // toward zero: -7 / 4 is -1
    CHECK(r.src_x == r.dst_x + truncated_x);
    CHECK(r.src_y == r.dst_y + b.mv_y / 4);
    CHECK(r.flags == 0);
}

}  // namespace

TEST_SUITE_BEGIN("io");

TEST_CASE(".mvs.npy: one AVMotionVector record per block, field by field, after every frame") {
    SEEDED_RNG(rng, "io/mvs blocks");
    TempDir dir;
    const std::string path = dir.file("v.mvs.npy");
    auto writer = xme::open_mvs_writer(path);
    const std::string staged = staged_path(path);  // where it is written until finished
    CHECK(read_mvs_npy(staged).empty());
    std::vector<std::pair<std::int64_t, xme::MotionField>> written;
    for (const int block : {4, 8, 16, 32}) {
        const int width = std::uniform_int_distribution<int>(1, 5 * block)(rng);
        const int height = std::uniform_int_distribution<int>(1, 5 * block)(rng);
        written.emplace_back(block + 1, random_field(width, height, block, rng));
        writer->write(written.back().first, written.back().second);
        const auto records = read_mvs_npy(staged);
        std::size_t i = 0;
        for (const auto& [frame, field] : written) {
            for (int by = 0; by < field.blocks_y; ++by) {
                for (int bx = 0; bx < field.blocks_x; ++bx, ++i) {
                    REQUIRE(i < records.size());
                    check_record(records[i], frame, bx * field.block_size, by * field.block_size,
                                 field.block_size, field.block_size, field.at(bx, by));
                }
            }
        }
        CHECK(i == records.size());
    }
    writer->finish(-1);
    if (std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0) {
        MESSAGE("skipped loading with numpy: /usr/bin/python3 with numpy is absent");
        return;
    }
    // numpy reads the same records: its sums of two fields against ours.
    long long motion_x = 0;
    long long src_y = 0;
    for (const auto& r : read_mvs_npy(path)) {
        motion_x += r.motion_x;
        src_y += r.src_y;
    }
    const std::string command =
        "/usr/bin/python3 -c \"import numpy, sys; a = numpy.load(sys.argv[1]); "
        "print(a.dtype.itemsize, a['motion_x'].sum(), a['src_y'].astype(int).sum())\" " +
        path;
    std::string output;
    if (std::FILE* pipe = popen(command.c_str(), "r")) {
        char buffer[256];
        while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
        pclose(pipe);
    }
    CHECK(output == "36 " + std::to_string(motion_x) + " " + std::to_string(src_y) + "\n");
}

TEST_CASE(".mvs.npy with partitions: one record per partition of each macroblock's chosen mode") {
    SEEDED_RNG(rng, "io/mvs partitions");
    TempDir dir;
    xme::MotionField field = random_field(std::uniform_int_distribution<int>(1, 80)(rng),
                                          std::uniform_int_distribution<int>(1, 80)(rng), 16, rng);
    std::uniform_int_distribution<int> mv(-300, 300);
    std::uniform_int_distribution<int> mode(0, 3);
    for (std::size_t i = 0; i < field.blocks.size(); ++i) {
        auto& macroblock = field.macroblocks.emplace_back();
        for (auto& p : macroblock.partitions)
            p = {static_cast<std::int16_t>(mv(rng)), static_cast<std::int16_t>(mv(rng)), 1, 1};
        macroblock.decision.mode = static_cast<xme::MacroblockMode>(mode(rng));
        for (auto& sub : macroblock.decision.sub_modes) sub = static_cast<xme::SubMode>(mode(rng));
        field.blocks[i] = macroblock.partitions[0];
    }
    const std::string path = dir.file("p.mvs.npy");
    xme::open_mvs_writer(path, xme::FieldLayout::partitions)->write(9, field);
    const auto records = read_mvs_npy(path);
    std::size_t i = 0;
    for (int by = 0; by < field.blocks_y; ++by) {
        for (int bx = 0; bx < field.blocks_x; ++bx) {
            const auto& macroblock = field.macroblocks[static_cast<std::size_t>(by * field.blocks_x + bx)];
            int area = 0;
            for (const int index :
                 xme::partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes)) {
                const xme::Partition& p = xme::macroblock_partitions[static_cast<std::size_t>(index)];
                REQUIRE(i < records.size());
                check_record(records[i++], 9, bx * 16 + p.x, by * 16 + p.y, p.width, p.height,
                             macroblock.partitions[static_cast<std::size_t>(index)]);
                area += p.width * p.height;
            }
            CHECK(area == 256);
        }
    }
    CHECK(i == records.size());
}

TEST_CASE(".mvs.npy errors: not .npy, unwritable, a field of the other layout") {
    SEEDED_RNG(rng, "io/mvs errors");
    TempDir dir;
    check_error([&] { (void)xme::open_mvs_writer(dir.file("v.mvs")); }, ErrorKind::invalid_argument,
                {"v.mvs", "NAME.mvs.npy"});
    check_error([&] { (void)xme::open_mvs_writer(dir.file("no/v.mvs.npy")); }, ErrorKind::io,
                {"no/v.mvs.npy", "No such file"});
    check_error(
        [&] {
            xme::open_mvs_writer(dir.file("p.mvs.npy"), xme::FieldLayout::partitions)
                ->write(3, random_field(40, 20, 16, rng));
        },
        ErrorKind::invalid_argument, {"frame 3", "p.mvs.npy", "partitions"});
}

TEST_SUITE_END();
