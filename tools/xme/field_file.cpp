#include "field_file.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "xme/error.hpp"
#include "xme/video.hpp"

namespace xme::cli {
namespace {

constexpr int block_columns = 9;
constexpr int partition_columns = 15;
constexpr int cost_kind_column = 7;  // a name in CSV, not read: drawing needs only the costs

[[noreturn]] void malformed(const std::string& path, const std::string& what) {
    throw Error(ErrorKind::bad_input, path + " is not a motion-field file xme wrote (" + what +
                                          "); write one with `xme estimate -o`");
}

std::string read_whole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorKind::bad_input, "cannot open " + path + ": " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw Error(ErrorKind::bad_input, "cannot read " + path + ": " + std::strerror(errno));
    return std::move(text).str();
}

// The row's columns in the order both formats share (xme/field_io.hpp).
void add_row(FieldFile& file, const std::array<std::int64_t, partition_columns>& v) {
    FieldRow row;
    row.x = v[1];
    row.y = v[2];
    row.mv_x = v[3];
    row.mv_y = v[4];
    row.cost = v[5];
    if (file.partitions) {
        row.partition = static_cast<int>(v[9]);
        row.part_x = v[10];
        row.part_y = v[11];
        row.width = v[12];
        row.height = v[13];
        row.chosen = v[14] != 0;
    }
    // xme writes frames in order; a row of an earlier frame after a later one is not its file.
    if (!file.frames.empty() && file.frames.rbegin()->first > v[0])
        malformed(file.path, "frame " + std::to_string(v[0]) + " comes after frame " +
                                 std::to_string(file.frames.rbegin()->first));
    file.frames[v[0]].push_back(row);
}

void parse_csv(FieldFile& file, const std::string& text) {
    const std::string blocks_header = "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates";
    const std::string partitions_header = blocks_header + ",partition,part_x,part_y,width,height,chosen";
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    if (line == partitions_header) {
        file.partitions = true;
    } else if (line != blocks_header) {
        malformed(file.path, "its first line is not xme's CSV header");
    }
    const int columns = file.partitions ? partition_columns : block_columns;
    for (std::int64_t number = 2; std::getline(lines, line); ++number) {
        if (line.empty()) continue;
        std::array<std::int64_t, partition_columns> values{};
        const char* at = line.data();
        const char* end = line.data() + line.size();
        for (int column = 0; column < columns; ++column) {
            const char* field_end = std::find(at, end, ',');
            if (column != cost_kind_column) {
                const auto [stop, error] =
                    std::from_chars(at, field_end, values[static_cast<std::size_t>(column)]);
                if (error != std::errc() || stop != field_end)
                    malformed(file.path, "line " + std::to_string(number) + ", column " +
                                             std::to_string(column + 1) + " is not an integer");
            }
            if ((column + 1 < columns) != (field_end != end))
                malformed(file.path, "line " + std::to_string(number) + " does not have " +
                                         std::to_string(columns) + " columns");
            at = field_end == end ? end : field_end + 1;
        }
        add_row(file, values);
    }
}

// NPY as NpyFieldWriter writes it: little-endian int32, C order, shape (rows, 9) or (rows, 15).
void parse_npy(FieldFile& file, const std::string& data) {
    const std::string magic = "\x93NUMPY";
    if (data.size() < 10 || data.compare(0, magic.size(), magic) != 0) malformed(file.path, "no NPY magic");
    const auto byte = [&](std::size_t i) {
        return static_cast<std::size_t>(static_cast<unsigned char>(data[i]));
    };
    const int major = static_cast<int>(byte(6));
    std::size_t header_length = byte(8) | byte(9) << 8;
    std::size_t header_start = 10;
    if (major >= 2) {
        if (data.size() < 12) malformed(file.path, "its NPY header is cut short");
        header_length |= byte(10) << 16 | byte(11) << 24;
        header_start = 12;
    }
    if (data.size() < header_start + header_length) malformed(file.path, "its NPY header is cut short");
    const std::string header = data.substr(header_start, header_length);
    if (header.find("'descr': '<i4'") == std::string::npos ||
        header.find("'fortran_order': False") == std::string::npos)
        malformed(file.path, "its array is not C-ordered little-endian int32");
    const std::size_t shape = header.find("'shape': (");
    if (shape == std::string::npos) malformed(file.path, "its NPY header has no shape");
    std::int64_t rows = 0;
    int columns = 0;
    const char* at = header.data() + shape + 10;
    const char* end = header.data() + header.size();
    auto [after_rows, error] = std::from_chars(at, end, rows);
    if (error != std::errc() || end - after_rows < 3 || after_rows[0] != ',' || after_rows[1] != ' ' ||
        std::from_chars(after_rows + 2, end, columns).ec != std::errc())
        malformed(file.path, "its shape is not (rows, columns)");
    if (columns != block_columns && columns != partition_columns)
        malformed(file.path, "it has " + std::to_string(columns) + " columns, not 9 or 15");
    file.partitions = columns == partition_columns;
    const std::size_t body = header_start + header_length;
    const auto needed = static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns) * 4;
    if (rows < 0 || data.size() - body < needed)
        malformed(file.path, "its shape promises " + std::to_string(rows) + " rows and the file is shorter");
    for (std::int64_t row = 0; row < rows; ++row) {
        std::array<std::int64_t, partition_columns> values{};
        for (int column = 0; column < columns; ++column) {
            const std::size_t offset =
                body + (static_cast<std::size_t>(row) * static_cast<std::size_t>(columns) +
                        static_cast<std::size_t>(column)) *
                           4;
            const auto bits = static_cast<std::uint32_t>(byte(offset) | byte(offset + 1) << 8 |
                                                         byte(offset + 2) << 16 | byte(offset + 3) << 24);
            values[static_cast<std::size_t>(column)] = static_cast<std::int32_t>(bits);
        }
        add_row(file, values);
    }
}

}  // namespace

FieldFile read_field_file(const std::string& path) {
    const std::string ext = lowercase_extension(path);
    if (ext != ".csv" && ext != ".npy") {
        throw Error(ErrorKind::invalid_argument,
                    "--vectors " + path + ": xme reads the .csv or .npy files `xme estimate -o` writes");
    }
    FieldFile file;
    file.path = path;
    const std::string data = read_whole(path);
    if (ext == ".csv") {
        parse_csv(file, data);
    } else {
        parse_npy(file, data);
    }
    if (file.frames.empty()) throw Error(ErrorKind::bad_input, path + " holds no frame's vectors");
    return file;
}

int block_size_of(const FieldFile& file, std::int64_t frame, int width, int height,
                  const std::string& video_name) {
    const std::vector<FieldRow>& rows = file.frames.at(frame);
    const std::vector<int> sizes = file.partitions ? std::vector<int>{16} : std::vector<int>{4, 8, 16, 32};
    const std::size_t per_block = file.partitions ? 41 : 1;
    std::string grids;
    for (const int size : sizes) {
        const std::int64_t across = (width + size - 1) / size;
        const std::int64_t down = (height + size - 1) / size;
        const auto count = static_cast<std::size_t>(across * down) * per_block;
        grids += (grids.empty() ? "" : ", ") + std::to_string(count) + " (" + std::to_string(size) + ")";
        if (rows.size() != count) continue;
        std::set<std::pair<std::int64_t, std::int64_t>> seen;
        bool fits = true;
        for (const FieldRow& row : rows) {
            fits = fits && row.x % size == 0 && row.y % size == 0 && row.x >= 0 && row.y >= 0 &&
                   row.x < width && row.y < height;
            seen.emplace(row.x, row.y);
        }
        if (fits && seen.size() * per_block == count) return size;
    }
    throw Error(ErrorKind::bad_input,
                file.path + " does not fit " + video_name + " (" + std::to_string(width) + "x" +
                    std::to_string(height) + "): frame " + std::to_string(frame) + " has " +
                    std::to_string(rows.size()) + " rows, where a grid over " + std::to_string(width) + "x" +
                    std::to_string(height) + " has " + grids + " (rows (block size)); were the vectors " +
                    "estimated on another video?");
}

}  // namespace xme::cli
