// SessionOptions::compensation on every device under test (XME_TEST_DEVICE=cuda for the GPU's rows):
// each pair's CompensatedFrame equals compensate() of the device's own field, bit for bit, whether the
// device computed it itself (supports_compensation) or the host did. Rows: integer, §4 half-pel and
// §10 quarter-pel predictions (block sizes 4 to 32), both transform variants, random frames with
// partial blocks and tiles, and real clip frames.
#include <doctest/doctest.h>

#include "compensation_checks.hpp"
#include "test_support.hpp"
#include "xme/compensation.hpp"
#include "xme/device.hpp"

namespace {

struct Row {
    const char* name;
    xme::SearchParams params;
    xme::TransformAlgorithm algorithm;
    int quantiser_step;
};

std::vector<Row> rows() {
    std::vector<Row> list;
    list.push_back({"fs B8 integer, matrix",
                    {8, 5, xme::BorderMode::pad, xme::SearchMethod::full, xme::Subpel::none},
                    xme::TransformAlgorithm::matrix,
                    16});
    list.push_back({"fs+hpel B16 restrict, loeffler",
                    {16, 7, xme::BorderMode::restrict, xme::SearchMethod::full, xme::Subpel::hpel},
                    xme::TransformAlgorithm::loeffler,
                    9});
    list.push_back({"fs+hpel B4, matrix",
                    {4, 3, xme::BorderMode::pad, xme::SearchMethod::full, xme::Subpel::hpel},
                    xme::TransformAlgorithm::matrix,
                    1});
    xme::SearchParams ehds{16, 8, xme::BorderMode::pad, xme::SearchMethod::ehds, xme::Subpel::qpel};
    ehds.lambda = 4;
    list.push_back({"ehds+qpel B16 lambda 4, loeffler", ehds, xme::TransformAlgorithm::loeffler, 24});
    xme::SearchParams qpel32{32, 4, xme::BorderMode::pad, xme::SearchMethod::full, xme::Subpel::qpel};
    list.push_back({"fs+qpel B32, matrix", qpel32, xme::TransformAlgorithm::matrix, 4096});
    xme::SearchParams integer_partitions{16, 6, xme::BorderMode::pad, xme::SearchMethod::full,
                                         xme::Subpel::none};
    integer_partitions.partitions = xme::Partitions::all;
    list.push_back({"fs+p41, matrix", integer_partitions, xme::TransformAlgorithm::matrix, 16});
    xme::SearchParams partitions{16, 4, xme::BorderMode::pad, xme::SearchMethod::full, xme::Subpel::qpel};
    partitions.partitions = xme::Partitions::all;
    partitions.lambda = 2;
    list.push_back({"fs+p41+qpel, loeffler", partitions, xme::TransformAlgorithm::loeffler, 16});
    return list;
}

void check_device(const xme::test::DeviceUnderTest& dut, const Row& row,
                  const std::vector<xme::Plane>& frames, bool report) {
    xme::SessionOptions options;
    options.params = row.params;
    options.variant = dut.variant;
    options.width = frames.front().width();
    options.height = frames.front().height();
    options.compensation = xme::CompensationRequest{xme::TransformOptions{row.algorithm, row.quantiser_step}};
    const xme::Support support = dut.device->supports(options);
    const std::string name = dut.device->info().name + " " + dut.variant + ", " + row.name;
    if (!support.supported) {
        if (report) MESSAGE(name, " skipped: ", support.reason);
        return;
    }
    const xme::Support own = dut.device->supports_compensation(options);
    if (report)
        MESSAGE(name, ": ",
                own.supported ? "the device's own compensation" : "on the host (" + own.reason + ")");
    xme::test::check_streamed_compensation(*dut.device, options, frames, name);
}

}  // namespace

TEST_SUITE("conformance") {
    TEST_CASE("compensation on every device equals compensate() of its field") {
        auto rng = xme::test::rng_for("compensation on devices");
        MESSAGE("seed ", xme::test::run_seed());
        std::vector<std::vector<xme::Plane>> inputs;
        // 123 x 70: partial blocks of every size and partial 8x8 tiles.
        for (const auto content : {xme::test::Content::moving_texture, xme::test::Content::noise}) {
            std::vector<xme::Plane> frames;
            const auto first = xme::test::make_pair(content, 123, 70, rng);
            frames.push_back(first.reference);
            frames.push_back(first.current);
            frames.push_back(xme::test::make_pair(content, 123, 70, rng).current);
            inputs.push_back(std::move(frames));
        }
        if (auto clip = xme::test::clip_luma("vtest.avi", 3, 200, 140, 160, 96)) {
            inputs.push_back(std::move(*clip));
        } else {
            MESSAGE("vtest.avi unavailable here: its rows are skipped");
        }
        for (const auto& dut : xme::test::devices_under_test()) {
            for (const Row& row : rows()) {
                if (!xme::test::take_conformance_row()) continue;
                for (std::size_t i = 0; i < inputs.size(); ++i) check_device(dut, row, inputs[i], i == 0);
            }
        }
    }
}
