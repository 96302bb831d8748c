// `xme estimate --prediction --residual --transform --coefficients` end to end (SPEC §12-§13): the files
// hold what the run computed (prediction + residual is the current frame; the coefficients are the
// residual's DCT), the JSON's figures agree with them, and bad combinations are refused.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_helpers.hpp"
#include "xme/dct.hpp"
#include "xme/video.hpp"

namespace {

using namespace xme::test::cli;
namespace fs = std::filesystem;

// An int16 NPY file's shape text and values.
struct Int16Array {
    std::string header;
    std::vector<std::int16_t> values;
};

Int16Array read_int16_npy(const fs::path& path) {
    const std::string bytes = read_file(path);
    REQUIRE(bytes.size() >= 10);
    const auto header_length = static_cast<std::size_t>(static_cast<unsigned char>(bytes[8]) |
                                                        static_cast<unsigned char>(bytes[9]) << 8);
    Int16Array array;
    array.header = bytes.substr(10, header_length);
    const std::size_t data = 10 + header_length;
    array.values.resize((bytes.size() - data) / 2);
    for (std::size_t i = 0; i < array.values.size(); ++i) {
        const auto low = static_cast<unsigned char>(bytes[data + 2 * i]);
        const auto high = static_cast<unsigned char>(bytes[data + 2 * i + 1]);
        array.values[i] = static_cast<std::int16_t>(static_cast<std::uint16_t>(low | high << 8));
    }
    return array;
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("estimate writes the prediction, the residual and its DCT, and reports their figures") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("compensation");
        const Run run =
            run_xme("estimate " + real_clip() + " --frames 3 --algo fs+p41+qpel --qp 28 --range 4 " +
                    "--prediction " + (dir / "pred.y4m").string() + " --residual " +
                    (dir / "res.npy").string() + " --transform loeffler --qstep 1 --coefficients " +
                    (dir / "coef.npy").string() + " --json " + (dir / "run.json").string());
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        auto input = xme::open_video(real_clip(), {});
        auto predictions = xme::open_video((dir / "pred.y4m").string(), {});
        const int width = input->info().width;
        const int height = input->info().height;
        const auto pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
        const Int16Array residual = read_int16_npy(dir / "res.npy");
        const Int16Array coefficients = read_int16_npy(dir / "coef.npy");
        const std::string shape = "(2, " + std::to_string(height) + ", " + std::to_string(width) + ")";
        CHECK(residual.header.find(shape) != std::string::npos);
        CHECK(residual.header.find("'<i2'") != std::string::npos);
        CHECK(coefficients.header.find(shape) != std::string::npos);
        REQUIRE(residual.values.size() == 2 * pixels);
        REQUIRE(coefficients.values.size() == 2 * pixels);
        const auto summary = nlohmann::json::parse(read_file(dir / "run.json"));
        REQUIRE(input->read_frame());
        for (std::size_t pair = 0; pair < 2; ++pair) {
            const auto current = input->read_frame();
            const auto prediction = predictions->read_frame();
            REQUIRE(current);
            REQUIRE(prediction);
            std::uint64_t abs_sum = 0;
            bool adds_up = true;
            xme::Int16Plane plane(width, height);
            for (int y = 0; y < height; ++y) {
                for (int x = 0; x < width; ++x) {
                    const std::int16_t r =
                        residual.values[pair * pixels + static_cast<std::size_t>(y * width + x)];
                    adds_up =
                        adds_up && prediction->luma.view().at(x, y) + r == current->luma.view().at(x, y);
                    abs_sum += static_cast<std::uint64_t>(r < 0 ? -r : r);
                    plane.at(x, y) = r;
                }
            }
            CHECK(adds_up);
            const auto& frame = summary["frames"][pair];
            CHECK(frame["residual_abs_sum"].get<std::uint64_t>() == abs_sum);
            CHECK(abs_sum > 0);
            const xme::Int16Plane expected =
                xme::reference::forward_transform_plane(plane, xme::TransformAlgorithm::loeffler);
            CHECK(std::memcmp(expected.values.data(), coefficients.values.data() + pair * pixels,
                              2 * pixels) == 0);
            // Step 1 keeps every coefficient: what is lost is the transforms' rounding only.
            CHECK(frame["transform"]["zero_fraction"].get<double>() < 0.9);
            CHECK(frame["transform"]["reconstruction_psnr_db"].get<double>() > 45.0);
            CHECK(frame["prediction_psnr_db"] == frame["mc_psnr_db"]);
        }
    }

    TEST_CASE("the residual as a picture: .y4m with 128 added and clipped; bad combinations refused") {
        if (real_clip_missing()) return;
        const fs::path dir = scratch_dir("compensation_view");
        const Run view = run_xme("estimate " + real_clip() + " --frames 2 --residual " +
                                 (dir / "res.y4m").string() + " --quiet");
        INFO(view.output);
        REQUIRE(view.exit_code == 0);
        CHECK(read_file(dir / "res.y4m").starts_with("YUV4MPEG2 "));
        const std::string common = "estimate " + real_clip() + " --frames 2 ";
        check_refusals({{common + "--coefficients c.npy", "add --transform"},
                        {common + "--qstep 8", "add --transform"},
                        {common + "--transform dct", "use matrix or loeffler"},
                        {common + "--transform matrix --qstep 5000", "from 1 to 4096"},
                        {common + "--residual r.png", "use .npy (int16, exact) or .y4m"},
                        {common + "--prediction p.npy", "use a .y4m file"}});
    }

    TEST_CASE("bench --transforms times each DCT variant both ways beside memcpy's bandwidth") {
        const Run run = run_xme(
            "bench --sizes 64x48 --backends cpu --algos fs --blocks 16 --pairs 1 --threads 1 "
            "--no-sad-peak --transforms loeffler,matrix");
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        CHECK(run.output.find("memcpy") != std::string::npos);
        for (const std::string variant : {"loeffler", "matrix"}) {
            for (const std::string direction : {"forward", "inverse"}) {
                int rows = 0;
                for (const auto& line : lines_of(run.output)) {
                    if (line.starts_with(variant) && line.find("64x48") != std::string::npos &&
                        line.find(direction) != std::string::npos)
                        ++rows;
                }
                CHECK_MESSAGE(rows == 1, variant, " ", direction);
            }
        }
        check_refusals({{"bench --sizes 64x48 --backends cpu --pairs 1 --no-sad-peak --transforms dct",
                         "use matrix or loeffler"}});
    }

    TEST_CASE("bench --compensate times the search with the compensation chained after it") {
        const Run run = run_xme(
            "bench --sizes 64x48 --backends cpu --variants portable --algos ehds --blocks 16 --pairs 2 "
            "--threads 1 --no-sad-peak --compensate loeffler");
        INFO(run.output);
        REQUIRE(run.exit_code == 0);
        CHECK(run.output.find("compensation chained after each search: loeffler") != std::string::npos);
        CHECK(run.output.find("portable") != std::string::npos);
        check_refusals({{"bench --sizes 64x48 --backends cpu --pairs 1 --no-sad-peak --compensate dct",
                         "use none, matrix or loeffler"}});
    }
}
