// `xme estimate --vector-array v.npy --cost-array c.npy --candidate-array n.npy` end to end: each array
// element by element against the same run's -o .npy rows, on the real clip and on random frames; and the
// refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>

#include "cli_test_helpers.hpp"
#include "export_test_helpers.hpp"
#include "test_support.hpp"
#include "xme/video.hpp"

namespace {

using namespace xme::test::cli;
using xme::test::exports::file_bytes;
using xme::test::exports::le32;
using xme::test::exports::read_vectors_npy;
namespace fs = std::filesystem;

std::int16_t le16(const std::string& bytes, std::size_t offset) {
    return static_cast<std::int16_t>(static_cast<unsigned char>(bytes[offset]) |
                                     (static_cast<unsigned char>(bytes[offset + 1]) << 8));
}

// Runs `options` with -o rows.npy and the three arrays, and checks every element against its row.
void check_arrays_against_rows(const std::string& options, const fs::path& dir, int blocks_x, int blocks_y) {
    const Run run = run_xme(options + " -o " + (dir / "rows.npy").string() + " --vector-array " +
                            (dir / "v.npy").string() + " --cost-array " + (dir / "c.npy").string() +
                            " --candidate-array " + (dir / "n.npy").string());
    INFO(options, ": ", run.output);
    REQUIRE(run.exit_code == 0);
    const auto rows = read_vectors_npy((dir / "rows.npy").string(), 9);
    const std::size_t blocks = static_cast<std::size_t>(blocks_x) * static_cast<std::size_t>(blocks_y);
    REQUIRE(!rows.empty());
    REQUIRE(rows.size() % blocks == 0);
    const std::size_t pairs = rows.size() / blocks;
    const std::string vectors = file_bytes((dir / "v.npy").string());
    const std::string costs = file_bytes((dir / "c.npy").string());
    const std::string candidates = file_bytes((dir / "n.npy").string());
    const std::string shape =
        std::to_string(pairs) + ", " + std::to_string(blocks_y) + ", " + std::to_string(blocks_x);
    CHECK(vectors.substr(0, 128).find("'<i2', 'fortran_order': False, 'shape': (" + shape + ", 2)") !=
          std::string::npos);
    CHECK(costs.substr(0, 128).find("'<u4', 'fortran_order': False, 'shape': (" + shape + ")") !=
          std::string::npos);
    REQUIRE(vectors.size() == 128 + rows.size() * 4);
    REQUIRE(costs.size() == 128 + rows.size() * 4);
    REQUIRE(candidates.size() == 128 + rows.size() * 4);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        INFO("row ", i);
        CHECK(row[0] == rows[0][0] + static_cast<std::int32_t>(i / blocks));  // pair k: first frame + k
        CHECK(le16(vectors, 128 + 4 * i) == row[3]);
        CHECK(le16(vectors, 128 + 4 * i + 2) == row[4]);
        CHECK(le32(costs, 128 + 4 * i) == static_cast<std::uint32_t>(row[5]));
        CHECK(le32(candidates, 128 + 4 * i) == static_cast<std::uint32_t>(row[8]));
    }
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE(
        "estimate --vector-array, --cost-array, --candidate-array: the real clip's arrays match its rows") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("cli field arrays clip");
        INFO("XME_TEST_SEED=", xme::test::run_seed());
        const xme::VideoInfo video = xme::open_video(real_clip())->info();
        // A container's frame count is a claim (tree.avi's says 327 of its 68): the first 60 frames are real.
        const auto last_start = static_cast<int>(std::clamp<std::int64_t>(video.frame_count - 6, 0, 60));
        const int start = std::uniform_int_distribution<int>(0, last_start)(rng);
        const char* chains[] = {"--algo hex+qpel --qp 28", "--algo fs+hpel --range 8",
                                "--algo tz --predictor temporal"};
        const std::string chain = chains[std::uniform_int_distribution<int>(0, 2)(rng)];
        check_arrays_against_rows("estimate " + real_clip() + " --start " + std::to_string(start) +
                                      " --frames 5 --block 16 --backend cpu -q " + chain,
                                  scratch_dir("arrays_clip"), (video.width + 15) / 16,
                                  (video.height + 15) / 16);
    }

    TEST_CASE("estimate --vector-array on random frames of any size: the arrays match the rows") {
        auto rng = xme::test::rng_for("cli field arrays random");
        INFO("XME_TEST_SEED=", xme::test::run_seed());
        const fs::path dir = scratch_dir("arrays_random");
        const int width = std::uniform_int_distribution<int>(9, 90)(rng);
        const int height = std::uniform_int_distribution<int>(9, 90)(rng);
        INFO(width, "x", height);
        const std::string clip = (dir / "noise.y4m").string();
        {
            xme::Y4mWriter writer(clip, width, height, xme::ChromaFormat::mono);
            std::uniform_int_distribution<int> byte(0, 255);
            for (int t = 0; t < 4; ++t) {
                xme::Frame frame = xme::make_frame(width, height, xme::ChromaFormat::mono);
                for (int y = 0; y < height; ++y)
                    for (int x = 0; x < width; ++x)
                        frame.luma.at(x, y) = static_cast<std::uint8_t>(byte(rng));
                writer.write(frame);
            }
        }
        check_arrays_against_rows("estimate " + clip + " --block 8 --range 6 --subpel qpel --backend cpu -q",
                                  dir, (width + 7) / 8, (height + 7) / 8);
    }

    TEST_CASE(
        "estimate --vector-array refuses partitions, another extension, a file named twice, --read-only") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("arrays_refusals");
        const std::string common = "estimate " + real_clip() + " --frames 2 ";
        const std::string v = (dir / "v.npy").string();
        check_refusals({{common + "--vector-array " + (dir / "v.csv").string(), "use a .npy file"},
                        {common + "--vector-array " + v + " --cost-array " + v,
                         "--vector-array " + v + " and --cost-array " + v},
                        {common + "--candidate-array " + v + " --read-only", "--read-only estimates nothing"},
                        {common + "--cost-array ''", "--cost-array is given an empty value"}});
        const Run partitions = run_xme(common + "--algo fs+p41 --vector-array " + v);
        CHECK(partitions.exit_code == 4);
        CHECK(contains(partitions.output, "with partitions (SPEC §9) use -o"));
        CHECK(!fs::exists(v));
    }
}
