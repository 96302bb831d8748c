// `xme draw INPUT --vectors v.csv -o out.png|frames_%04d.png|out.mp4`: the frames with the motion
// `xme estimate -o` found drawn over them (README, `xme draw`).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "draw_field.hpp"
#include "field_file.hpp"
#include "job_options.hpp"
#include "picture_output.hpp"
#include "xme/error.hpp"
#include "xme/video.hpp"

namespace xme::cli {
namespace {

struct DrawCommandOptions {
    std::string input;
    std::string vectors;
    std::string output;
    std::string style = "arrows";
    DrawOptions draw;
    double cost_max = 0;  // 0: not given
    double flow_max = 0;
    std::optional<std::int64_t> pair;
    std::int64_t pairs = -1;
    std::string size;
    std::string pixel_format = "yuv420p";
    bool quiet = false;
};

// The frames to draw: those of the file, or --pair's one, or its first --pairs.
std::vector<std::int64_t> frames_to_draw(const FieldFile& file, const DrawCommandOptions& o) {
    std::vector<std::int64_t> frames;
    for (const auto& entry : file.frames) frames.push_back(entry.first);
    if (o.pair) {
        if (!file.frames.contains(*o.pair)) {
            throw Error(ErrorKind::invalid_argument, "--pair " + std::to_string(*o.pair) + ": " + file.path +
                                                         " has no vectors for that frame; it has " +
                                                         std::to_string(frames.size()) + " pair(s), frames " +
                                                         std::to_string(frames.front()) + " to " +
                                                         std::to_string(frames.back()));
        }
        return {*o.pair};
    }
    if (o.pairs >= 0 && static_cast<std::size_t>(o.pairs) < frames.size())
        frames.resize(static_cast<std::size_t>(o.pairs));
    return frames;
}

[[noreturn]] void throw_input_too_short(const DrawCommandOptions& o, std::int64_t frame, std::int64_t had) {
    throw Error(ErrorKind::bad_input, o.input + " ends after " + std::to_string(had) + " frame(s), and " +
                                          o.vectors + " has vectors for frame " + std::to_string(frame) +
                                          ": were the vectors estimated on another video?");
}

int run_draw(const DrawCommandOptions& o) {
    if (!pictures_available()) {
        throw Error(
            ErrorKind::unsupported,
            "xme draw needs FFmpeg's libraries to write PNG and video, and this xme was built without "
            "them (XME_WITH_FFMPEG=OFF): build with FFmpeg's development packages");
    }
    const PictureTarget target = parse_picture_target(o.output, "-o");
    DrawOptions draw = o.draw;
    draw.style = o.style == "flow" ? DrawStyle::flow : DrawStyle::arrows;
    if (o.cost_max > 0) draw.cost_max = o.cost_max;
    if (o.flow_max > 0) draw.flow_max = o.flow_max;
    RawVideoOptions raw;
    if (!o.size.empty()) std::tie(raw.width, raw.height) = parse_frame_size(o.size, "--size");
    raw.chroma = parse_pixel_format(o.pixel_format);

    const FieldFile file = read_field_file(o.vectors);
    if (draw.partitions && !file.partitions) {
        throw Error(ErrorKind::invalid_argument, "--partitions: " + o.vectors +
                                                     " has one row per block, no partitions; estimate with "
                                                     "--partitions all to draw them");
    }
    const std::vector<std::int64_t> frames = frames_to_draw(file, o);
    if (target.kind == PictureKind::png && frames.size() > 1) {
        throw Error(ErrorKind::invalid_argument,
                    "-o " + o.output + " holds one picture and " + o.vectors + " has " +
                        std::to_string(frames.size()) + " pairs: choose one with --pair FRAME (frames " +
                        std::to_string(frames.front()) + " to " + std::to_string(frames.back()) +
                        "), or name a pattern such as frames_%04d.png or a video");
    }

    set_ffmpeg_log(o.quiet ? FfmpegLog::errors : FfmpegLog::warnings);
    auto reader = open_video(o.input, raw);
    const VideoInfo video = reader->info();
    check_frame_dimensions(o.input, video);
    std::vector<int> block_sizes;  // every frame checked before the first picture is written
    for (const std::int64_t frame : frames)
        block_sizes.push_back(block_size_of(file, frame, video.width, video.height, o.input));
    auto writer =
        open_picture_writer(target, video.width, video.height, video.fps_num, video.fps_den, frames.front());

    std::int64_t position = 0;  // the index of the next frame the reader gives
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const std::int64_t wanted = frames[i];
        if (wanted > position) {
            const std::int64_t skipped = reader->skip_frames(wanted - position);
            if (skipped < wanted - position) throw_input_too_short(o, wanted, position + skipped);
        }
        std::optional<Frame> frame = reader->read_frame();
        for (const auto& notice : reader->take_notices()) std::cerr << "xme: notice: " << notice.text << "\n";
        if (!frame) throw_input_too_short(o, wanted, wanted);
        position = wanted + 1;
        Picture picture = Picture::of_frame(*frame);
        draw_field(picture, file.frames.at(wanted), block_sizes[i], draw);
        writer->write(wanted, picture);
    }
    writer->finish();
    if (!o.quiet) {
        std::printf("drew %zu frame(s) of %s with %s's vectors to %s\n", frames.size(), o.input.c_str(),
                    o.vectors.c_str(), o.output.c_str());
    }
    return 0;
}

}  // namespace

Command add_draw_command(CLI::App& app) {
    auto o = std::make_shared<DrawCommandOptions>();
    auto* cmd =
        app.add_subcommand("draw", "Draw the vectors of `xme estimate -o` over the frames (PNG or video)");
    cmd->add_option("input", o->input, "The video the vectors were estimated on")->required();
    cmd->add_option("--vectors", o->vectors, "The vectors: .csv or .npy from `xme estimate -o`")->required();
    cmd->add_option(
           "-o,--output", o->output,
           "out.png (one pair), frames_%04d.png (one PNG per pair, numbered by frame) or a video (out.mp4)")
        ->required();
    cmd->add_option("--style", o->style,
                    "arrows: one per block, coloured by cost; flow: the optical-flow colour wheel")
        ->check(CLI::IsMember({"arrows", "flow"}))
        ->capture_default_str();
    cmd->add_flag("--partitions", o->draw.partitions,
                  "Outline the chosen partitions (vectors estimated with --partitions all), colour by shape");
    cmd->add_option("--cost-max", o->cost_max,
                    "The cost drawn red (the file's cost units); default: the frame's range")
        ->check(CLI::PositiveNumber);
    cmd->add_option(
           "--flow-max", o->flow_max,
           "Vector length in pixels drawn fully saturated (--style flow); default: the frame's longest")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--pair", o->pair, "Draw only this frame (the `frame` column: the pair's current frame)");
    cmd->add_option("--pairs", o->pairs, "Draw only the first N pairs of the file")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--size", o->size, "Frame size of raw input, WIDTHxHEIGHT");
    cmd->add_option("--pix-fmt", o->pixel_format,
                    "Pixel format of raw input: yuv420p, yuv422p, yuv444p, gray")
        ->capture_default_str();
    cmd->add_flag("-q,--quiet", o->quiet, "Say nothing on success, and only FFmpeg's errors");
    return {cmd, [o] { return run_draw(*o); }};
}

}  // namespace xme::cli
