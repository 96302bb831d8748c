// Motion vectors in FFmpeg's AVMotionVector convention (libavutil/motion_vector.h), for the tools that
// read FFmpeg's exported vectors (`-flags2 +export_mvs`, the codecview filter). FFmpeg carries them as
// frame side data (AV_FRAME_DATA_MOTION_VECTORS), which no muxer stores, so they go to a file.
#pragma once

#include <memory>
#include <string>

#include "xme/decided_field_io.hpp"
#include "xme/field_io.hpp"

namespace xme {

// ".npy" (named *.mvs.npy by convention): a NumPy structured array, one record per block (with
// FieldLayout::partitions, per partition of each macroblock's chosen mode), appended frame by frame,
// whole after every frame, to a file renamed onto the path when finished (xme/field_io.hpp).
// Fields, packed, little-endian: frame (int32, the `frame` of -o's rows),
// then AVMotionVector's in its order and types: source (int32, -1: the past reference), w, h (uint8,
// the block's or partition's size), src_x, src_y, dst_x, dst_y (int16), flags (uint64, 0), motion_x,
// motion_y (int32), motion_scale (uint16, 4). dst is the centre of the block in the current frame
// (x + w/2, y + h/2, as FFmpeg's decoders and its mestimate filter fill it); motion is xme's vector
// unchanged (quarter-pel, from the current block to its match in the reference: FFmpeg's motion =
// src - dst has the same direction); src = dst + motion / motion_scale in C's integer division
// (toward zero), as FFmpeg's decoders compute it: where the block's pixels come from in the reference.
// Throws Error(invalid_argument) for a name not ending in ".npy", Error(io) when it cannot be written.
[[nodiscard]] std::unique_ptr<FieldWriter> open_mvs_writer(const std::string& path,
                                                           FieldLayout layout = FieldLayout::blocks);

// SPEC §14's runs (xme/decided_field_io.hpp): the same records, one per decided block with `source` its
// reference's signed frame distance (FFmpeg's sign: negative from the past, positive from the future),
// two for a bi-predicted block (its past vector, then its future one, each with the block's J as
// cost); with both directions, then one per block of frame - 1's backward field (frame - 1, source +1).
[[nodiscard]] std::unique_ptr<DecidedFieldWriter> open_decided_mvs_writer(const std::string& path);

// The numpy dtype of its records, as the file's header gives it.
[[nodiscard]] std::string mvs_record_descr();
inline constexpr int mvs_record_bytes = 36;  // packed: 4 + 4 + 1 + 1 + 4 * 2 + 8 + 4 + 4 + 2

}  // namespace xme
