#include "picture_reader.hpp"

#include <memory>
#include <stdexcept>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace xme::test {
namespace {

struct Closer {
    void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
    void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
    void operator()(AVFrame* f) const { av_frame_free(&f); }
    void operator()(AVPacket* p) const { av_packet_free(&p); }
    void operator()(SwsContext* s) const { sws_freeContext(s); }
};

void check(int code, const std::string& path, const char* what) {
    if (code < 0) throw std::runtime_error(path + ": " + what + " failed (" + std::to_string(code) + ")");
}

RgbPicture to_rgb(const AVFrame& frame) {
    RgbPicture picture;
    picture.width = frame.width;
    picture.height = frame.height;
    picture.rgb.resize(static_cast<std::size_t>(frame.width) * static_cast<std::size_t>(frame.height) * 3);
    std::unique_ptr<SwsContext, Closer> scaler(
        sws_getContext(frame.width, frame.height, static_cast<AVPixelFormat>(frame.format), frame.width,
                       frame.height, AV_PIX_FMT_RGB24, SWS_POINT, nullptr, nullptr, nullptr));
    if (!scaler) throw std::runtime_error("cannot convert the decoded frame to RGB24");
    std::uint8_t* planes[4] = {picture.rgb.data(), nullptr, nullptr, nullptr};
    int strides[4] = {frame.width * 3, 0, 0, 0};
    sws_scale(scaler.get(), frame.data, frame.linesize, 0, frame.height, planes, strides);
    return picture;
}

}  // namespace

std::vector<RgbPicture> decode_pictures(const std::string& path) {
    AVFormatContext* opened = nullptr;
    check(avformat_open_input(&opened, path.c_str(), nullptr, nullptr), path, "opening");
    std::unique_ptr<AVFormatContext, Closer> format(opened);
    check(avformat_find_stream_info(format.get(), nullptr), path, "reading its streams");
    const int stream = av_find_best_stream(format.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    check(stream, path, "finding its video stream");
    const AVCodec* codec = avcodec_find_decoder(format->streams[stream]->codecpar->codec_id);
    if (!codec) throw std::runtime_error(path + ": no decoder");
    std::unique_ptr<AVCodecContext, Closer> decoder(avcodec_alloc_context3(codec));
    check(avcodec_parameters_to_context(decoder.get(), format->streams[stream]->codecpar), path,
          "setting up");
    check(avcodec_open2(decoder.get(), codec, nullptr), path, "opening its decoder");
    std::unique_ptr<AVPacket, Closer> packet(av_packet_alloc());
    std::unique_ptr<AVFrame, Closer> frame(av_frame_alloc());
    std::vector<RgbPicture> pictures;
    auto drain = [&] {
        while (avcodec_receive_frame(decoder.get(), frame.get()) == 0) {
            pictures.push_back(to_rgb(*frame));
            av_frame_unref(frame.get());
        }
    };
    while (av_read_frame(format.get(), packet.get()) >= 0) {
        if (packet->stream_index == stream)
            check(avcodec_send_packet(decoder.get(), packet.get()), path, "decoding");
        av_packet_unref(packet.get());
        drain();
    }
    avcodec_send_packet(decoder.get(), nullptr);
    drain();
    return pictures;
}

}  // namespace xme::test
