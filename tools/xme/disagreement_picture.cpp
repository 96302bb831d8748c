#include "disagreement_picture.hpp"

#include <optional>

#include "picture_output.hpp"
#include "xme/error.hpp"
#include "xme/video.hpp"

namespace xme::cli {
namespace {

std::string checked_path(const EstimateSettings& settings, const std::string& path) {
    if (!pictures_available()) {
        throw Error(
            ErrorKind::unsupported,
            "--disagreement needs FFmpeg's libraries to write PNG, and this xme was built without them "
            "(XME_WITH_FFMPEG=OFF)");
    }
    if (parse_picture_target(path, "--disagreement").kind != PictureKind::png)
        throw Error(ErrorKind::invalid_argument, "--disagreement " + path + ": name one .png file");
    if (settings.input == "-") {
        throw Error(ErrorKind::invalid_argument,
                    "--disagreement reads the frame again after the run, which standard input cannot give: "
                    "name the input's file");
    }
    if (settings.devices.size() < 2)
        throw Error(ErrorKind::invalid_argument,
                    "--disagreement compares the first two devices: give two in --backends");
    return path;
}

}  // namespace

DisagreementPicture::DisagreementPicture(const EstimateSettings& settings, std::string path)
    : settings_(settings), path_(checked_path(settings, path)), claim_(path_, "the disagreement picture") {}

std::string DisagreementPicture::write(const EstimateReport& report) {
    if (report.frames.empty()) return "";
    std::int64_t frame = report.frames.front().frame;
    std::vector<std::pair<int, int>> blocks;
    for (const DeviceAgreement& agreement : report.agreements) {
        if (agreement.first != 0 || agreement.second != 1 || agreement.mismatches.empty()) continue;
        frame = agreement.mismatches.front().first;
        for (const auto& [at, mismatch] : agreement.mismatches)
            if (at == frame) blocks.emplace_back(mismatch.block_x, mismatch.block_y);
    }
    auto reader = open_video(settings_.input, settings_.raw);
    if (reader->skip_frames(frame) < frame)
        throw Error(ErrorKind::bad_input, settings_.input + " changed during the run");
    const std::optional<Frame> current = reader->read_frame();
    if (!current) throw Error(ErrorKind::bad_input, settings_.input + " changed during the run");
    Picture picture = Picture::of_frame(*current);
    const int size = settings_.session.params.block_size;
    for (const auto& [bx, by] : blocks) {
        picture.tint(bx * size, by * size, size, size, {255, 0, 0});
        picture.outline(bx * size, by * size, size, size, {255, 0, 0});
    }
    const VideoInfo& video = reader->info();
    auto writer = open_picture_writer(parse_picture_target(path_, "--disagreement"), picture.width(),
                                      picture.height(), video.fps_num, video.fps_den, frame);
    writer->write(frame, picture);
    writer->finish();
    claim_.keep();  // written by the writer, which found the file there
    const std::string devices = report.devices[0].info.name + " and " + report.devices[1].info.name;
    return blocks.empty() ? path_ + ": frame " + std::to_string(frame) + ", unmarked: " + devices + " agree"
                          : path_ + ": frame " + std::to_string(frame) + ", the first where " + devices +
                                " disagree, with its " + std::to_string(blocks.size()) + " block(s) in red";
}

}  // namespace xme::cli
