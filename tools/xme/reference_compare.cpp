// `xme compare --refs LIST` / `--direction both` (SPEC §14): one ReferenceRun per device over the same
// frames, each decided frame compared bit for bit with the first device's.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "interrupt.hpp"
#include "output_files.hpp"
#include "reference_job.hpp"
#include "xme/error.hpp"
#include "xme/reference_run.hpp"

namespace xme::cli {

namespace {

// One device's decided frames against the first device's.
struct ReferenceAgreement {
    std::string device;
    std::int64_t frames = 0;
    std::int64_t blocks = 0;
    std::int64_t mismatching_blocks = 0;       // decision (mode, vectors, references, J, bits, candidates)
    std::int64_t mismatching_consistency = 0;  // blocks whose §14 consistency differs
    std::int64_t mismatching_backward = 0;     // blocks of the backward field that differ
    std::string first_mismatch;
};

void compare_frame(const DecidedFrame& expected, const DecidedFrame& actual, ReferenceAgreement& agreement) {
    ++agreement.frames;
    const auto& e = expected.decided.blocks;
    const auto& a = actual.decided.blocks;
    const auto note = [&](const std::string& what) {
        if (agreement.first_mismatch.empty())
            agreement.first_mismatch = "frame " + std::to_string(expected.frame) + ": " + what;
    };
    if (expected.frame != actual.frame || e.size() != a.size()) {
        agreement.mismatching_blocks += static_cast<std::int64_t>(e.size());
        note("frame " + std::to_string(actual.frame) + " of " + std::to_string(a.size()) + " blocks decided");
        return;
    }
    agreement.blocks += static_cast<std::int64_t>(e.size());
    for (std::size_t i = 0; i < e.size(); ++i) {
        if (e[i] == a[i]) continue;
        ++agreement.mismatching_blocks;
        note("block " + std::to_string(i) + ": (" + std::to_string(e[i].mv.x) + "," +
             std::to_string(e[i].mv.y) + ")@" + std::to_string(e[i].distance) + " J " +
             std::to_string(e[i].cost) + " against (" + std::to_string(a[i].mv.x) + "," +
             std::to_string(a[i].mv.y) + ")@" + std::to_string(a[i].distance) + " J " +
             std::to_string(a[i].cost));
    }
    for (std::size_t i = 0; i < std::max(expected.consistency.size(), actual.consistency.size()); ++i) {
        if (i < expected.consistency.size() && i < actual.consistency.size() &&
            expected.consistency[i] == actual.consistency[i])
            continue;
        ++agreement.mismatching_consistency;
        note("block " + std::to_string(i) + "'s consistency");
    }
    if (expected.backward && actual.backward) {
        const auto& eb = expected.backward->blocks;
        const auto& ab = actual.backward->blocks;
        for (std::size_t i = 0; i < std::min(eb.size(), ab.size()); ++i) {
            if (eb[i].mv_x == ab[i].mv_x && eb[i].mv_y == ab[i].mv_y && eb[i].cost == ab[i].cost &&
                eb[i].candidates == ab[i].candidates)
                continue;
            ++agreement.mismatching_backward;
            note("backward block " + std::to_string(i));
        }
    } else if (static_cast<bool>(expected.backward) != static_cast<bool>(actual.backward)) {
        ++agreement.mismatching_backward;
        note("backward field missing");
    }
}

[[nodiscard]] bool agrees(const ReferenceAgreement& a) {
    return a.mismatching_blocks == 0 && a.mismatching_consistency == 0 && a.mismatching_backward == 0;
}

}  // namespace

void run_reference_compare(const EstimateSettings& settings) {
    const std::unique_ptr<VideoReader> reader = open_reference_input(settings, false);
    const VideoInfo video = reader->info();
    std::optional<Registry> own_registry;
    Registry& registry = reference_registry(settings, own_registry);
    SessionOptions options = settings.session;
    options.width = video.width;
    options.height = video.height;
    std::vector<std::shared_ptr<Device>> devices;
    std::vector<std::unique_ptr<ReferenceRun>> runs;
    for (const std::string& name : settings.devices) {
        const std::shared_ptr<Device> device =
            settings.open_device ? settings.open_device(name) : std::shared_ptr<Device>(registry.open(name));
        const Support support = device->supports(options);
        if (support.supported && support.tolerance > 0) {
            throw Error(
                ErrorKind::unsupported,
                name +
                    "'s pairs agree within a tolerance (SPEC §6), and SPEC §14's decisions are compared "
                    "bit for bit: choose a bit-exact variant with --variant");
        }
        runs.push_back(std::make_unique<ReferenceRun>(*device, options, settings.references));
        runs.back()->set_first_index(settings.start);
        devices.push_back(device);
    }
    ClaimedOutput json_output = settings.json.empty() || settings.json == "-"
                                    ? ClaimedOutput()
                                    : ClaimedOutput(settings.json, "the JSON report");
    std::vector<ReferenceAgreement> agreements;
    for (std::size_t d = 1; d < devices.size(); ++d) {
        agreements.emplace_back();
        agreements.back().device = devices[d]->info().name;
    }
    const auto compare = [&](std::vector<std::vector<DecidedFrame>>&& decided) {
        for (std::size_t d = 1; d < decided.size(); ++d) {
            for (std::size_t f = 0; f < decided[0].size(); ++f) {
                if (f < decided[d].size()) {
                    compare_frame(decided[0][f], decided[d][f], agreements[d - 1]);
                } else {
                    agreements[d - 1].mismatching_blocks += 1;
                    if (agreements[d - 1].first_mismatch.empty())
                        agreements[d - 1].first_mismatch =
                            "frame " + std::to_string(decided[0][f].frame) + " missing";
                }
            }
        }
    };
    const auto stopped = [&] {
        return interrupt_signal() != 0 || (settings.stop != nullptr && settings.stop->load());
    };
    std::int64_t read = 0;
    while ((settings.frames < 0 || read < settings.frames) && !stopped()) {
        std::optional<Frame> frame = reader->read_frame();
        if (!frame) break;
        ++read;
        const auto shared = std::make_shared<const Frame>(std::move(*frame));
        std::vector<std::vector<DecidedFrame>> decided;
        for (auto& run : runs) decided.push_back(run->feed(shared));
        compare(std::move(decided));
    }
    if (!stopped()) {
        std::vector<std::vector<DecidedFrame>> decided;
        for (auto& run : runs) decided.push_back(run->finish());
        compare(std::move(decided));
    }
    nlohmann::json comparisons = nlohmann::json::array();
    std::FILE* out = settings.json == "-" ? stderr : stdout;
    std::string refs;
    for (const int d : settings.references.distances)
        refs += (refs.empty() ? "" : ",") + std::string(d > 0 ? "+" : "") + std::to_string(d);
    std::fprintf(out, "SPEC §14, --refs %s%s, against %s:\n", refs.c_str(),
                 settings.references.both_directions ? " --direction both" : "",
                 devices.front()->info().name.c_str());
    for (const ReferenceAgreement& a : agreements) {
        std::fprintf(
            out,
            "  %-12s %lld frame(s), %lld block(s): %lld decisions, %lld consistencies, %lld backward "
            "blocks differ%s%s\n",
            a.device.c_str(), static_cast<long long>(a.frames), static_cast<long long>(a.blocks),
            static_cast<long long>(a.mismatching_blocks), static_cast<long long>(a.mismatching_consistency),
            static_cast<long long>(a.mismatching_backward),
            a.first_mismatch.empty() ? "" : "; first: ", a.first_mismatch.c_str());
        comparisons.push_back(
            {{"device", a.device},
             {"against", devices.front()->info().name},
             {"frames", a.frames},
             {"blocks", a.blocks},
             {"mismatching_blocks", a.mismatching_blocks},
             {"mismatching_consistency", a.mismatching_consistency},
             {"mismatching_backward", a.mismatching_backward},
             {"first_mismatch",
              a.first_mismatch.empty() ? nlohmann::json() : nlohmann::json(a.first_mismatch)}});
    }
    const nlohmann::json report = {{"input", settings.input},
                                   {"parameters", reference_parameters_json(settings)},
                                   {"frames_read", read},
                                   {"comparisons", comparisons}};
    if (!settings.json.empty()) {
        const std::string text = report.dump(2) + "\n";
        if (settings.json == "-") {
            std::cout << text;
        } else {
            json_output.write(text);
        }
    }
    if (stopped()) {
        const int signal = interrupt_signal() != 0 ? interrupt_signal() : SIGINT;
        throw Interrupted(signal, "interrupted by " + signal_name(signal) + " after " + std::to_string(read) +
                                      " frame(s); the report holds the frames compared");
    }
    const std::string json = settings.json == "-" ? "the JSON on standard output" : settings.json;
    std::fprintf(out, "report: %s\n", json.c_str());
    if (!std::all_of(agreements.begin(), agreements.end(), agrees))
        throw Error(ErrorKind::mismatch, "the devices disagree: see " + json);
    std::fprintf(out, "all devices agree\n");
}

}  // namespace xme::cli
