// `xme estimate INPUT`: motion estimation over consecutive frame pairs of a video.
#include <cstdio>
#include <memory>
#include <optional>
#include <utility>

#include "commands.hpp"
#include "interrupt.hpp"
#include "job_options.hpp"
#include "pair_drawer.hpp"
#include "reference_job.hpp"
#include "xme/error.hpp"

namespace xme::cli {

Command add_estimate_command(CLI::App& app, std::function<void(EstimateSettings&)> adjust) {
    auto options = std::make_shared<JobOptions>();
    auto* cmd = app.add_subcommand("estimate",
                                   "Estimate motion between consecutive frames (frame i against frame i-1)");
    add_job_options(*cmd, *options);
    auto draw = std::make_shared<std::string>();
    cmd->add_option("--draw", *draw,
                    "Each pair's vectors drawn over its frame, as `xme draw` does: out.png (one pair), "
                    "frames_%04d.png or a video (out.mp4)");
    auto read_only = std::make_shared<bool>(false);
    cmd->add_flag("--read-only", *read_only,
                  "Read the frames as the job would (same reader, --read-threads, the device's memory) and "
                  "estimate nothing: frames/s and GB/s of the input alone, the pace no job on it can pass");
    return {cmd, [options, draw, read_only, adjust = std::move(adjust)] {
                // Around the drawer too: a signal while it ends its video stops nothing half way.
                const StopBetweenPairs stop_between_pairs;
                EstimateSettings settings = settings_from(*options, {"--draw", *draw});
                settings.read_only = *read_only;
                if (adjust) adjust(settings);
                if (!settings.references.single_pair()) {  // SPEC §14: a job of its own
                    run_reference_estimate(settings, *draw);
                    return 0;
                }
                std::optional<PairDrawer> drawer;
                if (!draw->empty()) {
                    settings.on_pair = [&drawer](const ScheduledPair& pair, const VideoInfo& video) {
                        drawer->draw(pair, video);
                    };
                    // --read-only --draw is refused as such, not for a build without FFmpeg.
                    check_read_only(settings);
                    drawer.emplace(*draw, settings.session.params.partitions == Partitions::all,
                                   settings.start + 1, settings.frames < 0 ? -1 : settings.frames - 1);
                }
                const EstimateReport report = run_estimate(settings);
                if (drawer) drawer->finish();
                // The table is for a person: with -o it is left out, with --json - it goes to stderr.
                if (!settings.quiet && settings.output.empty()) {
                    print_summary(report, settings, settings.stdout_carries_data() ? stderr : stdout);
                }
                return 0;
            }};
}

}  // namespace xme::cli
