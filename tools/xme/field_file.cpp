#include "field_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

#include "xme/decided_field_io.hpp"
#include "xme/error.hpp"
#include "xme/macroblock.hpp"
#include "xme/params.hpp"
#include "xme/video.hpp"

namespace xme::cli {
namespace {

constexpr int block_columns = 9;
constexpr int partition_columns = 15;
constexpr int decided_columns = 18;  // SPEC §14's (xme/decided_field_io.hpp)
constexpr int cost_kind_column = 7;  // a name in CSV, not read: drawing needs only the costs
constexpr int mode_column = 10;      // §14's: past, future, both in CSV; 0, 1, 2 in NPY

const std::string blocks_header = "frame,x,y,mv_x,mv_y,cost,cost_scale,cost_kind,candidates";
const std::string partitions_header = blocks_header + ",partition,part_x,part_y,width,height,chosen";

// Longer than any line xme writes (15 numbers of at most 20 characters and a cost kind): a file
// without line ends (a video named .csv) is refused at this length, not read into memory whole.
constexpr std::size_t max_line_length = 1024;

// One line without its '\n', of at most max_line_length + 1 characters (more says it is too long);
// false at the end of the file.
bool read_bounded_line(std::istream& in, std::string& line) {
    line.clear();
    std::streambuf* buffer = in.rdbuf();
    for (;;) {
        const int c = buffer->sbumpc();
        if (c == std::char_traits<char>::eof()) return !line.empty();
        if (c == '\n') return true;
        line.push_back(static_cast<char>(c));
        if (line.size() > max_line_length) return true;
    }
}

// The row's columns in the order both formats share (xme/field_io.hpp, xme/decided_field_io.hpp).
FieldRow row_of(const std::array<std::int64_t, 18>& v, bool partitions, bool decided) {
    FieldRow row;
    row.x = v[1];
    row.y = v[2];
    row.mv_x = v[3];
    row.mv_y = v[4];
    row.cost = v[5];
    if (partitions) {
        row.partition = static_cast<int>(v[9]);
        row.part_x = v[10];
        row.part_y = v[11];
        row.width = v[12];
        row.height = v[13];
        row.chosen = v[14] != 0;
    }
    if (decided) {
        row.decided = true;
        row.ref = v[9];
        row.mode = static_cast<int>(v[10]);
        row.mv2_x = v[11];
        row.mv2_y = v[12];
        row.ref2 = v[13];
        row.back_mv_x = v[14];
        row.back_mv_y = v[15];
        row.consistency = v[16];
        row.flagged = v[17] != 0;
    }
    return row;
}

}  // namespace

FieldFileReader::FieldFileReader(const std::string& path) : path_(path) {
    const std::string ext = lowercase_extension(path);
    if (ext != ".csv" && ext != ".npy") {
        throw Error(ErrorKind::invalid_argument,
                    "--vectors " + path + ": xme reads the .csv or .npy files `xme estimate -o` writes");
    }
    npy_ = ext == ".npy";
    in_.open(path, std::ios::binary);
    if (!in_) throw Error(ErrorKind::bad_input, "cannot open " + path + ": " + std::strerror(errno));
    if (!npy_) {
        std::string line;
        static_cast<void>(read_bounded_line(in_, line));
        if (line == partitions_header) {
            partitions_ = true;
        } else if (line + "\n" == decided_csv_header()) {
            decided_ = true;
        } else if (line != blocks_header) {
            malformed("its first line is not xme's CSV header");
        }
        columns_ = partitions_ ? partition_columns : decided_ ? decided_columns : block_columns;
        return;
    }
    // NPY as NpyFieldWriter writes it: little-endian int32, C order, shape (rows, 9) or (rows, 15).
    char start[10] = {};
    if (!in_.read(start, sizeof start) || std::string(start, 6) != "\x93NUMPY") malformed("no NPY magic");
    const auto byte = [](char c) { return static_cast<std::size_t>(static_cast<unsigned char>(c)); };
    std::size_t header_length = byte(start[8]) | byte(start[9]) << 8;
    if (byte(start[6]) >= 2) {
        char more[2] = {};
        if (!in_.read(more, 2)) malformed("its NPY header is cut short");
        header_length |= byte(more[0]) << 16 | byte(more[1]) << 24;
    }
    if (header_length > 65536) malformed("its NPY header is too long");
    std::string header(header_length, '\0');
    if (!in_.read(header.data(), static_cast<std::streamsize>(header_length)))
        malformed("its NPY header is cut short");
    if (header.find("'descr': '<i4'") == std::string::npos ||
        header.find("'fortran_order': False") == std::string::npos)
        malformed("its array is not C-ordered little-endian int32");
    const std::size_t shape = header.find("'shape': (");
    if (shape == std::string::npos) malformed("its NPY header has no shape");
    const char* at = header.data() + shape + 10;
    const char* end = header.data() + header.size();
    const auto [after_rows, error] = std::from_chars(at, end, npy_rows_left_);
    if (error != std::errc() || end - after_rows < 3 || after_rows[0] != ',' || after_rows[1] != ' ' ||
        std::from_chars(after_rows + 2, end, columns_).ec != std::errc() || npy_rows_left_ < 0)
        malformed("its shape is not (rows, columns)");
    if (columns_ != block_columns && columns_ != partition_columns && columns_ != decided_columns)
        malformed("it has " + std::to_string(columns_) + " columns, not 9, 15 or 18");
    partitions_ = columns_ == partition_columns;
    decided_ = columns_ == decided_columns;
}

void FieldFileReader::malformed(const std::string& what) const {
    throw Error(ErrorKind::bad_input, path_ + " is not a motion-field file xme wrote (" + what +
                                          "); write one with `xme estimate -o`");
}

std::string FieldFileReader::where() const {
    return npy_ ? "row " + std::to_string(npy_row_) : "line " + std::to_string(line_);
}

void FieldFileReader::limit_rows_to_picture(int width, int height, const std::string& video_name) {
    const int block = partitions_ ? macroblock_size : 4;
    max_rows_ = static_cast<std::size_t>((width + block - 1) / block) *
                static_cast<std::size_t>((height + block - 1) / block) *
                static_cast<std::size_t>(partitions_ ? partition_count : 1);
    limit_reason_ = "the most any block grid over " + video_name + " (" + std::to_string(width) + "x" +
                    std::to_string(height) + ") has";
}

void FieldFileReader::check_row(const Values& v) const {
    const auto refuse = [this](const std::string& what) {
        throw Error(ErrorKind::bad_input, path_ + ", " + where() + ": " + what + "; xme draws only what " +
                                              "`xme estimate -o` writes (man xme, `xme draw`)");
    };
    if (v[0] < (decided_ ? 0 : 1)) {
        refuse("frame " + std::to_string(v[0]) +
               " has no field: the frame column is a pair's current frame, estimated against the frame "
               "before it, so the first is 1");
    }
    if (v[1] < 0 || v[2] < 0 || v[1] >= max_frame_dimension || v[2] >= max_frame_dimension) {
        refuse("the block at (" + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
               ") is outside any frame xme estimates (up to " + std::to_string(max_frame_dimension) + "x" +
               std::to_string(max_frame_dimension) + ")");
    }
    constexpr std::int64_t low = std::numeric_limits<std::int16_t>::min();
    constexpr std::int64_t high = std::numeric_limits<std::int16_t>::max();
    if (v[3] < low || v[3] > high || v[4] < low || v[4] > high) {
        refuse("the vector (" + std::to_string(v[3]) + ", " + std::to_string(v[4]) +
               ") is beyond any frame's reach: vectors are quarter-pel int16, " + std::to_string(low) + ".." +
               std::to_string(high) + " (SPEC §3)");
    }
    if (decided_) {
        const auto distance_allowed = [](std::int64_t d) { return d != 0 && d >= -16 && d <= 16; };
        if (v[10] < 0 || v[10] > 2) refuse("mode " + std::to_string(v[10]) + " is not past, future or both");
        if (!distance_allowed(v[9]) || (v[10] == 2 && !distance_allowed(v[13])))
            refuse("the reference distances " + std::to_string(v[9]) + ", " + std::to_string(v[13]) +
                   " are not SPEC §14's -16..-1, 1..16");
        for (const int c : {11, 12, 14, 15}) {
            if (v[static_cast<std::size_t>(c)] < low || v[static_cast<std::size_t>(c)] > high)
                refuse("a vector component " + std::to_string(v[static_cast<std::size_t>(c)]) +
                       " is beyond quarter-pel int16");
        }
        return;
    }
    if (!partitions_) return;
    if (v[9] < 0 || v[9] >= partition_count)
        refuse("partition " + std::to_string(v[9]) + " is not one of SPEC §9's 0..40");
    const Partition& p = macroblock_partitions[static_cast<std::size_t>(v[9])];
    if (v[10] != v[1] + p.x || v[11] != v[2] + p.y || v[12] != p.width || v[13] != p.height) {
        refuse("partition " + std::to_string(v[9]) + " is at (" + std::to_string(v[10]) + ", " +
               std::to_string(v[11]) + "), " + std::to_string(v[12]) + "x" + std::to_string(v[13]) +
               ", where SPEC §9's partition " + std::to_string(v[9]) + " of the macroblock at (" +
               std::to_string(v[1]) + ", " + std::to_string(v[2]) + ") is at (" + std::to_string(v[1] + p.x) +
               ", " + std::to_string(v[2] + p.y) + "), " + std::to_string(p.width) + "x" +
               std::to_string(p.height));
    }
    if (v[14] != 0 && v[14] != 1) refuse("chosen is " + std::to_string(v[14]) + ", not 0 or 1");
}

bool FieldFileReader::read_row(Values& values) {
    if (!(npy_ ? read_npy_row(values) : read_csv_row(values))) return false;
    check_row(values);
    return true;
}

bool FieldFileReader::read_csv_row(Values& values) {
    std::string line;
    do {
        if (!read_bounded_line(in_, line)) return false;
        ++line_;
        if (line.size() > max_line_length)
            malformed("line " + std::to_string(line_) + " is longer than any row xme writes");
    } while (line.empty());
    const char* at = line.data();
    const char* end = line.data() + line.size();
    for (int column = 0; column < columns_; ++column) {
        const char* field_end = std::find(at, end, ',');
        if (decided_ && column == mode_column) {
            const std::string_view mode(at, static_cast<std::size_t>(field_end - at));
            const std::int64_t code = mode == "past" ? 0 : mode == "future" ? 1 : mode == "both" ? 2 : -1;
            if (code < 0)
                malformed("line " + std::to_string(line_) + ", column " + std::to_string(column + 1) +
                          " is not past, future or both");
            values[static_cast<std::size_t>(column)] = code;
        } else if (column != cost_kind_column) {
            const auto [stop, error] =
                std::from_chars(at, field_end, values[static_cast<std::size_t>(column)]);
            if (error != std::errc() || stop != field_end)
                malformed("line " + std::to_string(line_) + ", column " + std::to_string(column + 1) +
                          " is not an integer");
        }
        if ((column + 1 < columns_) != (field_end != end))
            malformed("line " + std::to_string(line_) + " does not have " + std::to_string(columns_) +
                      " columns");
        at = field_end == end ? end : field_end + 1;
    }
    return true;
}

bool FieldFileReader::read_npy_row(Values& values) {
    if (npy_rows_left_ == 0) return false;
    char bytes[decided_columns * 4];
    if (!in_.read(bytes, columns_ * 4)) malformed("its shape promises more rows than the file holds");
    for (int column = 0; column < columns_; ++column) {
        std::uint32_t bits = 0;
        for (int i = 3; i >= 0; --i) bits = bits << 8 | static_cast<unsigned char>(bytes[column * 4 + i]);
        values[static_cast<std::size_t>(column)] = static_cast<std::int32_t>(bits);
    }
    --npy_rows_left_;
    ++npy_row_;
    return true;
}

std::optional<FieldFrame> FieldFileReader::next() {
    Values values{};
    if (pending_) {
        values = *pending_;
        pending_.reset();
    } else if (!read_row(values)) {
        return std::nullopt;
    }
    // xme writes frames in order, each once.
    if (last_frame_ && values[0] <= *last_frame_) {
        malformed("frame " + std::to_string(values[0]) + " comes after frame " +
                  std::to_string(*last_frame_));
    }
    FieldFrame frame;
    frame.frame = values[0];
    last_frame_ = frame.frame;
    frame.rows.push_back(row_of(values, partitions_, decided_));
    while (read_row(values)) {
        if (values[0] != frame.frame) {
            pending_ = values;
            break;
        }
        if (max_rows_ > 0 && frame.rows.size() >= max_rows_) {
            throw Error(ErrorKind::bad_input, path_ + ": frame " + std::to_string(frame.frame) +
                                                  " has more than " + std::to_string(max_rows_) + " rows, " +
                                                  limit_reason_ +
                                                  ": were the vectors estimated on another video?");
        }
        frame.rows.push_back(row_of(values, partitions_, decided_));
    }
    return frame;
}

int block_size_of(const FieldFileReader& file, const FieldFrame& frame, int width, int height,
                  const std::string& video_name) {
    const std::vector<FieldRow>& rows = frame.rows;
    const std::vector<int> sizes = file.partitions() ? std::vector<int>{16} : std::vector<int>{4, 8, 16, 32};
    const std::size_t per_block = file.partitions() ? 41 : 1;
    std::string grids;
    for (const int size : sizes) {
        const std::int64_t across = (width + size - 1) / size;
        const std::int64_t down = (height + size - 1) / size;
        const auto count = static_cast<std::size_t>(across * down) * per_block;
        const std::string block = std::to_string(size) + "x" + std::to_string(size);
        grids += (grids.empty()          ? ""
                  : size == sizes.back() ? " or "
                                         : ", ") +
                 std::to_string(count) +
                 (file.partitions() ? " rows of partitions of " + block + " macroblocks"
                                    : " of " + block + " blocks");
        if (rows.size() != count) continue;
        // Each block once; with partitions each macroblock's 41 partitions once (a bit per index).
        std::map<std::pair<std::int64_t, std::int64_t>, std::uint64_t> seen;
        bool fits = true;
        for (const FieldRow& row : rows) {
            fits = fits && row.x % size == 0 && row.y % size == 0 && row.x >= 0 && row.y >= 0 &&
                   row.x < width && row.y < height;
            const std::uint64_t bit = std::uint64_t{1} << (row.partition >= 0 ? row.partition : 0);
            std::uint64_t& indices = seen[{row.x, row.y}];
            fits = fits && (indices & bit) == 0;
            indices |= bit;
        }
        if (fits && seen.size() * per_block == count) return size;
    }
    throw Error(ErrorKind::bad_input, file.path() + " does not fit " + video_name + " (" +
                                          std::to_string(width) + "x" + std::to_string(height) + "): frame " +
                                          std::to_string(frame.frame) + " has " +
                                          std::to_string(rows.size()) + " rows, where a grid over " +
                                          std::to_string(width) + "x" + std::to_string(height) + " has " +
                                          grids + ": were the vectors estimated on another video?");
}

}  // namespace xme::cli
