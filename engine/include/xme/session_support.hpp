// What every backend's session does alike, whatever its device (docs/engine.md, "Sessions"): which
// slot holds which resident frame, the frame-size check, and which previous field a pair reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "xme/device.hpp"

namespace xme {

// The bookkeeping of a session's resident frames: which of its slots holds which frame id, the least
// recently used given up first. The pixels stay in the backend's own storage per slot (padded planes,
// device memory, images); this says where, so that each frame is uploaded once (a pair's current
// frame is the next pair's reference).
class ResidentFrameSlots {
public:
    explicit ResidentFrameSlots(std::size_t slots) : slots_(slots) {}

    // The slots of a pair's two frames: each found where it is, or claimed (then `*_claimed`: the
    // caller fills it), neither giving up the other's slot.
    struct PairSlots {
        int reference = 0;
        int current = 0;
        bool reference_claimed = false;
        bool current_claimed = false;
    };
    [[nodiscard]] PairSlots place(std::int64_t reference_id, std::int64_t current_id);
    // The slot holding frame `id` (marked as just used), or -1.
    [[nodiscard]] int find(std::int64_t id);
    // The least recently used slot other than `keep` (-1: none), now holding frame `id`.
    [[nodiscard]] int claim(std::int64_t id, int keep);
    // Every slot empty (after an upload that did not complete).
    void forget();

private:
    struct Slot {
        std::int64_t id = 0;
        bool filled = false;
        std::uint64_t last_use = 0;
    };
    std::vector<Slot> slots_;
    std::uint64_t clock_ = 0;
};

// Throws Error(invalid_argument) when a frame of `pair` is not the size the session was opened for.
void check_pair_size(const SessionOptions& options, const FramePair& pair);

// SPEC §8's previous field for `pair`: none when the chain reads none (needs_previous_field) or the
// pair starts a segment; else the pair's own (FramePair::previous) or `last`, the session's last
// result. Throws Error(invalid_argument) naming `device` when neither exists.
[[nodiscard]] const MotionField* previous_field_of(const FramePair& pair, const SearchParams& params,
                                                   const MotionField* last, const std::string& device);

}  // namespace xme
