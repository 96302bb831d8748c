// Output files written under a temporary name beside their path and renamed onto it once whole, so
// that the path holds either what it held before or a whole file: never one cut by an interrupted run,
// a full disk or a file-size limit (xme(1), WRITING OUTPUTS).
#pragma once

#include <string>

namespace xme {

class StagedFile {
public:
    // Creates the temporary file ".NAME.xme-XXXXXX" in the folder of `path` (of the file a symbolic
    // link names: the link stays a link), where a rename onto `path` is atomic. Where the path cannot
    // be replaced, the path itself is opened and truncated: a file that is not a regular one
    // (/dev/null, a FIFO, a terminal), or a writable file in a folder that is not writable.
    // Throws Error(io) "cannot create PATH: REASON".
    explicit StagedFile(const std::string& path);
    // A file neither published nor discarded is removed: the path keeps what it held.
    ~StagedFile();
    StagedFile(const StagedFile&) = delete;
    StagedFile& operator=(const StagedFile&) = delete;

    // Where the bytes go: write with it until publish() or discard(); -1 after them.
    [[nodiscard]] int descriptor() const { return fd_; }
    // The path as given, for messages.
    [[nodiscard]] const std::string& path() const { return path_; }
    // The file the descriptor writes: the temporary file, or the path where written in place.
    [[nodiscard]] const std::string& written_path() const { return written_; }
    [[nodiscard]] bool in_place() const { return in_place_; }

    // Closes the file and renames it onto the path, which then shows the whole new file at once; the
    // file keeps the replaced file's permissions (and owner, where this process may set it). Throws
    // Error(io) naming the path when it cannot be closed or renamed (the temporary file is removed).
    void publish();
    // Closes the file and removes the temporary one (a file written in place stays as written).
    void discard() noexcept;

private:
    std::string path_;
    std::string target_;   // the path with its symbolic links followed: what is replaced
    std::string written_;  // the temporary file, or target_ where written in place
    int fd_ = -1;
    int slot_ = -1;  // its entry for remove_staged_files(), -1: none
    bool in_place_ = false;
};

// 0 when StagedFile could write `path`, else the reason (an errno value), found without changing
// anything there: for outputs claimed before a run and written after it.
[[nodiscard]] int staged_write_error(const std::string& path);

// Removes the regular file `path` names (its links followed, as StagedFile replaces it; a device or a
// FIFO stays): for a summary whose old content no longer describes the other outputs while its new
// content is written. Returns false where a file was there and could not be removed.
bool remove_replaceable_file(const std::string& path) noexcept;

// Removes the temporary file of every StagedFile not yet published or discarded. Async-signal-safe:
// for a handler of a signal that then ends the process, which runs no destructor.
void remove_staged_files() noexcept;

}  // namespace xme
