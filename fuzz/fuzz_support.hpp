// What the fuzz targets share: fuzz input held in a file, since the readers and writers take paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace xme::fuzz {

// An in-memory file (memfd) holding exactly the given bytes, reachable by path as /proc/self/fd/N;
// it is a regular file, so the readers' seek and size paths run as on disk, without touching disk.
class MemoryFile {
public:
    MemoryFile(const std::uint8_t* data, std::size_t size);
    ~MemoryFile();
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;
    [[nodiscard]] const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

// A directory of this process's own under $TMPDIR (or /tmp), made once, for files that need an
// extension (the field writers choose their format by it); removed at exit.
[[nodiscard]] const std::string& scratch_directory();

// The whole content of a file; aborts when it cannot be read, since the target wrote it itself.
[[nodiscard]] std::string read_whole_file(const std::string& path);

// Stops the run as a finding, with a message: libFuzzer saves the input that got here.
[[noreturn]] void finding(const std::string& what);

}  // namespace xme::fuzz
