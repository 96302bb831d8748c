// SPEC §14 over a run's frames on one device (xme/references.hpp): per frame, each reference's pair
// through the device's session with its scaled temporal predictor, then the decision; with both
// directions, each pair's backward estimate and the consistency of the two.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "xme/band_workers.hpp"
#include "xme/device.hpp"
#include "xme/references.hpp"

namespace xme {

struct DecidedFrame {
    std::int64_t frame = 0;                // the current frame's index
    std::shared_ptr<const Frame> current;  // its pixels (as fed: with chroma when the reader kept it)
    DecidedField decided;
    // Both directions: frame - 1 estimated against frame (its blocks' grid is the same; null otherwise,
    // shared with the next frame's temporal predictor), and each forward block's consistency with it (§14).
    std::shared_ptr<const MotionField> backward;
    std::vector<std::uint32_t> consistency;
    std::shared_ptr<const Plane> prediction;  // §12's prediction by the decided blocks (predict_decided)
    double mc_psnr_db = 0;                    // of `prediction` against the current frame
    double device_seconds = 0;                // the device's own time for every pair of this frame
    int pairs = 0;                            // the pairs it took: one per reference, and the backward one
    int frames_taken_in = 0;                  // the frames its pairs uploaded (PairResult::frames_taken_in)
};

class ReferenceRun {
public:
    // Opens a session of `device` with `options` (its size set), keeping the frames the references span
    // resident (ReferenceOptions::resident_frames); throws what open_session throws, and
    // ReferenceOptions::validate's errors.
    ReferenceRun(Device& device, const SessionOptions& options, ReferenceOptions references);

    // The frames in order, the first numbered `first_index`: returns the frames decided so far, in
    // order (a frame waits for its furthest future reference; where the chain reads no previous field,
    // also for the next frame's pairs to be in flight, so that the device works while the host decides).
    [[nodiscard]] std::vector<DecidedFrame> feed(std::shared_ptr<const Frame> frame);
    // After the last frame: the frames still undecided, with the references that exist.
    [[nodiscard]] std::vector<DecidedFrame> finish();

    void set_first_index(std::int64_t first_index) {
        next_ = first_index;
        first_ = first_index;
    }

private:
    // A frame whose pairs are in flight: its references in the run (the list's order), the order they
    // were submitted in, and the scaled temporal fields they read.
    struct PendingFrame {
        std::int64_t frame = 0;
        std::vector<int> available;
        std::vector<std::size_t> order;
        std::vector<std::shared_ptr<const MotionField>> temporal;
    };
    void submit_frame(std::int64_t frame, std::int64_t last, std::vector<DecidedFrame>& decided);
    void complete_oldest(std::vector<DecidedFrame>& decided);
    void submit_pair(std::int64_t reference, std::int64_t current,
                     std::shared_ptr<const MotionField> previous);
    void forget_old_frames();

    SessionOptions options_;
    ReferenceOptions references_;
    std::unique_ptr<MotionSession> session_;
    // The host's part of each frame (decision, prediction, MC-PSNR) over SessionOptions::threads.
    std::unique_ptr<BandWorkers> workers_;
    bool reads_previous_ = false;  // the chain reads the previous field (SPEC §8): no frame overlaps another
    std::deque<PendingFrame> pending_;
    std::map<std::int64_t, std::shared_ptr<const Frame>> frames_;
    std::int64_t first_ = 0;
    std::int64_t next_ = 0;                 // the next frame to decide
    std::int64_t last_fed_ = -1;            // the last frame fed
    std::int64_t estimated_ = 0;            // frames estimated so far: §8's segments count them
    std::optional<DecidedField> previous_;  // the last estimated frame's decision, same segment
    std::shared_ptr<const MotionField> previous_backward_;
};

}  // namespace xme
