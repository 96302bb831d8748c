// `xme version` and `xme --version`: the release, and which backends and inputs this build has.
#include <iostream>

#include "commands.hpp"
#include "xme/builtin_backends.hpp"
#include "xme/version.hpp"
#include "xme/video.hpp"

namespace xme::cli {

std::string version_text() {
    std::string text = std::string("xme ") + xme::version() + "\nbackends:";
    std::string absent;
    for (const auto& backend : make_builtin_registry().backends()) {
        if (backend.absent_reason.empty()) {
            text += " " + backend.name;
        } else {
            absent += "\n  " + backend.name + ": " + backend.absent_reason;
        }
    }
    if (!absent.empty()) text += "\nleft out of this build:" + absent;
    text +=
        std::string("\ninput: y4m, raw") + (ffmpeg_available() ? ", FFmpeg" : " (no FFmpeg in this build)");
    text += std::string("\nlicence: ") + XME_LICENSE;
    return text;
}

Command add_version_command(CLI::App& app) {
    auto* subcommand = app.add_subcommand("version", "Print the version and the backends compiled in");
    return {subcommand, [] {
                std::cout << version_text() << "\n";
                return 0;
            }};
}

}  // namespace xme::cli
