#include "xme/session_support.hpp"

#include "xme/error.hpp"
#include "xme/operations.hpp"

namespace xme {

Error no_pair_submitted() {
    return {ErrorKind::invalid_argument, "receive() called with no frame pair submitted"};
}

void InFlightPairs::require_pending() const {
    if (entries_.empty()) throw no_pair_submitted();
}

ResidentFrameSlots::PairSlots ResidentFrameSlots::place(std::int64_t reference_id, std::int64_t current_id) {
    PairSlots slots;
    // Both looked up before either claims, so that neither gives up the other's slot.
    const int current_found = find(current_id);
    slots.reference = find(reference_id);
    if (slots.reference < 0) {
        slots.reference = claim(reference_id, current_found);
        slots.reference_claimed = true;
    }
    slots.current = current_found >= 0 ? current_found : find(current_id);
    if (slots.current < 0) {
        slots.current = claim(current_id, slots.reference);
        slots.current_claimed = true;
    }
    return slots;
}

int ResidentFrameSlots::find(std::int64_t id) {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        if (slots_[i].filled && slots_[i].id == id) {
            slots_[i].last_use = ++clock_;
            return static_cast<int>(i);
        }
    }
    return -1;
}

int ResidentFrameSlots::claim(std::int64_t id, int keep) {
    int victim = -1;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        if (static_cast<int>(i) == keep) continue;
        if (victim < 0 || slots_[i].last_use < slots_[static_cast<std::size_t>(victim)].last_use)
            victim = static_cast<int>(i);
    }
    slots_[static_cast<std::size_t>(victim)] = {id, true, ++clock_};
    return victim;
}

void ResidentFrameSlots::forget() {
    for (Slot& slot : slots_) slot.filled = false;
}

std::size_t resident_frame_count(const SessionOptions& options) {
    if (options.resident_frames < 2 || options.resident_frames > max_resident_frames) {
        throw Error(ErrorKind::invalid_argument,
                    "SessionOptions::resident_frames is " + std::to_string(options.resident_frames) +
                        ": a session keeps 2 to " + std::to_string(max_resident_frames) + " frames resident");
    }
    return static_cast<std::size_t>(options.resident_frames);
}

void check_pair_size(const SessionOptions& options, const FramePair& pair) {
    for (const auto& [plane, role] :
         {std::pair{pair.reference, "reference"}, std::pair{pair.current, "current"}}) {
        if (plane.width == options.width && plane.height == options.height) continue;
        throw Error(ErrorKind::invalid_argument,
                    std::string("the ") + role + " frame is " + std::to_string(plane.width) + "x" +
                        std::to_string(plane.height) + " but the session was opened for " +
                        std::to_string(options.width) + "x" + std::to_string(options.height));
    }
}

const MotionField* previous_field_of(const FramePair& pair, const SearchParams& params,
                                     const MotionField* last, const std::string& device) {
    if (!needs_previous_field(params) || pair.segment_start) return nullptr;
    if (pair.previous) return pair.previous.get();
    if (last != nullptr) return last;
    throw Error(ErrorKind::invalid_argument,
                device + ", frame " + std::to_string(pair.current_id) +
                    ": a pair inside a segment came without the previous pair's result, and this session "
                    "computed none: submit the segment from its start or give FramePair::previous");
}

}  // namespace xme
