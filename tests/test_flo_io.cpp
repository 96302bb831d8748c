// The Middlebury .flo writer: one vector per pixel (each block's over its pixels, partial edge blocks
// included; with partitions the chosen one's), one file per frame, and its errors. Random fields from a
// seed printed per run.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <string>

#include "export_test_helpers.hpp"
#include "io_test_helpers.hpp"
#include "xme/field_io.hpp"

using namespace xme::test::io;
using xme::ErrorKind;
using xme::test::exports::read_flo;

namespace {

xme::MotionField random_field(int width, int height, int block, std::mt19937_64& rng) {
    xme::MotionField field(width, height, block, {xme::Distortion::satd, false});
    std::uniform_int_distribution<int> mv(-2048, 2047);
    for (auto& b : field.blocks) {
        b.mv_x = static_cast<std::int16_t>(mv(rng));
        b.mv_y = static_cast<std::int16_t>(mv(rng));
        b.cost = 1;
    }
    return field;
}

// The chosen partition of `macroblock` that covers pixel (x, y) of it, found the slow way.
const xme::BlockMotion& covering(const xme::MacroblockMotion& macroblock, int x, int y) {
    for (const int index : xme::partitions_of_mode(macroblock.decision.mode, macroblock.decision.sub_modes)) {
        const xme::Partition& p = xme::macroblock_partitions[static_cast<std::size_t>(index)];
        if (x >= p.x && x < p.x + p.width && y >= p.y && y < p.y + p.height)
            return macroblock.partitions[static_cast<std::size_t>(index)];
    }
    FAIL("no chosen partition covers ", x, ",", y);
    return macroblock.partitions[0];
}

// Every pixel of `path` against `field` (block or chosen partition), in pixels.
void check_flow(const std::string& path, const xme::MotionField& field, int width, int height) {
    const xme::test::exports::Flow flow = read_flo(path);
    REQUIRE(flow.width == width);
    REQUIRE(flow.height == height);
    int wrong = 0;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const int bx = x / field.block_size;
            const int by = y / field.block_size;
            const xme::BlockMotion& b =
                field.macroblocks.empty()
                    ? field.at(bx, by)
                    : covering(field.macroblocks[static_cast<std::size_t>(by * field.blocks_x + bx)],
                               x % field.block_size, y % field.block_size);
            if (flow.u(x, y) != static_cast<float>(b.mv_x) / 4 ||
                flow.v(x, y) != static_cast<float>(b.mv_y) / 4) {
                if (++wrong <= 3)
                    INFO("pixel ", x, ",", y, ": ", flow.u(x, y), ",", flow.v(x, y), " for ", b.mv_x, ",",
                         b.mv_y);
            }
        }
    }
    CHECK(wrong == 0);
}

}  // namespace

TEST_SUITE_BEGIN("io");

TEST_CASE(".flo: one file per frame, each pixel its block's vector / 4, partial edge blocks included") {
    SEEDED_RNG(rng, "io/flo blocks");
    TempDir dir;
    for (const int block : {4, 8, 16, 32}) {
        // Sizes that are rarely multiples of the block: partial blocks at the right and bottom.
        const int width = std::uniform_int_distribution<int>(1, 3 * block + 5)(rng);
        const int height = std::uniform_int_distribution<int>(1, 3 * block + 5)(rng);
        INFO("block ", block, ", frame ", width, "x", height);
        const std::string pattern = dir.file("b" + std::to_string(block) + "_%03d.flo");
        CHECK(xme::names_one_file_per_frame(pattern));
        auto writer = xme::open_field_writer(pattern, xme::FieldLayout::blocks, {width, height});
        for (const int frame : {1, 12}) {
            const xme::MotionField field = random_field(width, height, block, rng);
            writer->write(frame, field);
            char name[32];
            std::snprintf(name, sizeof name, "b%d_%03d.flo", block, frame);
            check_flow(dir.file(name), field, width, height);
        }
    }
    // Without a number the name is one file, holding one field.
    const std::string single = dir.file("100%%.flo");
    CHECK(!xme::names_one_file_per_frame(single));
    const xme::MotionField field = random_field(19, 7, 8, rng);
    auto writer = xme::open_field_writer(single, xme::FieldLayout::blocks, {19, 7});
    writer->write(3, field);
    check_flow(dir.file("100%.flo"), field, 19, 7);
    CHECK(!std::filesystem::exists(dir.file("100%%.flo")));
    check_error([&] { writer->write(4, field); }, ErrorKind::invalid_argument,
                {"100%.flo", "holds one field", "frame 3", "flow_%04d.flo"});
}

TEST_CASE(".flo with partitions: each pixel the vector of the chosen mode's partition covering it") {
    SEEDED_RNG(rng, "io/flo partitions");
    TempDir dir;
    const int width = std::uniform_int_distribution<int>(17, 70)(rng);
    const int height = std::uniform_int_distribution<int>(17, 70)(rng);
    INFO("frame ", width, "x", height);
    xme::MotionField field = random_field(width, height, 16, rng);
    std::uniform_int_distribution<int> mv(-256, 256);
    std::uniform_int_distribution<int> mode(0, 3);
    for (std::size_t i = 0; i < field.blocks.size(); ++i) {
        xme::MacroblockMotion& macroblock = field.macroblocks.emplace_back();
        for (auto& partition : macroblock.partitions)
            partition = {static_cast<std::int16_t>(mv(rng)), static_cast<std::int16_t>(mv(rng)), 1, 1};
        macroblock.decision.mode = static_cast<xme::MacroblockMode>(mode(rng));
        for (auto& sub : macroblock.decision.sub_modes) sub = static_cast<xme::SubMode>(mode(rng));
        field.blocks[i] = macroblock.partitions[0];
    }
    const std::string path = dir.file("p.flo");
    xme::open_field_writer(path, xme::FieldLayout::partitions, {width, height})->write(1, field);
    check_flow(path, field, width, height);
}

TEST_CASE(".flo errors: bad patterns, no frame size, wrong field, unwritable folder, failed write") {
    SEEDED_RNG(rng, "io/flo errors");
    TempDir dir;
    const xme::LumaSize size{33, 17};
    for (const std::string bad : {"a%s.flo", "a%d_%d.flo", "a%123d.flo", "a%.flo", "a%-4d.flo"}) {
        INFO(bad);
        check_error([&] { (void)xme::names_one_file_per_frame(dir.file(bad)); }, ErrorKind::invalid_argument,
                    {bad, "%0Nd"});
        check_error([&] { (void)xme::open_field_writer(dir.file(bad), xme::FieldLayout::blocks, size); },
                    ErrorKind::invalid_argument, {bad, "flow_%04d.flo"});
    }
    check_error(
        [&] { (void)xme::open_field_writer(dir.file("dir%d/f.flo"), xme::FieldLayout::blocks, size); },
        ErrorKind::invalid_argument, {"folder"});
    check_error([&] { (void)xme::open_field_writer(dir.file("f.flo")); }, ErrorKind::invalid_argument,
                {"f.flo", "frames' size"});
    check_error(
        [&] { (void)xme::open_field_writer(dir.file("no/f_%d.flo"), xme::FieldLayout::blocks, size); },
        ErrorKind::io, {"no/f_%d.flo", "No such file"});
    check_error([&] { (void)xme::open_field_writer(dir.file("no/f.flo"), xme::FieldLayout::blocks, size); },
                ErrorKind::io, {"no/f.flo", "No such file"});

    auto writer = xme::open_field_writer(dir.file("f_%d.flo"), xme::FieldLayout::blocks, size);
    check_error([&] { writer->write(1, random_field(32, 17, 8, rng)); }, ErrorKind::invalid_argument,
                {"frame 1", "4x3 blocks of 8", "33x17"});
    check_error(
        [&] {
            xme::open_field_writer(dir.file("p_%d.flo"), xme::FieldLayout::partitions, size)
                ->write(2, random_field(33, 17, 16, rng));
        },
        ErrorKind::invalid_argument, {"frame 2", "partitions"});

    // A full disk (a device, written in place): the message says the field is not written, and the
    // path stays what it was (xme/staged_file.hpp).
    std::filesystem::create_symlink("/dev/full", dir.file("f_7.flo"));
    check_error([&] { writer->write(7, random_field(33, 17, 8, rng)); }, ErrorKind::io,
                {"f_7.flo", "No space left on device", "not written"});
    CHECK(std::filesystem::read_symlink(dir.file("f_7.flo")) == "/dev/full");
    CHECK(staged_path(dir.file("f_7.flo")).empty());
    writer->write(8, random_field(33, 17, 8, rng));  // the next frame is written as before
    CHECK(read_flo(dir.file("f_8.flo")).width == 33);
}

TEST_SUITE_END();
