// Output files written beside their path and renamed onto it once whole (xme/staged_file.hpp).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "io_test_helpers.hpp"
#include "xme/error.hpp"
#include "xme/staged_file.hpp"
#include "xme/video.hpp"

namespace {

namespace fs = std::filesystem;
using xme::test::io::read_file;
using xme::test::io::staged_path;
using xme::test::io::TempDir;
using xme::test::io::write_file;

void write_all(xme::StagedFile& file, const std::string& text) {
    REQUIRE(::write(file.descriptor(), text.data(), text.size()) == static_cast<ssize_t>(text.size()));
}

unsigned mode_of(const std::string& path) {
    struct stat status {};
    REQUIRE(::stat(path.c_str(), &status) == 0);
    return status.st_mode & 07777;
}

}  // namespace

TEST_SUITE_BEGIN("io");

TEST_CASE("StagedFile: the old file until published, then the whole new one, its mode and links kept") {
    TempDir dir;
    const std::string path = dir.file("out.csv");
    write_file(path, "old\n");
    REQUIRE(::chmod(path.c_str(), 0640) == 0);
    {
        xme::StagedFile file(path);
        CHECK_FALSE(file.in_place());
        CHECK(file.written_path() == staged_path(path));
        CHECK(fs::path(file.written_path()).filename().string().starts_with(".out.csv.xme-"));
        write_all(file, "new\n");
        CHECK(read_file(path) == "old\n");
        file.publish();
        CHECK(file.descriptor() == -1);
    }
    CHECK(read_file(path) == "new\n");
    CHECK(mode_of(path) == 0640);
    CHECK(staged_path(path).empty());

    // Through a symbolic link: the file it names is replaced, and the link stays.
    const std::string link = dir.file("link.csv");
    fs::create_symlink("out.csv", link);
    {
        xme::StagedFile file(link);
        write_all(file, "through the link\n");
        file.publish();
    }
    CHECK(fs::is_symlink(link));
    CHECK(read_file(path) == "through the link\n");
}

TEST_CASE("StagedFile: discarded, destroyed or killed unpublished, the path keeps what it held") {
    TempDir dir;
    const std::string path = dir.file("summary.json");
    write_file(path, "{}\n");
    {
        xme::StagedFile file(path);
        write_all(file, "{\"cut");
    }  // destroyed unpublished: a failed run
    CHECK(read_file(path) == "{}\n");
    CHECK(staged_path(path).empty());
    {
        xme::StagedFile file(path);
        write_all(file, "{\"cut");
        CHECK(!staged_path(path).empty());
        xme::remove_staged_files();  // what a signal handler does before the process ends
        CHECK(staged_path(path).empty());
        file.discard();
    }
    CHECK(read_file(path) == "{}\n");
    // A new path: nothing there until published.
    const std::string fresh = dir.file("fresh.json");
    {
        xme::StagedFile file(fresh);
        CHECK_FALSE(fs::exists(fresh));
    }
    CHECK_FALSE(fs::exists(fresh));
    CHECK(xme::staged_write_error(fresh) == 0);
    CHECK_FALSE(fs::exists(fresh));  // checked without creating it
    CHECK(xme::staged_write_error(dir.file("no/such/folder.json")) == ENOENT);
    CHECK(xme::remove_replaceable_file(path));
    CHECK_FALSE(fs::exists(path));
}

TEST_CASE("StagedFile: a device is written in place, never replaced") {
    xme::StagedFile file("/dev/null");
    CHECK(file.in_place());
    CHECK(file.written_path() == "/dev/null");
    write_all(file, "nothing\n");
    file.publish();
    CHECK(fs::is_character_file("/dev/null"));
    CHECK(xme::staged_write_error("/dev/null") == 0);
    CHECK(xme::remove_replaceable_file("/dev/null"));  // a device is not removed
    CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("Y4mWriter: renamed into place when finished, with the frames asked for") {
    SEEDED_RNG(rng, "io/y4m finish");
    TempDir dir;
    const std::string path = dir.file("p.y4m");
    xme::Y4mWriter writer(path, 8, 6, xme::ChromaFormat::mono);
    for (int i = 0; i < 3; ++i) writer.write(xme::test::io::random_frame(8, 6, xme::ChromaFormat::mono, rng));
    CHECK_FALSE(fs::exists(path));
    writer.finish(2);  // the pairs the run's other outputs hold
    const std::string bytes = read_file(path);
    CHECK(bytes.size() == bytes.find('\n') + 1 + 2 * (6 + 8 * 6));
    CHECK(staged_path(path).empty());
}

TEST_SUITE_END();
