// PNG and video through libavcodec and libavformat (only in builds with FFmpeg).
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../ffmpeg_handles.hpp"
#include "output_files.hpp"
#include "picture_output.hpp"
#include "xme/error.hpp"
#include "xme/staged_file.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace xme::cli {
namespace {

using ffmpeg::FramePtr;
using ffmpeg::PacketPtr;
using Codec = ffmpeg::CodecPtr;
using ffmpeg::error_text;

// The reason in "cannot create PATH: REASON" (xme/staged_file.hpp).
std::string reason_of(const std::string& message, const std::string& path) {
    const std::size_t at = message.find(path + ": ");
    return at == std::string::npos ? message : message.substr(at + path.size() + 2);
}

struct ScalerFree {
    void operator()(SwsContext* scaler) const noexcept { sws_freeContext(scaler); }
};

template <typename T>
T* allocated(T* pointer) {
    if (!pointer) throw std::bad_alloc();
    return pointer;
}

FramePtr make_av_frame(AVPixelFormat format, int width, int height) {
    FramePtr frame(allocated(av_frame_alloc()));
    frame->format = format;
    frame->width = width;
    frame->height = height;
    if (av_frame_get_buffer(frame.get(), 0) < 0) throw std::bad_alloc();
    return frame;
}

// Copies the picture into an RGB24 frame of at least its size, the extra columns and rows repeating
// its last ones (a 4:2:0 encoder needs an even size).
void copy_padded(const Picture& picture, AVFrame& frame) {
    for (int y = 0; y < frame.height; ++y) {
        const std::uint8_t* in = picture.row(std::min(y, picture.height() - 1));
        std::uint8_t* out = frame.data[0] + std::ptrdiff_t{y} * frame.linesize[0];
        std::copy(in, in + std::ptrdiff_t{picture.width()} * 3, out);
        for (int x = picture.width(); x < frame.width; ++x)
            std::copy(out + (picture.width() - 1) * 3, out + picture.width() * 3, out + x * 3);
    }
}

class PngWriter final : public PictureWriter {
public:
    PngWriter(PictureTarget target, int width, int height, std::int64_t first_frame)
        : target_(std::move(target)), first_(target_.file_for(first_frame), "the picture") {
        const AVCodec* png = avcodec_find_encoder(AV_CODEC_ID_PNG);
        if (!png)
            throw Error(ErrorKind::unsupported, "this FFmpeg has no PNG encoder: write a video instead");
        codec_.reset(allocated(avcodec_alloc_context3(png)));
        codec_->width = width;
        codec_->height = height;
        codec_->pix_fmt = AV_PIX_FMT_RGB24;
        codec_->time_base = {1, 25};
        if (const int code = avcodec_open2(codec_.get(), png, nullptr); code < 0)
            throw Error(ErrorKind::unsupported, "cannot open FFmpeg's PNG encoder: " + error_text(code));
        frame_ = make_av_frame(AV_PIX_FMT_RGB24, width, height);
        packet_.reset(allocated(av_packet_alloc()));
    }

    void write(std::int64_t frame, const Picture& picture) override {
        if (av_frame_make_writable(frame_.get()) < 0) throw std::bad_alloc();
        copy_padded(picture, *frame_);
        frame_->pts = frame;
        std::string bytes;
        int code = avcodec_send_frame(codec_.get(), frame_.get());
        while (code >= 0) {
            code = avcodec_receive_packet(codec_.get(), packet_.get());
            if (code < 0) break;
            bytes.append(reinterpret_cast<const char*>(packet_->data),
                         static_cast<std::size_t>(packet_->size));
            av_packet_unref(packet_.get());
        }
        if (code != AVERROR(EAGAIN) && code != AVERROR_EOF)
            throw Error(ErrorKind::io, "cannot encode the picture of frame " + std::to_string(frame) +
                                           " as PNG: " + error_text(code));
        if (first_written_) {
            write_output_file(target_.file_for(frame), bytes, "the picture");
        } else {
            first_.write(bytes);  // the path claimed when the writer opened
            first_written_ = true;
        }
    }

    void finish() override {}

private:
    PictureTarget target_;
    ClaimedOutput first_;
    bool first_written_ = false;
    Codec codec_;
    FramePtr frame_;
    PacketPtr packet_;
};

class VideoWriter final : public PictureWriter {
public:
    VideoWriter(const PictureTarget& target, int width, int height, int fps_num, int fps_den)
        : path_(target.path), option_(target.option), width_(width), height_(height) {
        AVFormatContext* opened = nullptr;
        if (avformat_alloc_output_context2(&opened, nullptr, nullptr, path_.c_str()) < 0 || !opened) {
            throw Error(
                ErrorKind::invalid_argument,
                target.option + " " + path_ +
                    ": FFmpeg knows no container by that extension; name a .png, a "
                    "pattern such as frames_%04d.png, or a video such as out.mp4, out.mkv or out.avi");
        }
        muxer_.reset(opened);
        const AVCodec* encoder = choose_encoder();
        codec_.reset(allocated(avcodec_alloc_context3(encoder)));
        const AVPixelFormat format = choose_pixel_format(encoder);
        const AVPixFmtDescriptor* descriptor = av_pix_fmt_desc_get(format);
        // Subsampled chroma needs whole chroma samples: the picture's last row and column repeat.
        const int round_x = (1 << descriptor->log2_chroma_w) - 1;
        const int round_y = (1 << descriptor->log2_chroma_h) - 1;
        codec_->width = (width + round_x) & ~round_x;
        codec_->height = (height + round_y) & ~round_y;
        codec_->pix_fmt = format;
        // One tick a frame. MPEG-4 part 2 (.avi) takes at most 65535 ticks a second, which a rate such
        // as tree.avi's 1000000/66667 exceeds: other encoders than H.264 get the nearest rate within it.
        codec_->time_base = {fps_den, fps_num};
        if (encoder->id != AV_CODEC_ID_H264)
            av_reduce(&codec_->time_base.num, &codec_->time_base.den, fps_den, fps_num, 65535);
        codec_->framerate = av_inv_q(codec_->time_base);
        if (encoder->id != AV_CODEC_ID_H264) {  // MPEG-4 part 2 and others: a fixed, fine quantiser
            codec_->flags |= AV_CODEC_FLAG_QSCALE;
            codec_->global_quality = FF_QP2LAMBDA * 3;
        }
        if (muxer_->oformat->flags & AVFMT_GLOBALHEADER) codec_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        if (const int code = avcodec_open2(codec_.get(), encoder, nullptr); code < 0)
            throw Error(ErrorKind::unsupported, "cannot open FFmpeg's " + std::string(encoder->name) +
                                                    " encoder: " + error_text(code));
        stream_ = allocated(avformat_new_stream(muxer_.get(), nullptr));
        stream_->time_base = codec_->time_base;
        stream_->avg_frame_rate = codec_->framerate;
        if (avcodec_parameters_from_context(stream_->codecpar, codec_.get()) < 0) throw std::bad_alloc();
        // Written beside its path and renamed onto it by finish() (xme/staged_file.hpp): a run that
        // fails or is interrupted never leaves a cut video there. The container is chosen by path_.
        try {
            file_ = std::make_unique<StagedFile>(path_);
        } catch (const Error& e) {
            throw Error(ErrorKind::io, "cannot write the video " + path_ + ": " + reason_of(e.what(), path_));
        }
        if (const int code = avio_open(&muxer_->pb, file_->written_path().c_str(), AVIO_FLAG_WRITE); code < 0)
            throw Error(ErrorKind::io, "cannot write the video " + path_ + ": " + error_text(code));
        check_io(avformat_write_header(muxer_.get(), nullptr), "write its header");
        rgb_ = make_av_frame(AV_PIX_FMT_RGB24, codec_->width, codec_->height);
        encoded_ = make_av_frame(format, codec_->width, codec_->height);
        packet_.reset(allocated(av_packet_alloc()));
        scaler_.reset(sws_getContext(codec_->width, codec_->height, AV_PIX_FMT_RGB24, codec_->width,
                                     codec_->height, format, SWS_BICUBIC, nullptr, nullptr, nullptr));
        if (!scaler_)
            throw Error(ErrorKind::unsupported, "cannot convert RGB to " + std::string(descriptor->name));
    }

    ~VideoWriter() override {
        // An error ended the run: the frames drawn so far still make a playable file.
        if (finished_) return;
        try {
            finish();
        } catch (const std::exception&) {  // the first error is the one reported
        }
    }

    void write(std::int64_t frame, const Picture& picture) override {
        (void)frame;
        if (picture.width() != width_ || picture.height() != height_)
            throw std::logic_error("picture size changed");
        if (av_frame_make_writable(encoded_.get()) < 0) throw std::bad_alloc();
        copy_padded(picture, *rgb_);
        sws_scale(scaler_.get(), rgb_->data, rgb_->linesize, 0, codec_->height, encoded_->data,
                  encoded_->linesize);
        encoded_->pts = next_pts_++;
        send(encoded_.get());
    }

    void finish() override {
        send(nullptr);
        check_io(av_write_trailer(muxer_.get()), "write its trailer");
        check_io(avio_closep(&muxer_->pb), "close it");
        finished_ = true;
        file_->publish();
    }

private:
    // The container's own choice of codec (mp4: H.264 where libx264 is built in), or MPEG-4 part 2
    // where this FFmpeg cannot encode that one.
    const AVCodec* choose_encoder() const {
        const AVCodecID wanted = muxer_->oformat->video_codec;
        if (wanted == AV_CODEC_ID_NONE)
            throw Error(ErrorKind::invalid_argument, option_ + " " + path_ + ": that container (" +
                                                         muxer_->oformat->name + ") holds no video");
        if (const AVCodec* encoder = avcodec_find_encoder(wanted)) return encoder;
        const AVCodec* fallback = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
        if (fallback && avformat_query_codec(muxer_->oformat, AV_CODEC_ID_MPEG4, FF_COMPLIANCE_NORMAL) == 1)
            return fallback;
        throw Error(ErrorKind::unsupported, option_ + " " + path_ + ": this FFmpeg has no encoder for " +
                                                avcodec_get_name(wanted) + ", the video codec of " +
                                                muxer_->oformat->name);
    }

    // 4:2:0 where the encoder takes it (what players expect), else its first format.
    static AVPixelFormat choose_pixel_format(const AVCodec* encoder) {
        if (!encoder->pix_fmts) return AV_PIX_FMT_YUV420P;
        for (const AVPixelFormat* format = encoder->pix_fmts; *format != AV_PIX_FMT_NONE; ++format)
            if (*format == AV_PIX_FMT_YUV420P) return *format;
        return encoder->pix_fmts[0];
    }

    void send(const AVFrame* frame) {
        int code = avcodec_send_frame(codec_.get(), frame);
        check_io(code, "encode a frame");
        while ((code = avcodec_receive_packet(codec_.get(), packet_.get())) >= 0) {
            av_packet_rescale_ts(packet_.get(), codec_->time_base, stream_->time_base);
            packet_->stream_index = stream_->index;
            check_io(av_interleaved_write_frame(muxer_.get(), packet_.get()), "write a frame");
        }
        if (code != AVERROR(EAGAIN) && code != AVERROR_EOF) check_io(code, "encode a frame");
    }

    void check_io(int code, const std::string& what) const {
        if (code < 0)
            throw Error(ErrorKind::io, "cannot " + what + " of the video " + path_ + ": " + error_text(code));
    }

    std::string path_;
    std::string option_;  // that named it: -o, --draw, --disagreement
    int width_;
    int height_;
    std::unique_ptr<StagedFile> file_;  // before muxer_: the file is closed before it is removed
    ffmpeg::MuxerPtr muxer_;
    Codec codec_;
    AVStream* stream_ = nullptr;
    FramePtr rgb_;
    FramePtr encoded_;
    PacketPtr packet_;
    std::unique_ptr<SwsContext, ScalerFree> scaler_;
    std::int64_t next_pts_ = 0;
    bool finished_ = false;
};

}  // namespace

std::unique_ptr<PictureWriter> open_ffmpeg_picture_writer(const PictureTarget& target, int width, int height,
                                                          int fps_num, int fps_den,
                                                          std::int64_t first_frame) {
    if (target.kind == PictureKind::video)
        return std::make_unique<VideoWriter>(target, width, height, fps_num, fps_den);
    return std::make_unique<PngWriter>(target, width, height, first_frame);
}

}  // namespace xme::cli
