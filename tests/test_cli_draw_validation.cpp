// `xme draw` checks its vectors file against what `xme estimate -o` writes and the video it is drawn
// over (xme(1), `xme draw`), refusing with exit 3 what cannot be drawn, in bounded time: frame indices
// below 1 (a field is frame k's, estimated against frame k - 1), vectors beyond SPEC §3's int16,
// partitions that are not SPEC §9's, more rows than any grid over the video, lines without end. And
// the outputs it names: a video as .avi, and --draw's own name in --draw's messages.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_helpers.hpp"
#include "test_support.hpp"

#ifdef XME_TEST_HAVE_FFMPEG
#include "picture_reader.hpp"
#endif

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

#ifdef XME_TEST_HAVE_FFMPEG

// A CSV `xme estimate -o` wrote, as its header and rows of fields.
struct Csv {
    std::string header;
    std::vector<std::vector<std::string>> rows;
};

Csv read_csv(const fs::path& path) {
    Csv csv;
    std::istringstream in(read_file(path));
    std::getline(in, csv.header);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields;
        std::istringstream row(line);
        for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
        csv.rows.push_back(fields);
    }
    return csv;
}

void write_csv(const fs::path& path, const Csv& csv) {
    std::ofstream out(path);
    out << csv.header << "\n";
    for (const auto& row : csv.rows) {
        for (std::size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << row[i];
        out << "\n";
    }
}

// Runs `xme draw ARGUMENTS` and checks it is refused with exit 3 saying each of `says`, within
// `seconds` (a file that is not drawable must not make the drawing run away).
void check_undrawable(const std::string& arguments, const std::vector<std::string>& says,
                      double seconds = 20) {
    const auto started = std::chrono::steady_clock::now();
    const Run run = run_xme("draw " + arguments);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    INFO(arguments, " -> ", run.output);
    CHECK(run.exit_code == 3);
    for (const std::string& part : says) CHECK(contains(run.output, part));
    CHECK(took < seconds);
}

// A fresh folder: the checks below look at what each run left.
fs::path fresh_dir(const std::string& name) {
    const fs::path dir = scratch_dir(name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

#endif

}  // namespace

TEST_SUITE("cli") {
#ifdef XME_TEST_HAVE_FFMPEG
    TEST_CASE("draw refuses a frame index below 1 (exit 3) and draws no picture, nor shifts later frames") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("draw frame indices");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = fresh_dir("draw-frames");
        const std::string clip = real_clip();
        std::uniform_int_distribution<int> start(0, 20);
        const int first = 1 + start(rng);  // the first pair's current frame
        REQUIRE(run_xme("estimate " + clip + " --start " + std::to_string(first - 1) +
                        " --frames 3 --range 2 -q -o " + (dir / "v.csv").string())
                    .exit_code == 0);
        Csv csv = read_csv(dir / "v.csv");
        REQUIRE(csv.rows.size() > 2);
        REQUIRE(csv.rows.front()[0] == std::to_string(first));
        // Every index shifted down so that the first is 0 or negative: xme never writes such a frame.
        std::uniform_int_distribution<int> below(0, 1000);
        const int shift = first + below(rng);
        for (auto& row : csv.rows) row[0] = std::to_string(std::stoi(row[0]) - shift);
        write_csv(dir / "shifted.csv", csv);
        check_undrawable(
            clip + " --vectors " + (dir / "shifted.csv").string() + " -o " + (dir / "n_%02d.png").string(),
            {"shifted.csv, line 2: frame " + std::to_string(first - shift) + " has no field",
             "so the first is 1"});
        for (const auto& entry : fs::directory_iterator(dir)) CHECK(entry.path().extension() != ".png");

        // A zero field labelled frame k is drawn over frame k's own picture (not k + 1's): the PNG is
        // that frame's luma, as gray.
        const int k = first + 1;
        Csv zero = read_csv(dir / "v.csv");
        std::vector<std::vector<std::string>> rows;
        for (auto row : zero.rows) {
            if (row[0] != std::to_string(k)) continue;
            row[3] = row[4] = "0";
            rows.push_back(row);
        }
        zero.rows = rows;
        write_csv(dir / "zero.csv", zero);
        const Run drawn = run_xme("draw " + clip + " --vectors " + (dir / "zero.csv").string() + " -o " +
                                  (dir / "k.png").string());
        INFO(drawn.output);
        REQUIRE(drawn.exit_code == 0);
        const auto luma = xme::test::clip_luma("tree.avi", k + 2, 0, 0, 320, 240);
        REQUIRE(luma.has_value());
        const auto pictures = xme::test::decode_pictures((dir / "k.png").string());
        REQUIRE(pictures.size() == 1);
        int differing_k = 0, differing_next = 0;
        for (int y = 0; y < 240; ++y) {
            for (int x = 0; x < 320; ++x) {
                const int value = pictures[0].at(x, y)[0];
                differing_k += value != (*luma)[static_cast<std::size_t>(k)].view().at(x, y);
                differing_next += value != (*luma)[static_cast<std::size_t>(k + 1)].view().at(x, y);
            }
        }
        CHECK(differing_k == 0);
        CHECK(differing_next > 0);
    }

    TEST_CASE("draw refuses vectors beyond int16, in CSV and NPY, at once with either style") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("draw huge vectors");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = fresh_dir("draw-vectors");
        const std::string clip = real_clip();
        REQUIRE(run_xme("estimate " + clip + " --frames 3 --range 2 -q -o " + (dir / "v.csv").string())
                    .exit_code == 0);
        REQUIRE(run_xme("estimate " + clip + " --frames 3 --range 2 -q -o " + (dir / "v.npy").string())
                    .exit_code == 0);
        Csv csv = read_csv(dir / "v.csv");
        std::uniform_int_distribution<std::size_t> which(0, csv.rows.size() - 1);
        std::uniform_int_distribution<std::int64_t> beyond(32768, 2'147'483'647);
        std::bernoulli_distribution negative(0.5), column(0.5);
        const std::size_t row = which(rng);
        const std::int64_t value = negative(rng) ? -beyond(rng) - 1 : beyond(rng);
        csv.rows[row][column(rng) ? 3 : 4] = std::to_string(value);
        write_csv(dir / "huge.csv", csv);
        for (const std::string style : {"flow", "arrows"}) {
            check_undrawable(clip + " --vectors " + (dir / "huge.csv").string() + " --style " + style +
                                 " -o " + (dir / "h_%02d.png").string(),
                             {"huge.csv, line " + std::to_string(row + 2) + ": the vector",
                              "is beyond any frame's reach", "-32768..32767 (SPEC §3)"});
        }

        // The same in the NPY: one int32 in the data, after the header.
        std::string npy = read_file(dir / "v.npy");
        REQUIRE(npy.size() > 10);
        const std::size_t header =
            10 + (static_cast<unsigned char>(npy[8]) | static_cast<unsigned char>(npy[9]) << 8);
        const std::size_t rows = (npy.size() - header) / (9 * 4);
        std::uniform_int_distribution<std::size_t> npy_row(0, rows - 1);
        const std::size_t r = npy_row(rng);
        const auto bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(value));
        for (int i = 0; i < 4; ++i)
            npy[header + (r * 9 + 3) * 4 + static_cast<std::size_t>(i)] = static_cast<char>(bits >> (8 * i));
        std::ofstream(dir / "huge.npy", std::ios::binary) << npy;
        check_undrawable(clip + " --vectors " + (dir / "huge.npy").string() + " --style flow -o " +
                             (dir / "n_%02d.png").string(),
                         {"huge.npy, row " + std::to_string(r) + ": the vector (" + std::to_string(value)});
    }

    TEST_CASE("draw refuses partitions that are not SPEC §9's, and more rows than any grid has") {
        if (real_clip_missing()) return;
        auto rng = xme::test::rng_for("draw partitions");
        INFO("seed ", xme::test::run_seed());
        const fs::path dir = fresh_dir("draw-partitions");
        const std::string clip = real_clip();
        REQUIRE(run_xme("estimate " + clip + " --frames 2 --range 1 --partitions all -q -o " +
                        (dir / "p.csv").string())
                    .exit_code == 0);
        const Csv original = read_csv(dir / "p.csv");
        std::uniform_int_distribution<std::size_t> which(0, original.rows.size() - 1);
        std::uniform_int_distribution<std::int64_t> big(17, 2'000'000'000);
        std::uniform_int_distribution<int> index(41, 1000);
        struct Damage {
            std::size_t column;
            std::string value;
            std::string says;
        };
        const Damage damages[] = {
            {12, std::to_string(big(rng)), "where SPEC §9's partition"},   // width
            {13, std::to_string(big(rng)), "where SPEC §9's partition"},   // height
            {10, std::to_string(-big(rng)), "where SPEC §9's partition"},  // part_x
            {9, std::to_string(index(rng)), "is not one of SPEC §9's 0..40"},
            {14, std::to_string(2 + index(rng)), "not 0 or 1"},
        };
        for (const Damage& damage : damages) {
            Csv csv = original;
            const std::size_t row = which(rng);
            csv.rows[row][damage.column] = damage.value;
            write_csv(dir / "bad.csv", csv);
            for (const std::string style : {"flow", "arrows"}) {
                check_undrawable(clip + " --vectors " + (dir / "bad.csv").string() +
                                     " --partitions --style " + style + " -o " + (dir / "b.png").string(),
                                 {"bad.csv, line " + std::to_string(row + 2) + ": ", damage.says});
            }
        }
        // A macroblock with one partition twice and another missing: as many rows and macroblocks as
        // the grid has, but not each macroblock's 41 partitions once.
        Csv twice = original;
        std::uniform_int_distribution<std::size_t> partition(1, 40);
        twice.rows[partition(rng)] = twice.rows[0];
        write_csv(dir / "twice.csv", twice);
        check_undrawable(
            clip + " --vectors " + (dir / "twice.csv").string() + " -o " + (dir / "t.png").string(),
            {"does not fit"});

        // Rows beyond any grid over 320x240 (4800 blocks of 4x4) are refused as they are read.
        std::uniform_int_distribution<int> extra(1, 200000);
        std::string blocks = "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates\n";
        const int count = 4800 + extra(rng);
        for (int i = 0; i < count; ++i) blocks += "1,0,0,0,0,0,1,sad,1\n";
        std::ofstream(dir / "many.csv") << blocks;
        check_undrawable(
            clip + " --vectors " + (dir / "many.csv").string() + " -o " + (dir / "m.png").string(),
            {"frame 1 has more than 4800 rows"});

        // A file without line ends is refused at its first long line, not read whole.
        std::string line(static_cast<std::size_t>(2'000'000 + extra(rng)), '7');
        std::ofstream(dir / "endless.csv") << "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates\n"
                                           << line;
        check_undrawable(
            clip + " --vectors " + (dir / "endless.csv").string() + " -o " + (dir / "e.png").string(),
            {"line 2 is longer than any row xme writes"});
    }

    TEST_CASE("draw writes .avi as xme(1) says, and --draw's messages name --draw") {
        if (real_clip_missing()) return;
        const fs::path dir = fresh_dir("draw-outputs");
        const std::string clip = real_clip();
        REQUIRE(run_xme("estimate " + clip + " --frames 3 --range 2 -q -o " + (dir / "v.csv").string())
                    .exit_code == 0);
        const Run avi = run_xme("draw " + clip + " --vectors " + (dir / "v.csv").string() + " -q -o " +
                                (dir / "x.avi").string());
        INFO(avi.output);
        REQUIRE(avi.exit_code == 0);
        CHECK(xme::test::decode_pictures((dir / "x.avi").string()).size() == 2);
        const Run estimate_avi =
            run_xme("estimate " + clip + " --frames 3 --range 2 -q --draw " + (dir / "e.avi").string());
        INFO(estimate_avi.output);
        CHECK(estimate_avi.exit_code == 0);

        const Run unknown = run_xme("estimate " + clip + " --frames 3 -q --draw " + (dir / "d.xyz").string());
        INFO(unknown.output);
        CHECK(unknown.exit_code == 2);
        CHECK(contains(unknown.output, "xme: error: --draw " + (dir / "d.xyz").string() +
                                           ": FFmpeg knows no container by that extension"));
        CHECK_FALSE(contains(unknown.output, "-o "));
    }
#endif
}
