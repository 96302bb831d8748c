// Shared by the CUDA emulation tests (qpel_emulation_test.cpp, walk_emulation_test.cpp): one warp as 32
// fibers on one host thread, frames padded as on the device, and test planes: patterns that stress ties
// and clips, a moved smooth texture, crops of a clip.
#pragma once

#include <ucontext.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernels.hpp"
#include "xme/frame.hpp"
#include "xme/video.hpp"

namespace xme::cuda::emulation {

// One warp as 32 fibers on one thread (ucontext): a lane runs until it reaches a warp-wide operation
// (__syncwarp, a shuffle), then the next lane runs; once all 32 are there, the first goes on. A lane that
// finishes while another waits, or a different number of warp-wide operations across lanes, is reported:
// the device code must make every such call on all 32 lanes.
class FiberWarp;

struct WarpScheduler {
    ucontext_t main{};
    std::array<ucontext_t, 32> lanes{};
    std::array<std::vector<char>, 32> stacks;
    std::array<bool, 32> done{};
    std::array<std::array<std::uint64_t, 32>, 2> slots{};  // double-buffered: one switch per shuffle
    std::array<long, 32> syncs{};
    bool diverged = false;
};

class FiberWarp {
public:
    FiberWarp(WarpScheduler& scheduler, int lane) : s_(scheduler), lane_(lane) {}
    [[nodiscard]] int lane() const { return lane_; }
    void sync() {
        ++s_.syncs[static_cast<std::size_t>(lane_)];
        swapcontext(&s_.lanes[static_cast<std::size_t>(lane_)], &s_.main);
    }
    std::uint32_t shfl_xor(std::uint32_t value, int offset) {
        return static_cast<std::uint32_t>(exchange(value, offset));
    }
    std::uint32_t count(bool predicate) {
        std::uint32_t n = predicate ? 1u : 0u;
        for (int offset = 16; offset > 0; offset >>= 1) n += static_cast<std::uint32_t>(exchange(n, offset));
        return n;
    }
    std::uint32_t min(std::uint32_t key) {
        for (int offset = 16; offset > 0; offset >>= 1)
            key = std::min(key, static_cast<std::uint32_t>(exchange(key, offset)));
        return key;
    }

private:
    // A lane writes buffer p of exchange n only after every lane passed the switch of exchange n - 1,
    // so after every read of buffer p in exchange n - 2.
    std::uint64_t exchange(std::uint64_t value, int offset) {
        auto& slots = s_.slots[static_cast<std::size_t>(parity_)];
        parity_ ^= 1;
        slots[static_cast<std::size_t>(lane_)] = value;
        sync();
        return slots[static_cast<std::size_t>(lane_ ^ offset)];
    }
    WarpScheduler& s_;
    int lane_;
    int parity_ = 0;
};

// Runs body(warp) on the 32 lanes; false if they diverged.
template <class Body>
bool run_warp(Body& body) {
    // makecontext's entry takes no pointer: the entry finds these (one warp at a time).
    static WarpScheduler* scheduler;
    static Body* current;
    static int starting;
    // On the heap: a static pointer to a local is what GCC 13's -Wdangling-pointer warns of.
    const auto owned = std::make_unique<WarpScheduler>();
    WarpScheduler& s = *owned;
    scheduler = &s;
    current = &body;
    for (std::size_t lane = 0; lane < 32; ++lane) {
        s.stacks[lane].resize(1 << 18);
        getcontext(&s.lanes[lane]);
        s.lanes[lane].uc_stack.ss_sp = s.stacks[lane].data();
        s.lanes[lane].uc_stack.ss_size = s.stacks[lane].size();
        s.lanes[lane].uc_link = &s.main;
        makecontext(
            &s.lanes[lane],
            +[] {
                const int lane_id = starting;
                FiberWarp warp(*scheduler, lane_id);
                (*current)(warp);
                scheduler->done[static_cast<std::size_t>(lane_id)] = true;
            },
            0);
    }
    for (;;) {
        for (std::size_t lane = 0; lane < 32; ++lane) {
            starting = static_cast<int>(lane);  // read only on a lane's first switch
            if (!s.done[lane]) swapcontext(&s.main, &s.lanes[lane]);
        }
        const auto finished = std::count(s.done.begin(), s.done.end(), true);
        for (std::size_t lane = 0; lane < 32; ++lane) s.diverged |= s.syncs[lane] != s.syncs[0];
        s.diverged |= finished != 0 && finished != 32;
        if (s.diverged || finished == 32) break;
    }
    return !s.diverged;
}

inline int round_up(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

// A frame padded as on the device (device_frames.cpp's make_layout, optionally with wider margins).
struct PaddedFrame {
    FrameLayout layout;
    std::vector<std::uint8_t> bytes;
    std::vector<std::uint32_t> words;  // the expanded copy (pad_frame.cu): word c holds bytes c .. c + 3
    const std::uint8_t* origin() const {
        return bytes.data() + static_cast<std::ptrdiff_t>(layout.margin_y) * layout.pitch + layout.margin_x;
    }
    const std::uint32_t* words_origin() const {
        return words.data() + static_cast<std::ptrdiff_t>(layout.margin_y) * layout.pitch + layout.margin_x;
    }
};

inline FrameLayout make_layout(int width, int height, int block, int range, int extra_margin) {
    FrameLayout f;
    f.width = width;
    f.height = height;
    f.padded_width = round_up(width, block);
    f.padded_height = round_up(height, block);
    f.margin_x = round_up(range + 16, 16) + 16 * extra_margin;
    f.margin_y = range + 16 + extra_margin;
    f.pitch = round_up(f.padded_width + 2 * f.margin_x, 256);
    f.rows = f.padded_height + 2 * f.margin_y;
    return f;
}

inline PaddedFrame pad(const xme::Plane& plane, const FrameLayout& layout) {
    PaddedFrame frame{layout,
                      std::vector<std::uint8_t>(static_cast<std::size_t>(layout.pitch) *
                                                static_cast<std::size_t>(layout.rows)),
                      {}};
    const xme::PlaneView view{plane.data(), plane.width(), plane.height(), plane.width()};
    for (int row = 0; row < layout.rows; ++row) {
        for (int column = 0; column < layout.pitch; ++column) {  // whole rows, as pad_frame.cu
            frame.bytes[static_cast<std::size_t>(row) * static_cast<std::size_t>(layout.pitch) +
                        static_cast<std::size_t>(column)] =
                view.at_clamped(column - layout.margin_x, row - layout.margin_y);
        }
    }
    frame.words.resize(frame.bytes.size());
    for (std::size_t i = 0; i < frame.bytes.size(); ++i) {
        std::uint32_t word = 0;  // the last bytes of a row repeat its last byte, as pad_frame.cu's do
        const std::size_t row_end =
            (i / static_cast<std::size_t>(layout.pitch) + 1) * static_cast<std::size_t>(layout.pitch);
        for (std::size_t k = 0; k < 4; ++k)
            word |= std::uint32_t{frame.bytes[std::min(i + k, row_end - 1)]} << (8 * k);
        frame.words[i] = word;
    }
    return frame;
}

// Random bytes, the patterns that push the filters to their clips (0/255 stripes and checkers), a ramp,
// or nearly flat noise (where candidates tie on J and the rest of the key decides).
inline xme::Plane make_plane(int width, int height, int kind, std::mt19937& rng) {
    xme::Plane plane(width, height);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            int v = byte(rng);
            if (kind == 1) v = ((x / 2 + y) % 2) * 255;
            if (kind == 2) v = (x * 7 + y * 3) % 256;
            if (kind == 3) v = (x + y) % 2 == 0 ? 255 : (byte(rng) < 128 ? 0 : v);
            if (kind == 4) v = 100 + v % 2;
            plane.data()[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(v);
        }
    }
    return plane;
}

// A smooth texture (so that a walk has a slope to descend) and the same moved by (dx, dy), plus noise.
inline std::pair<xme::Plane, xme::Plane> moved_texture(int width, int height, std::mt19937& rng, int reach) {
    std::uniform_int_distribution<int> shift(-reach, reach);
    const int dx = shift(rng);
    const int dy = shift(rng);
    const double fx = std::uniform_real_distribution<double>(0.05, 0.4)(rng);
    const double fy = std::uniform_real_distribution<double>(0.05, 0.4)(rng);
    xme::Plane reference(width, height);
    xme::Plane current(width, height);
    std::uniform_int_distribution<int> noise(-3, 3);
    const auto value = [&](int x, int y) {
        return 128.0 + 60.0 * std::sin(fx * x + 0.3 * y * fy) + 50.0 * std::cos(fy * y - 0.2 * x * fx);
    };
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            reference.at(x, y) = static_cast<std::uint8_t>(value(x, y));
            current.at(x, y) = static_cast<std::uint8_t>(
                std::clamp(static_cast<int>(value(x + dx, y + dy)) + noise(rng), 0, 255));
        }
    }
    return {std::move(reference), std::move(current)};
}

// Real frames: crops of the clip's frames 0 and `gap` (nothing when it cannot be read here, said so).
inline std::optional<std::pair<xme::Plane, xme::Plane>> clip_crop(const std::string& path, int gap, int left,
                                                                  int top, int width, int height) {
    std::vector<xme::Plane> crops;
    auto reader = xme::open_video(path);
    for (int f = 0; f <= gap; ++f) {
        auto frame = reader->read_frame();
        if (!frame) return std::nullopt;
        if (f != 0 && f != gap) continue;
        xme::Plane crop(width, height);
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) crop.at(x, y) = frame->luma.view().at_clamped(left + x, top + y);
        }
        crops.push_back(std::move(crop));
    }
    return std::pair{std::move(crops[0]), std::move(crops[1])};
}

// The clip to take real frames from: its .y4m twin when this build has no FFmpeg; empty, with a line
// saying so, when it is not here (the test then runs on random frames alone).
inline std::string usable_clip(std::string clip) {
    if (!clip.empty() && !xme::ffmpeg_available())
        clip = std::filesystem::path(clip).replace_extension(".y4m").string();
    if (!clip.empty() && !std::filesystem::exists(clip)) {
        std::printf("clip frames skipped: %s is not here\n", clip.c_str());
        clip.clear();
    }
    return clip;
}

// Runs result(c) for every case and compares it with expected(c) by `same`; prints the first `shown`
// mismatches with describe(c, got) and returns how many there were.
template <class Case, class Result, class Expected, class Same, class Describe>
int count_mismatches(const std::vector<Case>& cases, Result result, Expected expected, Same same,
                     Describe describe, int shown = 10) {
    int mismatches = 0;
    for (const Case& c : cases) {
        const auto got = result(c);
        if (same(got, expected(c))) continue;
        if (++mismatches <= shown) describe(c, got);
    }
    return mismatches;
}

}  // namespace xme::cuda::emulation
