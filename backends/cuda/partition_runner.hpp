// SPEC §9 in a CUDA session (host side): which chains the partition kernels run, and the per-session
// state they need: the key tables (partition_tables.hpp) on the device and one result buffer per stage.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <string>

#include "device_frames.hpp"
#include "partition_search.hpp"
#include "xme/device.hpp"
#include "xme/motion_field.hpp"

namespace xme::cuda {

inline constexpr const char* kPositionsVariant = "p41-positions";

// Whether `variant` of this device runs `options` when they ask for the 41 partitions, or when the variant
// is p41-positions (which runs nothing else), with the reason when not. Called only in those two cases.
[[nodiscard]] Support partition_support(const DeviceInfo& device, const std::string& variant,
                                        const SessionOptions& options);

class PartitionRunner {
public:
    // `stages` result buffers (device and pinned host) for `macroblocks` macroblocks.
    PartitionRunner(const SearchParams& params, bool positions_design, int macroblocks, int stages,
                    const CallSite& site);

    // Enqueues the search of `job` (block 16, expanded reference) for `pair` into the stage's buffer: with
    // the temporal predictor, p from pair.previous (uploaded) or from the last pair this runner searched
    // (resident), none at a segment's start; with the spatial one, a wavefront over the macroblocks.
    void launch(const SearchJob& job, const FramePair& pair, int stage, cudaStream_t stream,
                const CallSite& site);
    // Enqueues the copy of the stage's results (and guard bytes) to the host.
    void download(int stage, cudaStream_t stream, const CallSite& site);
    // The stage's results on the device (p41::PartitionRecord, one per macroblock), for compensation.
    [[nodiscard]] const void* device_records(int stage) const {
        return buffers_[static_cast<std::size_t>(stage)].device.get();
    }
    // After the stage's download finished: its results into `field` (macroblocks, and blocks = each
    // macroblock's 16x16 partition).
    void fill(int stage, MotionField& field, const std::string& device_name) const;

private:
    struct Buffers {
        PinnedMemory host;
        DeviceMemory device;
        PinnedMemory previous_host;  // temporal: the previous pair's 16x16 vectors from the host
        DeviceMemory previous;
    };
    [[nodiscard]] p41::Tables predictors(const FramePair& pair, int stage, cudaStream_t stream,
                                         const CallSite& site);
    bool positions_design_;
    bool quarter_pel_;
    bool temporal_;
    bool spatial_;
    bool centred_;  // SPEC §8's window centred on the predictor
    int lambda_;
    int range_;
    int last_stage_ = -1;  // the stage of the last pair searched: its records are the next p
    int macroblocks_;
    DeviceMemory terms_;
    DeviceMemory offsets_;
    DeviceMemory rows_done_;  // spatial: the row walk's counters and ticket (partition_search.hpp)
    p41::Tables tables_;
    std::array<Buffers, 4> buffers_;
};

}  // namespace xme::cuda
