// `xme estimate --export-mvs v.mvs.npy` end to end: each record field by field against the same run's
// -o .npy rows (FFmpeg's convention: dst the block's centre, motion xme's vector, src = dst + motion / 4),
// on the real clip, on random frames and with partitions; and the refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <tuple>

#include "cli_test_helpers.hpp"
#include "export_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/video.hpp"

namespace {

using namespace xme::test::cli;
using xme::test::exports::read_mvs_npy;
using xme::test::exports::read_vectors_npy;
namespace fs = std::filesystem;

// Runs `options` with -o v.npy and --export-mvs v.mvs.npy and checks every record against its row
// (with partitions, the chosen rows, in order). Returns how many records have a non-zero vector.
int check_mvs_against_npy(const std::string& options, const fs::path& dir, int block, bool partitions) {
    const Run run = run_xme(options + " -o " + (dir / "v.npy").string() + " --export-mvs " +
                            (dir / "v.mvs.npy").string());
    INFO(options, ": ", run.output);
    REQUIRE(run.exit_code == 0);
    auto rows = read_vectors_npy((dir / "v.npy").string(), partitions ? 15 : 9);
    auto records = read_mvs_npy((dir / "v.mvs.npy").string());
    if (partitions) {
        // The chosen rows; the records list a macroblock's partitions in its mode's order (quadrant by
        // quadrant), the rows by index: both sorted by frame and centre (the chosen ones tile the frame).
        std::erase_if(rows, [](const auto& row) { return row[14] == 0; });
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return std::tuple(a[0], 2 * a[11] + a[13], 2 * a[10] + a[12]) <
                   std::tuple(b[0], 2 * b[11] + b[13], 2 * b[10] + b[12]);
        });
        std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
            return std::tuple(a.frame, a.dst_y, a.dst_x) < std::tuple(b.frame, b.dst_y, b.dst_x);
        });
    }
    REQUIRE(records.size() == rows.size());
    REQUIRE(!rows.empty());
    int moving = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const auto& r = records[i];
        const int x = partitions ? row[10] : row[1];
        const int y = partitions ? row[11] : row[2];
        const int w = partitions ? row[12] : block;
        const int h = partitions ? row[13] : block;
        INFO("row ", i, ": frame ", row[0], " at ", x, ",", y, " vector ", row[3], ",", row[4]);
        CHECK(r.frame == row[0]);
        CHECK(r.source == -1);
        CHECK(r.w == w);
        CHECK(r.h == h);
        CHECK(r.dst_x == x + w / 2);
        CHECK(r.dst_y == y + h / 2);
        CHECK(r.motion_x == row[3]);
        CHECK(r.motion_y == row[4]);
        CHECK(r.motion_scale == 4);
        CHECK(r.src_x == r.dst_x + row[3] / 4);
        CHECK(r.src_y == r.dst_y + row[4] / 4);
        CHECK(r.flags == 0);
        moving += row[3] != 0 || row[4] != 0 ? 1 : 0;
    }
    return moving;
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("estimate --export-mvs: the real clip's records match its vectors field by field") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("mvs_clip");
        CHECK(check_mvs_against_npy("estimate " + real_clip() +
                                        " --frames 4 --range 4 --block 32 --subpel qpel --backend cpu -q",
                                    dir, 32, false) > 0);
        const fs::path partitions = dir / "partitions";
        fs::create_directories(partitions);
        CHECK(check_mvs_against_npy(
                  "estimate " + real_clip() +
                      " --start 4 --frames 3 --range 4 --algo fs+p41+qpel --qp 28 --backend cpu -q",
                  partitions, 16, true) > 0);
    }

    TEST_CASE("estimate --export-mvs on random frames: records match the vectors field by field") {
        auto rng = xme::test::rng_for("cli mvs random");
        INFO("XME_TEST_SEED=", xme::test::run_seed());
        const fs::path dir = scratch_dir("mvs_random");
        const int width = std::uniform_int_distribution<int>(20, 70)(rng);
        const int height = std::uniform_int_distribution<int>(20, 70)(rng);
        INFO(width, "x", height);
        const std::string clip = (dir / "noise.y4m").string();
        {
            xme::Y4mWriter writer(clip, width, height, xme::ChromaFormat::mono);
            std::uniform_int_distribution<int> byte(0, 255);
            for (int t = 0; t < 3; ++t) {
                xme::Frame frame = xme::make_frame(width, height, xme::ChromaFormat::mono);
                for (int y = 0; y < height; ++y)
                    for (int x = 0; x < width; ++x)
                        frame.luma.at(x, y) = static_cast<std::uint8_t>(byte(rng));
                writer.write(frame);
            }
        }
        CHECK(check_mvs_against_npy(
                  "estimate " + clip + " --block 8 --range 6 --subpel hpel --backend cpu -q", dir, 8, false) >
              0);
    }

    TEST_CASE("estimate --export-mvs refuses another extension and a file named twice") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("mvs_refusals");
        const std::string common = "estimate " + real_clip() + " --frames 2 --export-mvs ";
        check_refusals({{common + (dir / "v.mvs").string(), "name it NAME.mvs.npy"},
                        {common + (dir / "v.npy").string() + " -o " + (dir / "v.npy").string(),
                         " and --export-mvs " + (dir / "v.npy").string() + " name the same file"},
                        {common + "''", "--export-mvs is given an empty value"}});
    }
}
