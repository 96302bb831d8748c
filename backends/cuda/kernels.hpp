// What the host side of the backend hands to the kernels (*.cu), and the launchers they export.
// Host-only types: no xme headers, no device code. Every launcher enqueues on `stream` and returns
// cudaGetLastError() after its launches, for the caller to check with the launch's name.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace xme::cuda {

// The layout of one edge-padded frame on the device (SPEC §1). Pixel (x, y) of the frame, for
// -margin_x <= x < padded_width + margin_x and -margin_y <= y < padded_height + margin_y, lies at
// origin[y * pitch + x]; outside the frame it repeats the nearest edge pixel.
struct FrameLayout {
    int width = 0;  // W, H of the frame
    int height = 0;
    int padded_width = 0;  // Wp, Hp: the frame rounded up to whole blocks
    int padded_height = 0;
    int margin_x = 0;  // columns left of x = 0 (a multiple of 16, so that rows of blocks align)
    int margin_y = 0;  // rows above y = 0
    int pitch = 0;     // bytes per row (a multiple of 256); the expanded copy has pitch words per row
    int rows = 0;      // padded_height + 2 * margin_y
};

// One frame resident on the device.
struct DeviceFrame {
    std::uint8_t* pixels = nullptr;     // row 0 of the padded frame (-margin_y)
    std::uint32_t* expanded = nullptr;  // fast variants: word c of a row holds bytes c..c+3 of that row
    cudaTextureObject_t texture = 0;    // fast-texture: pixels as a linear-filtered uchar texture
    std::uint8_t* levels[2] = {};       // ehds: levels 1 and 2 of the mean pyramid (PyramidJob's sizes)
};

// A block's result on the device: exactly xme::BlockMotion's layout (checked in cuda_session.cpp), so
// that results are downloaded into a MotionField as they are. Vectors in quarter-pel units.
struct MotionRecord {
    std::int16_t mv_x;
    std::int16_t mv_y;
    std::uint32_t cost;        // J of the field's cost kind (SPEC §8)
    std::uint32_t candidates;  // integer candidates evaluated (SPEC §7, §11)
};

// SPEC §8 for one job: the rate term, the predictor, the window's centre, the order of the blocks and
// the predictor set. Chains with none of them (lambda 0, no predictor, centre 0, a search without the
// set) take the packed-key path of SPEC §3 and leave this unused.
struct RateTerm {
    bool active = false;  // the chain uses this struct: results go to SearchJob::records
    int lambda = 0;
    // p is the temporal predictor: the previous pair's results, or null (segment start, another
    // predictor): p = 0; or the previous pair's fast rate keys (rate_common.cuh), packed with key_range.
    const MotionRecord* temporal = nullptr;
    const std::uint64_t* temporal_keys = nullptr;
    int key_range = 0;
    // p is the spatial predictor: the median of this frame's final vectors in SearchJob::records.
    bool spatial = false;
    // Blocks run as SPEC §8's wavefront, each publishing its final record in SearchJob::records (for
    // the spatial predictor or the predictor set); `wavefront`: blocks_y + 1 zeroed counters (rows
    // done, ticket).
    bool wavefront_order = false;
    int* wavefront = nullptr;
    // The walks get SPEC §8's predictor set (in wavefront order); its T from `previous`, the previous
    // pair's results, null at a segment's start.
    bool predictor_set = false;
    const MotionRecord* previous = nullptr;
    bool centre_on_predictor = false;  // window centre round(p / 4) instead of 0
};

// ehds's mean pyramid (SPEC §11): levels 1 and 2 ([0] and [1]) of both frames, each tightly packed
// (pitch = width): ceil(W / 2) x ceil(H / 2), then half that again, rounded up.
struct PyramidJob {
    const std::uint8_t* current[2] = {};
    const std::uint8_t* reference[2] = {};
    int width[2] = {};
    int height[2] = {};
};

// One integer search (plus refinement) of a pair of resident frames.
struct SearchJob {
    FrameLayout layout;
    const std::uint8_t* current = nullptr;           // pixel (0, 0) of the padded current frame
    const std::uint8_t* reference = nullptr;         // pixel (0, 0) of the padded reference frame
    const std::uint32_t* reference_words = nullptr;  // pixel (0, 0) of the expanded reference (fast)
    cudaTextureObject_t reference_texture = 0;       // fast-texture refinement
    const std::uint32_t* dy_ranks = nullptr;  // fast: [dy] = 2|dy| - (dy < 0) for -range <= dy <= range
    int block_size = 16;
    int range = 16;
    bool restrict_border = false;
    int blocks_x = 0;
    int blocks_y = 0;
    std::uint64_t* keys = nullptr;  // per block, row-major: the packed key (xme/search_key.hpp) of the winner
    RateTerm rate;
    MotionRecord* records = nullptr;  // rate.active: per block, row-major, the result
    PyramidJob pyramid;               // ehds only
};

// Raw frame (tightly packed, width x height) to the padded layout, and the expanded copy if asked.
cudaError_t launch_pad_frame(const std::uint8_t* raw, const FrameLayout& layout, DeviceFrame frame,
                             cudaStream_t stream);

// ehds's mean pyramid of a raw upload (SPEC §11's 2x2 means): levels 1 and 2 into frame.levels, sized
// as PyramidJob says (mean_pyramid.cuh's pyramid_side).
cudaError_t launch_mean_pyramid(const std::uint8_t* raw, const FrameLayout& layout, DeviceFrame frame,
                                cudaStream_t stream);

// Integer full search (SPEC §2-§3), one launcher per variant; each writes every block's key.
cudaError_t launch_full_search_global(const SearchJob& job, cudaStream_t stream);
cudaError_t launch_full_search_shared(const SearchJob& job, cudaStream_t stream);
cudaError_t launch_full_search_candidate(const SearchJob& job, cudaStream_t stream);
// The fast search combines keys with atomicMin: `keys` must hold ~0 (all ones) before it runs.
cudaError_t launch_full_search_fast(const SearchJob& job, cudaStream_t stream);

// Half-pel refinement (SPEC §4) of the integer keys in place: the winner's key with cost4.
cudaError_t launch_hpel_exact(const SearchJob& job, cudaStream_t stream);
cudaError_t launch_hpel_texture(const SearchJob& job, cudaStream_t stream);

// The packed-SAD microbenchmark: vabsdiff4 instructions per second with every SM busy, or a negative
// value with *error set.
double measure_vabsdiff4_per_second(int device, cudaError_t* error, const char** failed_call);

}  // namespace xme::cuda
