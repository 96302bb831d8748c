// Any container and codec FFmpeg decodes, reduced to 8-bit luma: ME needs nothing else, and
// dropping chroma here avoids converting every pixel format to one of the planar layouts.
#include <cstring>
#include <mutex>

#include "video_io.hpp"
#include "xme/error.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

namespace xme {
namespace {

struct FormatCloser {
    void operator()(AVFormatContext* context) const noexcept { avformat_close_input(&context); }
};
struct DecoderCloser {
    void operator()(AVCodecContext* context) const noexcept { avcodec_free_context(&context); }
};
struct PacketFree {
    void operator()(AVPacket* packet) const noexcept { av_packet_free(&packet); }
};
struct FrameFree {
    void operator()(AVFrame* frame) const noexcept { av_frame_free(&frame); }
};
struct ScalerFree {
    void operator()(SwsContext* scaler) const noexcept { sws_freeContext(scaler); }
};

std::string av_error_text(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

template <typename T>
T* check_allocated(T* pointer) {
    if (!pointer) throw std::bad_alloc();
    return pointer;
}

// True when plane 0 holds the 8-bit luma samples one byte apart (planar and semi-planar YUV, gray),
// so that it can be copied as it is instead of going through swscale.
bool luma_is_plane_zero(AVPixelFormat format) {
    const AVPixFmtDescriptor* descriptor = av_pix_fmt_desc_get(format);
    if (!descriptor) return false;
    const std::uint64_t not_yuv = AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                                  AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT;
    const AVComponentDescriptor& luma = descriptor->comp[0];
    return (descriptor->flags & not_yuv) == 0 && luma.plane == 0 && luma.step == 1 && luma.depth == 8 &&
           luma.shift == 0 && luma.offset == 0;
}

// Our errors already name the file and the reason, and libav's warnings and notes about normal streams
// confuse users; libav's own errors still print. Process-wide, so set once, by the first reader.
void quiet_libav_below_errors() {
    static std::once_flag once;
    std::call_once(once, [] { av_log_set_level(AV_LOG_ERROR); });
}

class FfmpegReader final : public VideoReader {
public:
    explicit FfmpegReader(const std::string& path) : path_(path) {
        quiet_libav_below_errors();
        AVFormatContext* opened = nullptr;
        check(avformat_open_input(&opened, path.c_str(), nullptr, nullptr), "cannot open it with FFmpeg");
        format_.reset(opened);
        check(avformat_find_stream_info(format_.get(), nullptr), "cannot read its streams");
        AVStream* stream = select_video_stream();
        const AVCodec* codec = avcodec_find_decoder(stream->codecpar->codec_id);
        if (!codec) {
            throw Error(ErrorKind::bad_input, path_ + ": this FFmpeg has no decoder for its video codec '" +
                                                  avcodec_get_name(stream->codecpar->codec_id) + "'");
        }
        decoder_.reset(check_allocated(avcodec_alloc_context3(codec)));
        check(avcodec_parameters_to_context(decoder_.get(), stream->codecpar), "cannot set up its decoder");
        decoder_->thread_count = 0;  // as many as FFmpeg sees fit; the flush at the end drains them all
        check(avcodec_open2(decoder_.get(), codec, nullptr),
              "cannot open the " + std::string(codec->name) + " decoder");
        packet_.reset(check_allocated(av_packet_alloc()));
        decoded_.reset(check_allocated(av_frame_alloc()));

        info_.width = stream->codecpar->width;
        info_.height = stream->codecpar->height;
        if (info_.width < 1 || info_.height < 1 || info_.width > detail::max_io_dimension ||
            info_.height > detail::max_io_dimension) {
            throw Error(ErrorKind::bad_input, path_ + ": video size " + std::to_string(info_.width) + "x" +
                                                  std::to_string(info_.height) +
                                                  " is unknown or outside 1.." +
                                                  std::to_string(detail::max_io_dimension));
        }
        info_.chroma = ChromaFormat::mono;
        const AVRational rate = av_guess_frame_rate(format_.get(), stream, nullptr);
        if (rate.num > 0 && rate.den > 0) {
            info_.fps_num = rate.num;
            info_.fps_den = rate.den;
        }
        if (stream->nb_frames > 0) info_.frame_count = stream->nb_frames;
        info_.format = std::string("ffmpeg:") + format_->iformat->name + "/" + codec->name;
    }

    [[nodiscard]] const VideoInfo& info() const override { return info_; }

    std::optional<Frame> read_frame() override {
        while (!ended_) {
            const int received = avcodec_receive_frame(decoder_.get(), decoded_.get());
            if (received == 0) {
                Frame frame = to_luma_frame();
                av_frame_unref(decoded_.get());
                ++next_frame_;
                return frame;
            }
            if (received == AVERROR_EOF) {
                ended_ = true;
                // Container headers can promise more frames than the file holds (a cut-off AVI, say);
                // from here on the count is the one that was decoded.
                info_.frame_count = next_frame_;
                break;
            }
            if (received != AVERROR(EAGAIN)) check(received, "cannot decode " + frame_name());
            feed_decoder();
        }
        return std::nullopt;
    }

private:
    // The first video stream that is not a cover picture; every other stream is left undemuxed.
    AVStream* select_video_stream() {
        AVStream* chosen = nullptr;
        for (unsigned i = 0; i < format_->nb_streams; ++i) {
            AVStream* stream = format_->streams[i];
            const bool video = stream->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
                               (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) == 0;
            if (video && !chosen) {
                chosen = stream;
                stream_index_ = stream->index;
            } else {
                stream->discard = AVDISCARD_ALL;
            }
        }
        if (!chosen) throw Error(ErrorKind::bad_input, path_ + " has no video stream");
        return chosen;
    }

    // Sends the next packet of our stream, or the end-of-stream flush so that frames the decoder
    // still holds (B-frame reordering, frame threads) come out too.
    void feed_decoder() {
        for (;;) {
            const int read = av_read_frame(format_.get(), packet_.get());
            if (read == AVERROR_EOF) {
                check(avcodec_send_packet(decoder_.get(), nullptr), "cannot flush the decoder at its end");
                return;
            }
            check(read, "cannot read " + frame_name());
            const bool ours = packet_->stream_index == stream_index_;
            const int sent = ours ? avcodec_send_packet(decoder_.get(), packet_.get()) : 0;
            av_packet_unref(packet_.get());
            check(sent, "cannot decode " + frame_name());
            if (ours) return;
        }
    }

    Frame to_luma_frame() {
        const AVFrame& source = *decoded_;
        if (source.width != info_.width || source.height != info_.height) {
            throw Error(ErrorKind::bad_input,
                        path_ + ": " + frame_name() + " is " + std::to_string(source.width) + "x" +
                            std::to_string(source.height) + " but the video is " +
                            std::to_string(info_.width) + "x" + std::to_string(info_.height) +
                            "; xme needs one frame size throughout");
        }
        Frame frame = make_frame(info_.width, info_.height, ChromaFormat::mono);
        const auto pixel_format = static_cast<AVPixelFormat>(source.format);
        const AVFrame* luma_source = &source;
        if (!luma_is_plane_zero(pixel_format)) luma_source = convert_to_gray(source, pixel_format);
        // Row by row: FFmpeg pads its lines, and a line size may even be negative (bottom-up images).
        for (int y = 0; y < info_.height; ++y) {
            std::memcpy(frame.luma.row(y),
                        luma_source->data[0] + std::ptrdiff_t{y} * luma_source->linesize[0],
                        static_cast<std::size_t>(info_.width));
        }
        return frame;
    }

    // swscale into an FFmpeg-allocated frame, whose aligned lines its SIMD paths expect.
    const AVFrame* convert_to_gray(const AVFrame& source, AVPixelFormat pixel_format) {
        if (!scaler_ || pixel_format != scaler_format_) make_scaler(pixel_format);
        if (!gray_) {
            gray_.reset(check_allocated(av_frame_alloc()));
            gray_->format = AV_PIX_FMT_GRAY8;
            gray_->width = info_.width;
            gray_->height = info_.height;
            check(av_frame_get_buffer(gray_.get(), 0), "cannot allocate a frame");
        }
        const int rows = sws_scale(scaler_.get(), source.data, source.linesize, 0, source.height, gray_->data,
                                   gray_->linesize);
        if (rows != source.height) check(rows < 0 ? rows : AVERROR_BUG, "cannot convert " + frame_name());
        return gray_.get();
    }

    void make_scaler(AVPixelFormat pixel_format) {
        scaler_.reset(sws_getContext(info_.width, info_.height, pixel_format, info_.width, info_.height,
                                     AV_PIX_FMT_GRAY8, SWS_POINT, nullptr, nullptr, nullptr));
        if (!scaler_) {
            const char* name = av_get_pix_fmt_name(pixel_format);
            throw Error(ErrorKind::bad_input, path_ + ": cannot convert pixel format " +
                                                  (name ? name : "unknown") + " to 8-bit luma");
        }
        scaler_format_ = pixel_format;
        // swscale treats GRAY8 as full range and would stretch limited-range Y (16..235) to 0..255;
        // keeping the source's range makes packed YUV give exactly the Y a planar file would.
        const AVPixFmtDescriptor* descriptor = av_pix_fmt_desc_get(pixel_format);
        if (descriptor && (descriptor->flags & AV_PIX_FMT_FLAG_RGB) == 0) {
            int* source_table = nullptr;
            int* target_table = nullptr;
            int source_range = 0, target_range = 0, brightness = 0, contrast = 0, saturation = 0;
            if (sws_getColorspaceDetails(scaler_.get(), &source_table, &source_range, &target_table,
                                         &target_range, &brightness, &contrast, &saturation) >= 0) {
                sws_setColorspaceDetails(scaler_.get(), source_table, source_range, target_table,
                                         source_range, brightness, contrast, saturation);
            }
        }
    }

    [[nodiscard]] std::string frame_name() const { return "frame " + std::to_string(next_frame_); }

    void check(int code, const std::string& what) const {
        if (code < 0) throw Error(ErrorKind::bad_input, path_ + ": " + what + ": " + av_error_text(code));
    }

    std::string path_;
    VideoInfo info_;
    std::unique_ptr<AVFormatContext, FormatCloser> format_;
    std::unique_ptr<AVCodecContext, DecoderCloser> decoder_;
    std::unique_ptr<AVPacket, PacketFree> packet_;
    std::unique_ptr<AVFrame, FrameFree> decoded_;
    std::unique_ptr<AVFrame, FrameFree> gray_;
    std::unique_ptr<SwsContext, ScalerFree> scaler_;
    AVPixelFormat scaler_format_ = AV_PIX_FMT_NONE;
    int stream_index_ = -1;
    std::int64_t next_frame_ = 0;
    bool ended_ = false;
};

}  // namespace

namespace detail {

std::unique_ptr<VideoReader> open_ffmpeg_video(const std::string& path) {
    return std::make_unique<FfmpegReader>(path);
}

}  // namespace detail
}  // namespace xme
