#include "bench_chart.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "output_files.hpp"
#include "xme/error.hpp"

namespace xme::cli {
namespace {

constexpr int label_width = 420;
constexpr int bar_area = 520;
constexpr int row_height = 22;
constexpr int top = 60;

std::string escape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '&') out += "&amp;";
        else out += c;
    }
    return out;
}

// A colour per device, so that one device's bars read as a group.
std::string colour_of(const std::string& device, std::map<std::string, std::string>& colours) {
    static const char* palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1"};
    auto it = colours.find(device);
    if (it != colours.end()) return it->second;
    const std::string colour = palette[colours.size() % std::size(palette)];
    colours[device] = colour;
    return colour;
}

}  // namespace

void write_bench_chart(const std::vector<BenchRow>& rows, const std::string& path) {
    double most = 1;
    double least = 1e300;
    for (const auto& row : rows) {
        most = std::max(most, row.device_fps());
        least = std::min(least, row.device_fps());
    }
    const double low = std::pow(10.0, std::floor(std::log10(std::max(least, 1e-3))));
    const double high = std::pow(10.0, std::ceil(std::log10(most)));
    auto x_of = [&](double fps) {
        return label_width + bar_area * (std::log10(std::max(fps, low)) - std::log10(low)) / (std::log10(high) - std::log10(low));
    };
    const int height = top + static_cast<int>(rows.size()) * row_height + 40;
    std::ostringstream svg;
    svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << label_width + bar_area + 140 << "' height='" << height
        << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n"
        << "<text x='10' y='22' font-size='16'>xme bench: frame pairs per second of device time (log scale)</text>\n"
        << "<text x='10' y='42' fill='#555'>label: device variant chain block/range size; right: fps and share of the "
           "device's measured SAD-instruction peak</text>\n";
    for (double tick = low; tick <= high * 1.0001; tick *= 10) {
        const double x = x_of(tick);
        svg << "<line x1='" << x << "' y1='" << top - 6 << "' x2='" << x << "' y2='" << height - 30
            << "' stroke='#ddd'/>\n<text x='" << x << "' y='" << height - 14 << "' text-anchor='middle' fill='#555'>" << tick
            << "</text>\n";
    }
    std::map<std::string, std::string> colours;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const int y = top + static_cast<int>(i) * row_height;
        std::ostringstream label;
        label << row.device << " " << row.variant << " " << chain_name(row.params) << " " << row.params.block_size
              << "/" << row.params.range << " " << row.width << "x" << row.height;
        std::ostringstream value;
        value.precision(4);
        value << row.device_fps() << " fps";
        if (row.sad_peak) value << ", " << std::lround(100.0 * row.device_comparisons_per_second() / row.sad_peak->pixels_per_second) << "% of peak";
        svg << "<text x='" << label_width - 8 << "' y='" << y + 14 << "' text-anchor='end'>" << escape(label.str())
            << "</text>\n<rect x='" << label_width << "' y='" << y + 3 << "' width='" << std::max(1.0, x_of(row.device_fps()) - label_width)
            << "' height='" << row_height - 6 << "' fill='" << colour_of(row.device, colours) << "'/>\n<text x='"
            << x_of(row.device_fps()) + 6 << "' y='" << y + 14 << "'>" << escape(value.str()) << "</text>\n";
    }
    svg << "</svg>\n";
    write_output_file(path, svg.str(), "the chart");
}

}  // namespace xme::cli
