// `xme draw INPUT --vectors v.csv -o out.png|frames_%04d.png|out.mp4`: the frames with the motion
// `xme estimate -o` found drawn over them (xme(1), `xme draw`).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <utility>

#include "cli_validators.hpp"
#include "commands.hpp"
#include "draw_field.hpp"
#include "field_file.hpp"
#include "job_options.hpp"
#include "output_paths.hpp"
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

// The frames of the file to draw, one at a time: all of them, --pair's one, or the first --pairs.
class FrameSelection {
public:
    FrameSelection(FieldFileReader& file, const DrawCommandOptions& o) : file_(file), o_(o) {}

    std::optional<FieldFrame> next() {
        if (ahead_) return std::exchange(ahead_, std::nullopt);
        if (o_.pairs >= 0 && taken_ >= o_.pairs) return std::nullopt;
        if (o_.pair && taken_ > 0) return std::nullopt;
        for (;;) {
            std::optional<FieldFrame> frame = file_.next();
            if (frame) {
                if (!first_) first_ = frame->frame;
                before_ = last_;
                last_ = frame->frame;
            }
            if (!o_.pair || (frame && frame->frame == *o_.pair)) {
                if (frame) ++taken_;
                return frame;
            }
            if (!frame || frame->frame > *o_.pair) refuse_pair(frame);
        }
    }
    // Reads the next frame ahead, so that next() gives it again.
    bool another() {
        ahead_ = next();
        return ahead_.has_value();
    }
    [[nodiscard]] std::int64_t first() const { return first_.value_or(0); }

private:
    [[noreturn]] void refuse_pair(const std::optional<FieldFrame>& after) const {
        std::string has;
        if (!first_) {
            has = "it has no frames";
        } else if (!after) {
            has = "it has frames " + std::to_string(*first_) + " to " + std::to_string(last_);
        } else if (after->frame == *first_) {
            has = "its first frame is " + std::to_string(*first_);
        } else {
            has = "it goes from frame " + std::to_string(before_) + " to " + std::to_string(after->frame);
        }
        throw Error(ErrorKind::invalid_argument, "--pair " + std::to_string(*o_.pair) + ": " + file_.path() +
                                                     " has no vectors for that frame; " + has);
    }

    FieldFileReader& file_;
    const DrawCommandOptions& o_;
    std::optional<FieldFrame> ahead_;
    std::int64_t taken_ = 0;
    std::optional<std::int64_t> first_;
    std::int64_t last_ = 0;    // the frame last read
    std::int64_t before_ = 0;  // the one read before it
};

[[noreturn]] void throw_input_too_short(const DrawCommandOptions& o, std::int64_t frame, std::int64_t had) {
    throw Error(ErrorKind::bad_input, o.input + " ends after " + std::to_string(had) + " frame(s), and " +
                                          o.vectors + " has vectors for frame " + std::to_string(frame) +
                                          ": were the vectors estimated on another video?");
}

int run_draw(const DrawCommandOptions& o) {
    check_output_paths({{"the input video", o.input, true}, {"the --vectors file", o.vectors}},
                       {{"-o", o.output}});
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

    FieldFileReader file(o.vectors);
    if (draw.partitions && !file.partitions()) {
        throw Error(ErrorKind::invalid_argument, "--partitions: " + o.vectors +
                                                     " has one row per block, no partitions; estimate with "
                                                     "--partitions all to draw them");
    }
    if (file.decided() && (draw.style == DrawStyle::flow || draw.partitions)) {
        throw Error(ErrorKind::unsupported, o.vectors +
                                                " holds SPEC §14's decided blocks (--refs, --direction "
                                                "both): they are drawn as arrows, not with --style flow "
                                                "or --partitions");
    }
    // The video first: its size bounds the rows a frame of the file may hold, as they are read.
    set_ffmpeg_log(o.quiet ? FfmpegLog::errors : FfmpegLog::warnings);
    auto reader = open_video(o.input, raw);
    const VideoInfo video = reader->info();
    check_frame_dimensions(o.input, video);
    file.limit_rows_to_picture(video.width, video.height, o.input);
    FrameSelection selection(file, o);
    std::optional<FieldFrame> field = selection.next();
    if (!field) throw Error(ErrorKind::bad_input, o.vectors + " holds no frame's vectors");
    const std::int64_t first = field->frame;
    if (target.kind == PictureKind::png && selection.another()) {
        throw Error(
            ErrorKind::invalid_argument,
            "-o " + o.output + " holds one picture and " + o.vectors +
                " has vectors for more than one frame (from frame " + std::to_string(first) +
                "): choose one with --pair FRAME, or name a pattern such as frames_%04d.png or a video");
    }

    int block_size = block_size_of(file, *field, video.width, video.height, o.input);  // before any output
    auto writer = open_picture_writer(target, video.width, video.height, video.fps_num, video.fps_den, first);

    std::int64_t position = 0;  // the index of the next frame the reader gives
    std::int64_t drawn = 0;
    for (; field; field = selection.next()) {
        const std::int64_t wanted = field->frame;
        if (drawn > 0) block_size = block_size_of(file, *field, video.width, video.height, o.input);
        if (wanted > position) {
            const std::int64_t skipped = reader->skip_frames(wanted - position);
            if (skipped < wanted - position) throw_input_too_short(o, wanted, position + skipped);
        }
        std::optional<Frame> frame = reader->read_frame();
        for (const auto& notice : reader->take_notices()) std::cerr << "xme: notice: " << notice.text << "\n";
        if (!frame) throw_input_too_short(o, wanted, wanted);
        position = wanted + 1;
        Picture picture = Picture::of_frame(*frame);
        if (file.decided()) {
            draw_decided(picture, field->rows, block_size);
        } else {
            draw_field(picture, field->rows, block_size, draw);
        }
        writer->write(wanted, picture);
        ++drawn;
    }
    writer->finish();
    if (!o.quiet) {
        std::printf("drew %lld frame(s) of %s with %s's vectors to %s\n", static_cast<long long>(drawn),
                    o.input.c_str(), o.vectors.c_str(), o.output.c_str());
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
        ->check(number_above_zero());
    cmd->add_option(
           "--flow-max", o->flow_max,
           "Vector length in pixels drawn fully saturated (--style flow); default: the frame's longest")
        ->check(number_above_zero());
    cmd->add_option("--pair", o->pair, "Draw only this frame (the `frame` column: the pair's current frame)")
        ->check(whole_number_from(1));
    cmd->add_option("--pairs", o->pairs, "Draw only the first N pairs of the file")
        ->check(whole_number_from(1));
    cmd->add_option("--size", o->size, "Frame size of raw input, WIDTHxHEIGHT");
    cmd->add_option("--pix-fmt", o->pixel_format,
                    "Pixel format of raw input: yuv420p, yuv422p, yuv444p, gray")
        ->capture_default_str();
    cmd->add_flag("-q,--quiet", o->quiet, "Say nothing on success, and only FFmpeg's errors");
    return {cmd, [o] { return run_draw(*o); }};
}

}  // namespace xme::cli
