// What every backend's session does alike, whatever its device (docs/engine.md, "One session layer"): which
// slot holds which resident frame, the pairs in flight, the frame-size check, and which previous field
// a pair reads. Keys are decoded by xme/search_key.hpp's motion_of_search_key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "xme/device.hpp"
#include "xme/error.hpp"

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
    [[nodiscard]] std::size_t size() const { return slots_.size(); }
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

// The pairs an asynchronous session (CUDA, Vulkan) has submitted and not yet handed back, oldest
// first, over a fixed number of buffer sets ("slots") reused in turn: a pair's slot is busy until its
// result has been read out of it. `finish(slot, current_id)` is the backend's: it waits for the pair in
// `slot` and returns its result. (Sessions that compute in submit() are SynchronousSession.)
class InFlightPairs {
public:
    explicit InFlightPairs(std::size_t slots) : slots_(slots) {}

    // The slot the next pair uses; a pair still in it is finished first (its buffers are needed now)
    // and its result kept for receive().
    template <class Finish>
    [[nodiscard]] std::size_t next_slot(Finish&& finish) {
        for (Entry& entry : entries_) {
            if (entry.slot == next_ && !entry.result) finish_entry(entry, finish);
        }
        return next_;
    }
    // The pair `current_id` now runs in next_slot()'s slot; the next pair takes the slot after it.
    void submitted(std::int64_t current_id) {
        entries_.push_back({next_, current_id, std::nullopt});
        next_ = (next_ + 1) % slots_;
    }
    // Throws Error(invalid_argument) when no pair is pending (receive() without submit()).
    void require_pending() const;
    // The oldest pair's result, finished first where it is not yet (require_pending() first).
    template <class Finish>
    [[nodiscard]] PairResult receive(Finish&& finish) {
        require_pending();
        Entry& oldest = entries_.front();
        if (!oldest.result) finish_entry(oldest, finish);
        PairResult result = std::move(*oldest.result);
        entries_.pop_front();
        return result;
    }
    [[nodiscard]] std::size_t pending() const { return entries_.size(); }
    [[nodiscard]] std::size_t slots() const { return slots_; }

private:
    struct Entry {
        std::size_t slot = 0;
        std::int64_t current_id = 0;
        std::optional<PairResult> result;
    };
    template <class Finish>
    static void finish_entry(Entry& entry, Finish& finish) {
        PairResult result = finish(entry.slot, entry.current_id);
        result.current_id = entry.current_id;
        entry.result = std::move(result);
    }

    std::size_t slots_;
    std::size_t next_ = 0;
    std::deque<Entry> entries_;
};

// The error of a receive() with no pair pending (MotionSession's contract), thrown by every session.
[[nodiscard]] Error no_pair_submitted();

// SessionOptions::resident_frames, checked: Error(invalid_argument) outside 2..max_resident_frames.
[[nodiscard]] std::size_t resident_frame_count(const SessionOptions& options);
// The frames a pair placed in `slots` took in (PairResult::frames_taken_in).
[[nodiscard]] inline int frames_taken_in(const ResidentFrameSlots::PairSlots& slots) {
    return (slots.reference_claimed ? 1 : 0) + (slots.current_claimed ? 1 : 0);
}

// Throws Error(invalid_argument) when a frame of `pair` is not the size the session was opened for.
void check_pair_size(const SessionOptions& options, const FramePair& pair);

// SPEC §8's previous field for `pair`: none when the chain reads none (needs_previous_field) or the
// pair starts a segment; else the pair's own (FramePair::previous) or `last`, the session's last
// result. Throws Error(invalid_argument) naming `device` when neither exists.
[[nodiscard]] const MotionField* previous_field_of(const FramePair& pair, const SearchParams& params,
                                                   const MotionField* last, const std::string& device);

}  // namespace xme
