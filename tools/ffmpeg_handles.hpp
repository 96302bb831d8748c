// FFmpeg's objects as unique_ptrs freed by their own functions, and FFmpeg's text for an error code:
// what the tools that write through libavcodec/libavformat (xme draw's picture encoder, codecview_mvs)
// share. The engine's reader keeps its own (engine/src/ffmpeg_video.cpp): tools do not see its sources.
#pragma once

#include <memory>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

namespace xme::ffmpeg {

struct FrameFree {
    void operator()(AVFrame* frame) const noexcept { av_frame_free(&frame); }
};
struct PacketFree {
    void operator()(AVPacket* packet) const noexcept { av_packet_free(&packet); }
};
struct CodecFree {
    void operator()(AVCodecContext* context) const noexcept { avcodec_free_context(&context); }
};
// An output context: its file (none for AVFMT_NOFILE muxers, which open their own) closed, then freed.
struct MuxerFree {
    void operator()(AVFormatContext* context) const noexcept {
        if (context->pb) avio_closep(&context->pb);
        avformat_free_context(context);
    }
};
using FramePtr = std::unique_ptr<AVFrame, FrameFree>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFree>;
using CodecPtr = std::unique_ptr<AVCodecContext, CodecFree>;
using MuxerPtr = std::unique_ptr<AVFormatContext, MuxerFree>;

inline std::string error_text(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

}  // namespace xme::ffmpeg
