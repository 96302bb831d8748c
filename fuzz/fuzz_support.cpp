#include "fuzz_support.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace xme::fuzz {

MemoryFile::MemoryFile(const std::uint8_t* data, std::size_t size) {
    fd_ = memfd_create("xme-fuzz", MFD_CLOEXEC);
    if (fd_ < 0) finding("memfd_create failed");
    for (std::size_t written = 0; written < size;) {
        const ssize_t n = ::write(fd_, data + written, size - written);
        if (n <= 0) finding("cannot write the memfd");
        written += static_cast<std::size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
}

MemoryFile::~MemoryFile() { ::close(fd_); }

const std::string& scratch_directory() {
    // Never destroyed, so that the exit handler that removes it can still read its name.
    static const std::string* directory = [] {
        const char* tmp = std::getenv("TMPDIR");
        auto* path = new std::string(std::string(tmp && *tmp ? tmp : "/tmp") + "/xme-fuzz-XXXXXX");
        if (!mkdtemp(path->data())) finding("cannot create a scratch directory under " + *path);
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(scratch_directory(), ignored);
        });
        return path;
    }();
    return *directory;
}

std::string read_whole_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) finding("cannot read back " + path);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

void finding(const std::string& what) {
    std::fprintf(stderr, "xme fuzz finding: %s\n", what.c_str());
    std::abort();
}

}  // namespace xme::fuzz
