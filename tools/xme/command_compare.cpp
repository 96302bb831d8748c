// `xme compare INPUT --backends cpu,cuda:0,...`: regression testing. The same frames on every device
// (policy mirror); agreement per pair of devices under SPEC §6; exit 0 only when all agree.
#include <cstdio>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "disagreement_picture.hpp"
#include "job_options.hpp"
#include "reference_job.hpp"
#include "xme/error.hpp"

namespace xme::cli {

Command add_compare_command(CLI::App& app) {
    auto options = std::make_shared<JobOptions>();
    options->policy = "mirror";
    options->too_few_devices =
        "xme compare runs the same frames on several devices and checks them against each other: give at "
        "least two in --backends, e.g. --backends cpu,vulkan:0 (xme devices lists this machine's)";
    options->settings.json = "compare.json";
    auto* cmd = app.add_subcommand("compare",
                                   "Run the same frames on several devices and check they agree (SPEC §6)");
    add_job_options(*cmd, *options);
    auto disagreement = std::make_shared<std::string>();
    cmd->add_option("--disagreement", *disagreement,
                    "A PNG of the first frame where the first two devices disagree, those blocks in red");
    return {cmd, [options, disagreement] {
                EstimateSettings settings = settings_from(*options, {"--disagreement", *disagreement});
                if (settings.policy != Policy::mirror) {
                    throw Error(ErrorKind::invalid_argument, "xme compare runs with --policy mirror");
                }
                settings.quiet = true;                     // the agreement table is the output
                if (!settings.references.single_pair()) {  // SPEC §14: each device's decisions compared
                    if (!disagreement->empty()) {
                        throw Error(ErrorKind::unsupported,
                                    "--disagreement with --refs or --direction both (SPEC §14) is not "
                                    "implemented yet: the report names the first block that differs");
                    }
                    run_reference_compare(settings);
                    return 0;
                }
                std::optional<DisagreementPicture> picture;
                if (!disagreement->empty()) picture.emplace(settings, *disagreement);
                const EstimateReport report = run_estimate(settings);
                std::FILE* out = settings.stdout_carries_data() ? stderr : stdout;
                if (picture) std::fprintf(out, "%s\n", picture->write(report).c_str());
                const std::string json = settings.json == "-" ? "the JSON on standard output" : settings.json;
                print_agreement(report, out);
                std::fprintf(out, "report with every mismatch: %s\n", json.c_str());
                if (!report.all_agree())
                    throw Error(ErrorKind::mismatch, "the devices disagree: see " + json);
                std::fprintf(out, "all devices agree\n");
                return 0;
            }};
}

}  // namespace xme::cli
