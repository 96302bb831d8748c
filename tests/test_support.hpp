// Shared by the tests: fresh random inputs with a printed seed, real clip frames, field comparison.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "xme/device.hpp"
#include "xme/frame.hpp"
#include "xme/motion_field.hpp"

namespace xme::test {

// Whether this build runs under ThreadSanitizer or AddressSanitizer (GCC's macros, clang's
// __has_feature): both slow every instrumented computation several to tens of times.
#if defined(__has_feature)
#define XME_TEST_HAS_FEATURE(feature) __has_feature(feature)
#else
#define XME_TEST_HAS_FEATURE(feature) 0
#endif
inline constexpr bool thread_sanitized =
#if defined(__SANITIZE_THREAD__) || XME_TEST_HAS_FEATURE(thread_sanitizer)
    true;
#else
    false;
#endif
inline constexpr bool address_sanitized =
#if defined(__SANITIZE_ADDRESS__) || XME_TEST_HAS_FEATURE(address_sanitizer)
    true;
#else
    false;
#endif

// Drawn once per run (or taken from XME_TEST_SEED to replay a failure) and printed.
[[nodiscard]] std::uint64_t run_seed();
// A generator for one test, derived from the run seed and the test's name.
[[nodiscard]] std::mt19937_64 rng_for(const std::string& test_name);

// extreme: 0/255 checkerboards (the largest costs and filter intermediates).
enum class Content { noise, few_levels, moving_texture, extreme };
[[nodiscard]] const char* to_string(Content content);

// A pair (reference, current) of the given content; moving_texture moves by a random vector.
struct PlanePair {
    Plane reference;
    Plane current;
};
[[nodiscard]] PlanePair make_pair(Content content, int width, int height, std::mt19937_64& rng);

// Luma of `count` consecutive frames of a clip in XME_TEST_DATA_DIR (or $XME_TEST_CLIP_DIR), cropped
// to width x height at (left, top); nothing when this build cannot read the clip (no FFmpeg).
[[nodiscard]] std::optional<std::vector<Plane>> clip_luma(const std::string& clip, int count, int left,
                                                          int top, int width, int height);
[[nodiscard]] std::string clip_path(const std::string& clip);

// Every variant of every available device but the reference (XME_TEST_DEVICE alone when set), opened
// once for the whole run.
struct DeviceUnderTest {
    std::unique_ptr<Device> device;
    std::string variant;
};
[[nodiscard]] const std::vector<DeviceUnderTest>& devices_under_test();
// Closes them; main() calls it before returning, because a GPU driver (NVIDIA's Vulkan) may already
// have shut down by the time static objects are destroyed, and closing a device then crashes.
void release_devices_under_test();

// XME_TEST_SHARD="k/n": this process checks the rows k, k + n, k + 2n, ... of the conformance table
// (rows counted in the order the suite meets them), so that CTest can split one device's rows over
// processes that run side by side, each computing the reference only for its own rows. Unset: every
// row. Each call counts one row and says whether this process checks it.
[[nodiscard]] bool take_conformance_row();

// The first block where two fields differ, described with both vectors and costs; empty if equal.
[[nodiscard]] std::string first_difference(const MotionField& expected, const MotionField& actual);

// A PlaneMemory that counts what it gives and gets back (ordinary memory underneath), or gives
// nothing when `empty` (planes then fall back to ordinary memory).
class CountingPlaneMemory final : public PlaneMemory {
public:
    explicit CountingPlaneMemory(bool empty = false) : empty_(empty) {}
    [[nodiscard]] std::uint8_t* allocate(std::size_t bytes) override {
        if (empty_) return nullptr;
        ++allocated_;
        return new std::uint8_t[bytes];
    }
    void release(std::uint8_t* data, std::size_t /*bytes*/) noexcept override {
        ++released_;
        delete[] data;
    }
    [[nodiscard]] int allocated() const { return allocated_; }
    [[nodiscard]] int released() const { return released_; }

private:
    bool empty_;
    std::atomic<int> allocated_{0};
    std::atomic<int> released_{0};
};

}  // namespace xme::test
