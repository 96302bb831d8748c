// Any container and codec FFmpeg decodes, reduced to 8-bit luma: ME needs nothing else, and
// dropping chroma here avoids converting every pixel format to one of the planar layouts. Damage
// the decoder conceals and a stream cut short are reported as notices, never passed over.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "video_io.hpp"
#include "xme/error.hpp"
#include "xme/params.hpp"

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

// Luma stored as 9- to 16-bit samples in 16-bit words in plane 0 (yuv420p10le, p010, gray12 ...),
// which xme reduces to their high 8 bits itself: the result is exact and documented, where a
// conversion through swscale could dither.
bool luma_is_deep_plane_zero(const AVPixFmtDescriptor* descriptor) {
    if (!descriptor) return false;
    const std::uint64_t not_yuv = AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                                  AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT;
    const AVComponentDescriptor& luma = descriptor->comp[0];
    return (descriptor->flags & not_yuv) == 0 && luma.plane == 0 && luma.step == 2 && luma.depth > 8 &&
           luma.depth + luma.shift <= 16 && luma.offset == 0;
}

// Where FFmpeg cannot open a file or finds no video in it, the file may be raw video misnamed.
constexpr const char* raw_video_hint =
    "; raw video is read from a name ending .yuv, .raw or .gray (or from standard input) with --size "
    "WxH (and --pix-fmt if not yuv420p)";

// Damage notices name frames one by one up to this many; past it they are only counted.
constexpr int listed_damage_limit = 10;

class FfmpegReader final : public VideoReader {
public:
    explicit FfmpegReader(const std::string& path) : path_(path) {
        detail::route_ffmpeg_log();
        AVFormatContext* opened = nullptr;
        const int open_code = avformat_open_input(&opened, path.c_str(), nullptr, nullptr);
        if (open_code < 0 && open_code != AVERROR(ENOENT) && open_code != AVERROR(EACCES)) {
            // Raw video has no header: FFmpeg finds no container in it, or takes its bytes for another
            // (MP3 frames, say) and fails. xme reads raw video by its name (video.cpp).
            throw Error(ErrorKind::bad_input,
                        path_ + ": cannot open it with FFmpeg: " + av_error_text(open_code) + raw_video_hint);
        }
        check(open_code, "cannot open it with FFmpeg");
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
        if (info_.width > detail::max_io_dimension || info_.height > detail::max_io_dimension) {
            // Larger than xme handles, not damaged: unsupported (exit 4), as xme(1)'s INPUT says.
            throw Error(ErrorKind::unsupported,
                        path_ + ": video size " + std::to_string(info_.width) + "x" +
                            std::to_string(info_.height) + " is larger than the frames xme reads (up to " +
                            std::to_string(detail::max_io_dimension) + ") or estimates (up to " +
                            std::to_string(max_frame_dimension) + ")");
        }
        if (info_.width < 1 || info_.height < 1) {
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
        if (stream->nb_frames > 0) {
            info_.frame_count = stream->nb_frames;
            info_.frame_count_exact = false;  // a claim, until the end of the stream is reached
        }
        info_.format = std::string("ffmpeg:") + format_->iformat->name + "/" + codec->name;
        time_base_ = stream->time_base;
        start_time_ = stream->start_time;
        note_bit_depth(static_cast<AVPixelFormat>(stream->codecpar->format));
    }

    std::vector<Notice> take_notices() override { return std::exchange(notices_, {}); }

    [[nodiscard]] const VideoInfo& info() const override { return info_; }
    [[nodiscard]] double convert_seconds() const override { return convert_seconds_; }
    void set_plane_memory(std::shared_ptr<PlaneMemory> memory) override {
        overwrite_.memory = std::move(memory);
    }

    std::optional<Frame> read_frame() override {
        while (!ended_) {
            const int received = avcodec_receive_frame(decoder_.get(), decoded_.get());
            if (received == 0) {
                if (decoded_->decode_error_flags != 0 || (decoded_->flags & AV_FRAME_FLAG_CORRUPT) != 0) {
                    note_damage(frame_name() + " was decoded with errors and its damage concealed");
                }
                const auto convert_start = std::chrono::steady_clock::now();
                Frame frame = to_luma_frame();
                convert_seconds_ +=
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - convert_start).count();
                av_frame_unref(decoded_.get());
                ++next_frame_;
                return frame;
            }
            if (received == AVERROR_EOF) {
                ended_ = true;
                // Container headers can promise more frames than the file holds (a cut-off AVI, say);
                // from here on the count is the one that was decoded.
                note_short_stream();
                info_.frame_count = next_frame_;
                info_.frame_count_exact = true;
                break;
            }
            if (received == AVERROR_INVALIDDATA) {
                note_damage("the decoder dropped the frame after " + frame_name() + ": " +
                            av_error_text(received));
                continue;
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
        if (!chosen) throw Error(ErrorKind::bad_input, path_ + " has no video stream" + raw_video_hint);
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
            if (ours) note_packet(*packet_);
            const int sent = ours ? avcodec_send_packet(decoder_.get(), packet_.get()) : 0;
            av_packet_unref(packet_.get());
            // A damaged packet loses its frame; the decoder picks up again at the next good one.
            if (sent == AVERROR_INVALIDDATA) {
                note_damage("the decoder rejected packet " + std::to_string(packets_ - 1) + " (" +
                            av_error_text(sent) + "): its frame is lost");
                continue;
            }
            check(sent, "cannot decode " + frame_name());
            if (ours) return;
        }
    }

    void note_bit_depth(AVPixelFormat pixel_format) {
        const AVPixFmtDescriptor* descriptor = av_pix_fmt_desc_get(pixel_format);
        if (!descriptor || descriptor->comp[0].depth <= 8 || descriptor->comp[0].depth == info_.bit_depth)
            return;
        info_.bit_depth = descriptor->comp[0].depth;
        const std::string reduced = luma_is_deep_plane_zero(descriptor)
                                        ? "the high 8 bits of each luma sample (sample >> " +
                                              std::to_string(info_.bit_depth - 8) + ")"
                                        : "8-bit luma converted by swscale";
        notices_.push_back({path_ + " has " + std::to_string(info_.bit_depth) + "-bit samples (" +
                                descriptor->name + "); xme estimates on " + reduced +
                                ", so costs are on the 8-bit scale",
                            false});
    }

    void note_packet(const AVPacket& packet) {
        ++packets_;
        const std::int64_t timestamp = packet.pts != AV_NOPTS_VALUE ? packet.pts : packet.dts;
        if (timestamp != AV_NOPTS_VALUE)
            last_end_ = std::max(last_end_, timestamp + std::max<std::int64_t>(packet.duration, 0));
        if ((packet.flags & AV_PKT_FLAG_CORRUPT) != 0) {
            note_damage("packet " + std::to_string(packets_ - 1) +
                        " of the video stream is damaged or cut short");
        }
    }

    // Frames lost or damaged: one notice each, up to a limit, then only the count.
    void note_damage(const std::string& what) {
        ++damage_count_;
        if (damage_count_ <= listed_damage_limit) {
            notices_.push_back({path_ + ": " + what, true});
        } else if (damage_count_ == listed_damage_limit + 1) {
            notices_.push_back({path_ + ": more damage follows; it is counted, not listed", true});
        }
    }

    // The stream's last timestamp against the length its container declares: tree.avi declares 444
    // frames and has 68 packets, but they span the 444 frames' time (repeated frames are not stored);
    // a cut file's timestamps stop early.
    void note_short_stream() {
        if (damage_count_ > listed_damage_limit) {
            notices_.push_back(
                {path_ + ": " + std::to_string(damage_count_) + " damaged or lost frames in all", true});
        }
        const std::int64_t declared = info_.frame_count;
        if (declared <= 0 || last_end_ == AV_NOPTS_VALUE || info_.fps_den <= 0) return;
        const std::int64_t start = start_time_ != AV_NOPTS_VALUE ? start_time_ : 0;
        const double seconds = static_cast<double>(last_end_ - start) * av_q2d(time_base_);
        const auto reached = std::llround(seconds * info_.fps_num / info_.fps_den);
        if (declared - reached <= std::max<std::int64_t>(1, declared / 100)) return;
        notices_.push_back({path_ + ": the video stream ends at frame " + std::to_string(reached) +
                                " of the " + std::to_string(declared) + " its container declares (" +
                                std::to_string(next_frame_) + " decoded): the file is truncated or damaged",
                            true});
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
        // Both copies below write every sample.
        Frame frame = make_frame(info_.width, info_.height, ChromaFormat::mono, overwrite_);
        const auto pixel_format = static_cast<AVPixelFormat>(source.format);
        note_bit_depth(pixel_format);
        const AVPixFmtDescriptor* descriptor = av_pix_fmt_desc_get(pixel_format);
        if (luma_is_deep_plane_zero(descriptor)) {
            copy_high_bytes(source, *descriptor, frame);
            return frame;
        }
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

    // The high 8 bits of each luma sample, whatever the byte order and the padding bits below.
    void copy_high_bytes(const AVFrame& source, const AVPixFmtDescriptor& descriptor, Frame& frame) const {
        const AVComponentDescriptor& luma = descriptor.comp[0];
        const bool big_endian = (descriptor.flags & AV_PIX_FMT_FLAG_BE) != 0;
        const int drop = luma.shift + luma.depth - 8;
        for (int y = 0; y < info_.height; ++y) {
            const std::uint8_t* in = source.data[0] + std::ptrdiff_t{y} * source.linesize[0];
            std::uint8_t* out = frame.luma.row(y);
            for (int x = 0; x < info_.width; ++x, in += 2) {
                const unsigned word =
                    big_endian ? (unsigned{in[0]} << 8 | in[1]) : (unsigned{in[1]} << 8 | in[0]);
                out[x] = static_cast<std::uint8_t>(word >> drop);
            }
        }
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
    std::vector<Notice> notices_;
    Plane::ForOverwrite overwrite_;  // where frames' planes live
    double convert_seconds_ = 0;
    AVRational time_base_{0, 1};
    std::int64_t start_time_ = AV_NOPTS_VALUE;
    std::int64_t last_end_ = AV_NOPTS_VALUE;  // of the last packet read, in time_base_
    std::int64_t packets_ = 0;
    int damage_count_ = 0;
};

}  // namespace

namespace detail {

std::unique_ptr<VideoReader> open_ffmpeg_video(const std::string& path) {
    return std::make_unique<FfmpegReader>(path);
}

}  // namespace detail
}  // namespace xme
