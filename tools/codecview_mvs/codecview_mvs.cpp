// codecview_mvs: draws the vectors of `xme estimate --export-mvs` on the video they were estimated on,
// with FFmpeg's own codecview filter. FFmpeg carries motion vectors only as frame side data, which no
// container stores (xme(1), --export-mvs), so this program decodes the clip, attaches each frame's records as
// AV_FRAME_DATA_MOTION_VECTORS, runs `codecview=mv=pf` through libavfilter and encodes the result.
//   codecview_mvs INPUT VECTORS.mvs.npy OUTPUT [--frames N]
// OUTPUT: a video (.mp4, .mkv, .y4m ...: the muxer's default codec) or images (out_%04d.png).
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
}

#include "../ffmpeg_handles.hpp"
#include "mvs_file.hpp"
#include "xme/error.hpp"

namespace {

using xme::Error;
using xme::ErrorKind;
namespace ffmpeg = xme::ffmpeg;

// The input's and the filter graph's objects (the encoder's: ffmpeg_handles.hpp).
struct CloseInput {
    void operator()(AVFormatContext* f) const { avformat_close_input(&f); }
};
struct FreeGraph {
    void operator()(AVFilterGraph* g) const { avfilter_graph_free(&g); }
};
struct FreeInOut {
    void operator()(AVFilterInOut* io) const { avfilter_inout_free(&io); }
};
using Frame = ffmpeg::FramePtr;
using Packet = ffmpeg::PacketPtr;

// Throws Error(kind) with FFmpeg's reason when `code` is an error.
int check(int code, ErrorKind kind, const std::string& what) {
    if (code < 0) throw Error(kind, what + ": " + ffmpeg::error_text(code));
    return code;
}

struct Input {
    std::unique_ptr<AVFormatContext, CloseInput> format;
    ffmpeg::CodecPtr decoder;
    int stream = -1;
    AVRational frame_rate{25, 1};

    explicit Input(const std::string& path) {
        AVFormatContext* raw = nullptr;
        check(avformat_open_input(&raw, path.c_str(), nullptr, nullptr), ErrorKind::bad_input,
              "cannot open " + path);
        format.reset(raw);
        check(avformat_find_stream_info(raw, nullptr), ErrorKind::bad_input, "cannot read " + path);
        const AVCodec* codec = nullptr;
        stream = check(av_find_best_stream(raw, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0), ErrorKind::bad_input,
                       path + " has no video stream this FFmpeg decodes");
        decoder.reset(avcodec_alloc_context3(codec));
        check(avcodec_parameters_to_context(decoder.get(), raw->streams[stream]->codecpar),
              ErrorKind::bad_input, path);
        check(avcodec_open2(decoder.get(), codec, nullptr), ErrorKind::bad_input, "cannot decode " + path);
        const AVRational guessed = av_guess_frame_rate(raw, raw->streams[stream], nullptr);
        if (guessed.num > 0 && guessed.den > 0) frame_rate = guessed;
    }
};

struct Output {
    std::string path;
    ffmpeg::MuxerPtr owner;
    AVFormatContext* format = nullptr;
    ffmpeg::CodecPtr encoder;
    AVStream* stream = nullptr;
    AVPixelFormat pixel_format = AV_PIX_FMT_YUV420P;

    Output(const std::string& file, int width, int height, AVRational frame_rate) : path(file) {
        check(avformat_alloc_output_context2(&format, nullptr, nullptr, path.c_str()),
              ErrorKind::invalid_argument,
              "cannot tell a format from " + path + " (name it .mp4, .mkv, .y4m or out_%04d.png)");
        owner.reset(format);
        const AVCodecID id =
            av_guess_codec(format->oformat, nullptr, path.c_str(), nullptr, AVMEDIA_TYPE_VIDEO);
        const AVCodec* codec = avcodec_find_encoder(id);
        if (codec == nullptr)
            throw Error(ErrorKind::unsupported,
                        "this FFmpeg has no encoder for " + path + "'s default codec");
        encoder.reset(avcodec_alloc_context3(codec));
        // codecview draws on yuv420p; keep it where the encoder takes it (PNG takes RGB).
        if (codec->pix_fmts != nullptr) {
            pixel_format = codec->pix_fmts[0];
            for (const AVPixelFormat* f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; ++f)
                if (*f == AV_PIX_FMT_YUV420P) pixel_format = *f;
        }
        encoder->width = width;
        encoder->height = height;
        encoder->pix_fmt = pixel_format;
        encoder->time_base = av_inv_q(frame_rate);
        encoder->framerate = frame_rate;
        if (format->oformat->flags & AVFMT_GLOBALHEADER) encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        check(avcodec_open2(encoder.get(), codec, nullptr), ErrorKind::unsupported, "cannot encode " + path);
        stream = avformat_new_stream(format, nullptr);
        check(avcodec_parameters_from_context(stream->codecpar, encoder.get()), ErrorKind::io, path);
        stream->time_base = encoder->time_base;
        if (!(format->oformat->flags & AVFMT_NOFILE))
            check(avio_open(&format->pb, path.c_str(), AVIO_FLAG_WRITE), ErrorKind::io,
                  "cannot write " + path);
        check(avformat_write_header(format, nullptr), ErrorKind::io, "cannot write " + path);
    }
    // Encodes `frame` (nullptr: the end) and writes every packet ready.
    void encode(const AVFrame* frame) {
        check(avcodec_send_frame(encoder.get(), frame), ErrorKind::io, "cannot encode " + path);
        const Packet packet(av_packet_alloc());
        for (;;) {
            const int got = avcodec_receive_packet(encoder.get(), packet.get());
            if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
            check(got, ErrorKind::io, "cannot encode " + path);
            // One frame per tick of the encoder's time base: without a duration the MP4 muxer ends
            // the track (its edit list) at the last frame's start, and players drop that frame.
            if (packet->duration == 0) packet->duration = 1;
            av_packet_rescale_ts(packet.get(), encoder->time_base, stream->time_base);
            packet->stream_index = stream->index;
            check(av_interleaved_write_frame(format, packet.get()), ErrorKind::io, "cannot write " + path);
        }
    }
    void finish() {
        encode(nullptr);
        check(av_write_trailer(format), ErrorKind::io, "cannot write " + path);
    }
};

// buffer -> format=yuv420p -> codecview=mv=pf -> format=<the encoder's> -> buffersink
struct Graph {
    std::unique_ptr<AVFilterGraph, FreeGraph> graph{avfilter_graph_alloc()};
    AVFilterContext* source = nullptr;
    AVFilterContext* sink = nullptr;

    Graph(const AVCodecContext& decoder, AVRational frame_rate, AVPixelFormat output) {
        const std::string arguments =
            "video_size=" + std::to_string(decoder.width) + "x" + std::to_string(decoder.height) +
            ":pix_fmt=" + std::to_string(decoder.pix_fmt) + ":time_base=" + std::to_string(frame_rate.den) +
            "/" + std::to_string(frame_rate.num) + ":pixel_aspect=1/1";
        const std::string what = "cannot set up FFmpeg's codecview filter";
        check(avfilter_graph_create_filter(&source, avfilter_get_by_name("buffer"), "in", arguments.c_str(),
                                           nullptr, graph.get()),
              ErrorKind::unsupported, what);
        check(avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", nullptr, nullptr,
                                           graph.get()),
              ErrorKind::unsupported, what);
        std::unique_ptr<AVFilterInOut, FreeInOut> outputs(avfilter_inout_alloc());
        std::unique_ptr<AVFilterInOut, FreeInOut> inputs(avfilter_inout_alloc());
        outputs->name = av_strdup("in");
        outputs->filter_ctx = source;
        inputs->name = av_strdup("out");
        inputs->filter_ctx = sink;
        const std::string chain =
            std::string("format=yuv420p,codecview=mv=pf,format=") + av_get_pix_fmt_name(output);
        AVFilterInOut* in = inputs.release();
        AVFilterInOut* out = outputs.release();
        const int parsed = avfilter_graph_parse_ptr(graph.get(), chain.c_str(), &in, &out, nullptr);
        avfilter_inout_free(&in);
        avfilter_inout_free(&out);
        check(parsed, ErrorKind::unsupported, what);
        check(avfilter_graph_config(graph.get(), nullptr), ErrorKind::unsupported, what);
    }
};

struct Counts {
    std::int64_t frames = 0;
    std::int64_t drawn_frames = 0;
    std::int64_t vectors = 0;
};

// Attaches frame `index`'s vectors as side data and marks it a P-frame: codecview's mv=pf draws the
// forward vectors (source < 0) of P-frames, and each of xme's pairs predicts a frame from the one before.
void attach(AVFrame& frame, const std::vector<AVMotionVector>* vectors, Counts& counts) {
    if (vectors == nullptr || vectors->empty()) return;
    const std::size_t bytes = vectors->size() * sizeof(AVMotionVector);
    AVFrameSideData* side = av_frame_new_side_data(&frame, AV_FRAME_DATA_MOTION_VECTORS, bytes);
    if (side == nullptr) throw Error(ErrorKind::device, "out of memory for a frame's vectors");
    std::memcpy(side->data, vectors->data(), bytes);
    frame.pict_type = AV_PICTURE_TYPE_P;
    ++counts.drawn_frames;
    counts.vectors += static_cast<std::int64_t>(vectors->size());
}

int run(const std::string& input_path, const std::string& vectors_path, const std::string& output_path,
        std::int64_t max_frames) {
    const auto vectors = xme::codecview::read_mvs_file(vectors_path);
    Input input(input_path);
    std::unique_ptr<Output> output;
    std::unique_ptr<Graph> graph;
    Counts counts;
    const Frame decoded(av_frame_alloc());
    const Frame filtered(av_frame_alloc());
    const Packet packet(av_packet_alloc());
    auto drain_graph = [&] {
        for (;;) {
            const int got = av_buffersink_get_frame(graph->sink, filtered.get());
            if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
            check(got, ErrorKind::unsupported, "codecview failed");
            // The P mark was for codecview; an encoder would take it as a forced frame type.
            filtered->pict_type = AV_PICTURE_TYPE_NONE;
            output->encode(filtered.get());
            av_frame_unref(filtered.get());
        }
    };
    auto receive = [&] {
        for (;;) {
            const int got = avcodec_receive_frame(input.decoder.get(), decoded.get());
            if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
            check(got, ErrorKind::bad_input, "cannot decode " + input_path);
            if (max_frames >= 0 && counts.frames >= max_frames) {
                av_frame_unref(decoded.get());
                continue;
            }
            if (!graph) {
                output =
                    std::make_unique<Output>(output_path, decoded->width, decoded->height, input.frame_rate);
                graph = std::make_unique<Graph>(*input.decoder, input.frame_rate, output->pixel_format);
            }
            const auto found = vectors.find(counts.frames);
            attach(*decoded, found == vectors.end() ? nullptr : &found->second, counts);
            decoded->pts = counts.frames++;
            check(av_buffersrc_add_frame(graph->source, decoded.get()), ErrorKind::unsupported,
                  "codecview failed");
            drain_graph();
        }
    };
    while (av_read_frame(input.format.get(), packet.get()) >= 0 &&
           (max_frames < 0 || counts.frames < max_frames)) {
        if (packet->stream_index == input.stream)
            check(avcodec_send_packet(input.decoder.get(), packet.get()), ErrorKind::bad_input,
                  "cannot decode " + input_path);
        av_packet_unref(packet.get());
        receive();
    }
    avcodec_send_packet(input.decoder.get(), nullptr);
    receive();
    if (!graph) throw Error(ErrorKind::bad_input, input_path + " has no frame to draw on");
    check(av_buffersrc_add_frame(graph->source, nullptr), ErrorKind::unsupported, "codecview failed");
    drain_graph();
    output->finish();
    std::cerr << "codecview_mvs: drew " << counts.vectors << " vectors on " << counts.drawn_frames << " of "
              << counts.frames << " frames into " << output_path << "\n";
    if (counts.drawn_frames == 0)
        std::cerr << "codecview_mvs: notice: no frame of " << input_path << " has vectors in " << vectors_path
                  << " (their frame indices count from the input's first frame)\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string usage =
        "usage: codecview_mvs INPUT VECTORS.mvs.npy OUTPUT [--frames N]\n"
        "  OUTPUT: a video (.mp4, .mkv, .y4m ...) or images (out_%04d.png)";
    std::int64_t frames = -1;
    if (argc == 6 && std::strcmp(argv[4], "--frames") == 0) {
        char* end = nullptr;
        frames = std::strtoll(argv[5], &end, 10);
        if (*argv[5] == '\0' || *end != '\0' || frames < 1) {
            std::cerr << "codecview_mvs: error: --frames " << argv[5] << " is not a count of 1 or more\n"
                      << usage << "\n";
            return 2;
        }
    } else if (argc != 4) {
        std::cerr << usage << "\n";
        return argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) ? 0 : 2;
    }
    av_log_set_level(AV_LOG_ERROR);
    try {
        return run(argv[1], argv[2], argv[3], frames);
    } catch (const Error& e) {
        std::cerr << "codecview_mvs: error: " << e.what() << "\n";
        return e.exit_code();
    }
}
