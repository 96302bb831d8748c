// Temporary files beside their outputs (xme/staged_file.hpp).
//
// Why a temporary file renamed at the end, rather than one renamed after every frame: a rename moves
// the file it publishes, so publishing frame after frame needs a second whole copy of the stream to
// write the next frame into (twice the writes and twice the disk for the residual planes of a long
// video), and publishing the one file being appended to shows the next frame half written. The
// streaming writers therefore append to their temporary file and are renamed into place when the run
// ends, whether it completes, fails (a full disk: whole frames only) or is interrupted (xme's CLI
// stops between pairs on SIGINT and SIGTERM); a process killed outright (SIGKILL) leaves every path
// as it was, with its temporary file beside it.
#include "xme/staged_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "xme/error.hpp"

namespace xme {
namespace {

constexpr std::size_t path_capacity = 4096;  // PATH_MAX on Linux, with its terminating zero
constexpr std::size_t slot_count = 32;       // a run has a handful of outputs open at once

// The temporary files not yet published, for remove_staged_files() in a signal handler: fixed storage
// and lock-free atomics only. `sequence` is odd while a slot changes; a reader that sees it change
// ignores what it read (a seqlock).
struct Slot {
    std::atomic<bool> used{false};
    std::atomic<unsigned> sequence{0};
    std::array<std::atomic<char>, path_capacity> path{};
};

// At namespace scope, constant-initialised: a signal handler may be the first to read it.
std::array<Slot, slot_count> staged_slots;

void set_slot_path(Slot& slot, const char* text) {
    slot.sequence.fetch_add(1);
    std::size_t i = 0;
    for (; text[i] != '\0' && i + 1 < path_capacity; ++i)
        slot.path[i].store(text[i], std::memory_order_relaxed);
    // A path too long to hold is not recorded (it would name another file): it stays if killed.
    slot.path[text[i] == '\0' ? i : 0].store('\0', std::memory_order_relaxed);
    slot.sequence.fetch_add(1);
}

int claim_slot(const std::string& path) {
    for (std::size_t i = 0; i < slot_count; ++i) {
        bool free = false;
        if (staged_slots[i].used.compare_exchange_strong(free, true)) {
            set_slot_path(staged_slots[i], path.c_str());
            return static_cast<int>(i);
        }
    }
    return -1;  // more files at once than slots: this one is not removed by a signal
}

void release_slot(int index) {
    if (index < 0) return;
    Slot& slot = staged_slots[static_cast<std::size_t>(index)];
    set_slot_path(slot, "");
    slot.used.store(false);
}

// Whether a path is one of the kernel's names of an open file (/dev/stdout, /proc/self/fd/1): what it
// names is written as it is, never replaced, whatever the link leads to (a file the shell redirected
// standard output to stays the file the shell holds).
bool names_a_descriptor(const std::string& path) {
    return path == "/dev/stdout" || path == "/dev/stderr" || path.starts_with("/dev/fd/") ||
           path.starts_with("/proc/");
}

// The file a path names, its symbolic links followed (a link that names no file yet names the file
// it would create), so that the temporary file is made beside the file that is replaced. A path that
// passes through /dev or /proc comes back as it was given (names_a_descriptor).
std::string follow_links(std::string path) {
    const std::string given = path;
    for (int depth = 0; depth < 40; ++depth) {
        if (names_a_descriptor(path)) return given;
        struct stat status {};
        if (::lstat(path.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) return path;
        std::string target(static_cast<std::size_t>(status.st_size > 0 ? status.st_size : 0) + 256, '\0');
        const ssize_t length = ::readlink(path.c_str(), target.data(), target.size());
        if (length < 0 || static_cast<std::size_t>(length) >= target.size()) return path;
        target.resize(static_cast<std::size_t>(length));
        if (target.starts_with('/')) {
            path = target;
        } else {
            const std::size_t slash = path.rfind('/');
            path = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + target;
        }
    }
    return path;  // a loop of links: opening it reports ELOOP
}

std::string folder_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Six letters or digits, different in every call of every process.
std::string random_suffix() {
    static std::atomic<std::uint64_t> counter{0};
    std::uint64_t bits =
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
        (static_cast<std::uint64_t>(::getpid()) << 32) ^ (counter.fetch_add(1) * 0x9e3779b97f4a7c15ULL);
    bits ^= bits >> 29;
    bits *= 0xbf58476d1ce4e5b9ULL;
    bits ^= bits >> 32;
    static constexpr char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::string suffix;
    for (int i = 0; i < 6; ++i) {
        suffix += letters[bits % (sizeof letters - 1)];
        bits /= sizeof letters - 1;
    }
    return suffix;
}

// Creates a new file named `prefix` and six random characters; its descriptor, or -errno. The name is
// in a slot (`slot`, -1 when none was free) before the file exists, so that a signal at any moment
// finds it.
int create_temporary(const std::string& prefix, std::string& name, int& slot) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        name = prefix + random_suffix();
        slot = claim_slot(name);
        // 0666 less the umask, as the path itself would have been created.
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        const int error = errno;
        if (fd >= 0) return fd;
        release_slot(slot);
        slot = -1;
        if (error != EEXIST) return -error;
    }
    return -EEXIST;
}

// The temporary files' names: beside the target, the name shortened where needed so that theirs
// stays within NAME_MAX (255).
std::string temporary_prefix(const std::string& target) {
    return folder_of(target) + "/." + name_of(target).substr(0, 200) + ".xme-";
}

bool is_regular_or_absent(const std::string& target, struct stat& status, bool& exists) {
    exists = ::stat(target.c_str(), &status) == 0;
    return !exists || S_ISREG(status.st_mode);
}

}  // namespace

StagedFile::StagedFile(const std::string& path) : path_(path), target_(follow_links(path)) {
    struct stat status {};
    bool exists = false;
    if (!is_regular_or_absent(target_, status, exists) || names_a_descriptor(target_)) {
        // A device, a FIFO, a terminal, a descriptor: written as it is, never replaced.
        in_place_ = true;
        written_ = target_;
        const int truncate = exists && S_ISREG(status.st_mode) ? O_TRUNC : 0;
        fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | truncate | (exists ? 0 : O_CREAT), 0666);
        if (fd_ < 0) throw Error(ErrorKind::io, "cannot create " + path_ + ": " + std::strerror(errno));
        return;
    }
    // A file the user cannot write is not replaced behind their back.
    if (exists && ::faccessat(AT_FDCWD, target_.c_str(), W_OK, AT_EACCESS) != 0)
        throw Error(ErrorKind::io, "cannot create " + path_ + ": " + std::strerror(errno));
    const int created = create_temporary(temporary_prefix(target_), written_, slot_);
    if (created >= 0) fd_ = created;
    if (fd_ < 0) {
        int error = -created;
        // A writable file in a folder that is not: written in place, as before staging.
        if (exists && (error == EACCES || error == EPERM || error == EROFS)) {
            in_place_ = true;
            written_ = target_;
            fd_ = ::open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
            if (fd_ >= 0) return;
            error = errno;
        }
        throw Error(ErrorKind::io, "cannot create " + path_ + ": " + std::strerror(error));
    }
    if (exists) {
        // The replaced file's permissions and owner, as an editor that saves by renaming keeps them
        // (best effort: only root may give a file to another user).
        static_cast<void>(::fchmod(fd_, status.st_mode & 07777));
        if (status.st_uid != ::geteuid() || status.st_gid != ::getegid())
            static_cast<void>(::fchown(fd_, status.st_uid, status.st_gid));
    }
}

StagedFile::~StagedFile() { discard(); }

void StagedFile::publish() {
    if (fd_ < 0) throw Error(ErrorKind::io, "cannot write " + path_ + ": it was already closed");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
        const int error = errno;
        if (!in_place_) ::unlink(written_.c_str());
        release_slot(slot_);
        slot_ = -1;
        throw Error(ErrorKind::io, "cannot write " + path_ + ": " + std::strerror(error));
    }
    if (in_place_) return;
    const int renamed = ::rename(written_.c_str(), target_.c_str());
    const int error = errno;
    if (renamed != 0) ::unlink(written_.c_str());
    release_slot(slot_);
    slot_ = -1;
    if (renamed != 0)
        throw Error(ErrorKind::io, "cannot write " + path_ + ": cannot rename " + written_ +
                                       " onto it: " + std::strerror(error));
}

void StagedFile::discard() noexcept {
    if (fd_ < 0) return;
    ::close(fd_);
    fd_ = -1;
    if (!in_place_) ::unlink(written_.c_str());
    release_slot(slot_);
    slot_ = -1;
}

int staged_write_error(const std::string& path) {
    const std::string target = follow_links(path);
    struct stat status {};
    bool exists = false;
    if (!is_regular_or_absent(target, status, exists) || names_a_descriptor(target) ||
        (exists && ::faccessat(AT_FDCWD, target.c_str(), W_OK, AT_EACCESS) == 0)) {
        // Not a regular file, or a writable one: what opening it for writing says (a FIFO waits for
        // its reader, as writing it will).
        const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) return errno;
        ::close(fd);
        return 0;
    }
    if (exists) return EACCES;
    // No file yet: whether one can be made in its folder (and removed again at once).
    std::string name;
    int slot = -1;
    const int created = create_temporary(temporary_prefix(target), name, slot);
    if (created < 0) return -created;
    ::close(created);
    ::unlink(name.c_str());
    release_slot(slot);
    return 0;
}

bool remove_replaceable_file(const std::string& path) noexcept {
    try {
        const std::string target = follow_links(path);
        struct stat status {};
        if (names_a_descriptor(target) || ::stat(target.c_str(), &status) != 0 || !S_ISREG(status.st_mode))
            return true;
        return ::unlink(target.c_str()) == 0 || errno == ENOENT;
    } catch (const std::exception&) {  // no memory for the name: it stays
        return false;
    }
}

void remove_staged_files() noexcept {
    for (Slot& slot : staged_slots) {
        const unsigned before = slot.sequence.load();
        if ((before & 1U) != 0) continue;
        std::array<char, path_capacity> path{};
        for (std::size_t i = 0; i + 1 < path_capacity; ++i) {
            path[i] = slot.path[i].load(std::memory_order_relaxed);
            if (path[i] == '\0') break;
        }
        std::atomic_thread_fence(std::memory_order_acquire);
        if (slot.sequence.load() != before || path[0] == '\0') continue;
        ::unlink(path.data());
    }
}

}  // namespace xme
