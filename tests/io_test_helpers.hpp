// Shared by the video and motion-field I/O tests: seeded generators, temporary files, random and
// compared frames, Y4M clips, and checks on the errors thrown.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "xme/error.hpp"
#include "xme/frame.hpp"
#include "xme/video.hpp"

// A generator for one test from the run's seed (test_support prints it), shown with any failure.
#define SEEDED_RNG(rng, test_name)                          \
    const std::uint64_t rng##_seed = xme::test::run_seed(); \
    INFO("XME_TEST_SEED=" << rng##_seed);                   \
    auto rng = xme::test::rng_for(test_name)

namespace xme::test::io {

inline constexpr xme::ChromaFormat all_formats[] = {xme::ChromaFormat::yuv420, xme::ChromaFormat::yuv422,
                                                    xme::ChromaFormat::yuv444, xme::ChromaFormat::mono};

// A fresh directory per test, removed at the end.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

[[nodiscard]] xme::Frame random_frame(int width, int height, xme::ChromaFormat format, std::mt19937_64& rng);

[[nodiscard]] bool same_plane(const xme::Plane& a, const xme::Plane& b);
[[nodiscard]] bool same_frame(const xme::Frame& a, const xme::Frame& b);
// The planes' bytes one after the other, as a raw planar file holds them.
[[nodiscard]] std::string planes_bytes(const xme::Frame& frame);

[[nodiscard]] std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& bytes);
// The temporary file an unfinished writer of `path` writes (xme/staged_file.hpp: ".NAME.xme-XXXXXX" beside
// it); "" when there is none, or more than one.
[[nodiscard]] std::string staged_path(const std::string& path);

// Writes `count` random frames to a 30000/1001 fps Y4M file and returns them.
std::vector<xme::Frame> write_y4m(const std::string& path, int width, int height, xme::ChromaFormat format,
                                  int count, std::mt19937_64& rng);

// Runs `action` and checks that it throws xme::Error of `kind` whose message holds every part.
template <typename Action>
void check_error(Action&& action, xme::ErrorKind kind, const std::vector<std::string>& parts) {
    try {
        action();
        FAIL("no xme::Error thrown");
    } catch (const xme::Error& error) {
        INFO("message: " << error.what());
        CHECK(static_cast<int>(error.kind()) == static_cast<int>(kind));
        for (const std::string& part : parts)
            CHECK_MESSAGE(std::string(error.what()).find(part) != std::string::npos, part);
    }
}

}  // namespace xme::test::io
