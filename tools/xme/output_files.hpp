// Output files named on the command line: claimed before any work, so that an unwritable path is
// reported at once (exit 7, with the OS's reason) rather than after a long run.
#pragma once

#include <string>

namespace xme::cli {

class ClaimedOutput {
public:
    ClaimedOutput() = default;
    // Checks that `path` can be written (xme/staged_file.hpp's staged_write_error), changing nothing
    // there; `what` names it in messages ("the JSON summary"). Throws Error(io) naming the file and
    // the reason.
    ClaimedOutput(std::string path, std::string what);
    ~ClaimedOutput();
    ClaimedOutput(ClaimedOutput&& other) noexcept;
    ClaimedOutput& operator=(ClaimedOutput&& other) noexcept;
    ClaimedOutput(const ClaimedOutput&) = delete;
    ClaimedOutput& operator=(const ClaimedOutput&) = delete;

    // Replaces the file's content with `text` (write_output_file); throws Error(io) naming the file
    // and the reason.
    void write(const std::string& text);
    // The file was written by other means.
    void keep() { written_ = true; }

private:
    std::string path_;
    std::string what_;
    bool created_ = false;
    bool written_ = false;
};

// Writes `text` as the whole content of `path`: beside it, renamed onto it once whole, so that the path
// holds the old content or the new, never a cut file. Throws Error(io) naming `what`, the file and why.
void write_output_file(const std::string& path, const std::string& text, const std::string& what);

}  // namespace xme::cli
