// `xme estimate INPUT`: motion estimation over consecutive frame pairs of a video.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "job_options.hpp"

namespace xme::cli {

Command add_estimate_command(CLI::App& app) {
    auto options = std::make_shared<JobOptions>();
    auto* cmd = app.add_subcommand("estimate", "Estimate motion between consecutive frames (frame i against frame i-1)");
    add_job_options(*cmd, *options);
    return {cmd, [options] {
                const EstimateSettings settings = settings_from(*options);
                const EstimateReport report = run_estimate(settings);
                // The table is for a person: with -o it is left out, with --json - it goes to stderr.
                if (!settings.quiet && settings.output.empty()) {
                    print_summary(report, settings, settings.stdout_carries_data() ? stderr : stdout);
                }
                return 0;
            }};
}

}  // namespace xme::cli
