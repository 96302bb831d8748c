// Output written to a file survives the end of the process, whatever ends it: under the sanitize
// build a sanitizer's exit skips stdio's flush unless the program flushes first (lavapipe's leaks
// once emptied `xme devices >file`; issue 9).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "cli_test_helpers.hpp"

using xme::test::cli::read_file;
using xme::test::cli::run_xme;
using xme::test::cli::scratch_dir;

TEST_SUITE("cli") {
    TEST_CASE("xme devices redirected to a file writes its whole listing and exits 0") {
        const std::filesystem::path dir = scratch_dir("redirect");
        const std::filesystem::path listing = dir / "devices.txt";
        const auto run = run_xme("devices > " + listing.string());
        INFO("what xme printed besides the listing: ", run.output);
        CHECK(run.exit_code == 0);
        const std::string text = read_file(listing);
        INFO("the file: ", text);
        // The CPU backend is always listed; every compiled-in family has a line, available or not.
        CHECK(text.find("cpu") != std::string::npos);
        CHECK(text.find("reference") != std::string::npos);
        CHECK(run.output.find("LeakSanitizer") == std::string::npos);
    }
}
