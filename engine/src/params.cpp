#include "xme/params.hpp"

#include <array>
#include <string>
#include <utility>

#include "xme/error.hpp"
#include "xme/operations.hpp"

namespace xme {
namespace {

// One table per enumeration: the parser and to_string read the same names.
template <class Enum, std::size_t N>
using Names = std::array<std::pair<Enum, std::string_view>, N>;

constexpr Names<BorderMode, 2> border_names{{{BorderMode::pad, "pad"}, {BorderMode::restrict, "restrict"}}};
constexpr Names<Subpel, 3> subpel_names{
    {{Subpel::none, "none"}, {Subpel::hpel, "hpel"}, {Subpel::qpel, "qpel"}}};
constexpr Names<Partitions, 2> partitions_names{{{Partitions::none, "none"}, {Partitions::all, "all"}}};
constexpr Names<Predictor, 3> predictor_names{
    {{Predictor::none, "none"}, {Predictor::temporal, "temporal"}, {Predictor::spatial, "spatial"}}};
constexpr Names<WindowCentre, 2> centre_names{
    {{WindowCentre::zero, "zero"}, {WindowCentre::predictor, "predictor"}}};

template <class Enum, std::size_t N>
Enum parse(const Names<Enum, N>& names, std::string_view name, const char* what) {
    std::string allowed;
    for (const auto& [value, text] : names) {
        if (text == name) return value;
        allowed += (allowed.empty() ? "" : ", ") + std::string(text);
    }
    throw Error(ErrorKind::invalid_argument,
                "unknown " + std::string(what) + " '" + std::string(name) + "': use " + allowed);
}

template <class Enum, std::size_t N>
std::string_view name_of(const Names<Enum, N>& names, Enum value) {
    for (const auto& [candidate, text] : names) {
        if (candidate == value) return text;
    }
    return "?";
}

void require(bool condition, const std::string& message) {
    if (!condition) throw Error(ErrorKind::invalid_argument, message);
}

}  // namespace

void SearchParams::validate() const {
    require(block_size == 4 || block_size == 8 || block_size == 16 || block_size == 32,
            "block size " + std::to_string(block_size) + " is not supported: use 4, 8, 16 or 32");
    require(range >= 0 && range <= max_search_range, "search range " + std::to_string(range) +
                                                         " is out of bounds: use 0.." +
                                                         std::to_string(max_search_range));
    require(lambda >= 0 && lambda <= max_lambda,
            "lambda " + std::to_string(lambda) + " is out of bounds: use 0.." + std::to_string(max_lambda));
    require(refresh >= 0,
            "refresh period " + std::to_string(refresh) + " is negative: use 0 (one segment) or more");
    require(refresh == 0 || predictor == Predictor::temporal,
            "a refresh period only applies to the temporal predictor: add --predictor temporal or drop "
            "--refresh");
    require(centre == WindowCentre::zero || predictor != Predictor::none,
            "centring the window on the predictor needs a predictor: add --predictor temporal or spatial");
    if (partitions == Partitions::all) {
        require(block_size == 16,
                "partitions (SPEC §9) are those of a 16x16 macroblock: use --block 16 with "
                "--partitions all (block " +
                    std::to_string(block_size) + " given)");
        require(search == SearchMethod::full,
                "partitions (SPEC §9) are searched over the macroblock's whole window, which only the full "
                "search (fs) defines; refining them from a fast search's 16x16 result is not in SPEC: use "
                "--search fs with --partitions all");
        require(
            subpel != Subpel::hpel,
            "partitions (SPEC §9) are refined with the quarter-pel of SPEC §10, not the bilinear half-pel "
            "of §4: use --subpel qpel or none with --partitions all");
    }
    const StageDescription& method = describe(search);
    require(block_size >= method.min_block_size,
            std::string(method.name) + " is defined for blocks of " + std::to_string(method.min_block_size) +
                " and more (SPEC " + std::string(method.spec) + ", " + std::string(method.summary) +
                "): use a block size of " + std::to_string(method.min_block_size) + " or more");
}

std::string chain_name(const SearchParams& params) {
    std::string name(to_string(params.search));
    if (params.partitions == Partitions::all) name += "+p41";
    if (params.subpel != Subpel::none) name += "+" + std::string(to_string(params.subpel));
    return name;
}

void apply_chain_name(SearchParams& params, std::string_view name) {
    const auto refuse = [&] {
        throw Error(ErrorKind::invalid_argument,
                    "unknown chain '" + std::string(name) +
                        "': use SEARCH, SEARCH+hpel or SEARCH+qpel, e.g. fs+hpel; fs+p41 or fs+p41+qpel for "
                        "partitions");
    };
    auto plus = name.find('+');
    params.search = parse_search_method(name.substr(0, plus));
    params.partitions = Partitions::none;
    params.subpel = Subpel::none;
    std::string_view rest = plus == std::string_view::npos ? std::string_view{} : name.substr(plus + 1);
    if (plus != std::string_view::npos && rest.empty()) refuse();
    if (rest.starts_with("p41")) {
        params.partitions = Partitions::all;
        rest.remove_prefix(3);
        if (rest.empty()) return;
        if (rest.front() != '+' || rest.size() == 1) refuse();
        rest.remove_prefix(1);
    }
    if (rest.empty()) return;
    params.subpel = parse_subpel(rest);
    if (params.subpel == Subpel::none) refuse();
}

BorderMode parse_border_mode(std::string_view name) { return parse(border_names, name, "border mode"); }
SearchMethod parse_search_method(std::string_view name) {
    for (const StageDescription& row : stage_table()) {
        if (row.kind == StageKind::integer_search && row.name == name)
            return static_cast<SearchMethod>(row.code);
    }
    throw Error(ErrorKind::invalid_argument,
                "unknown search '" + std::string(name) + "': use " + stage_names(StageKind::integer_search));
}
Subpel parse_subpel(std::string_view name) { return parse(subpel_names, name, "sub-pel refinement"); }
Partitions parse_partitions(std::string_view name) { return parse(partitions_names, name, "partitions"); }
Predictor parse_predictor(std::string_view name) { return parse(predictor_names, name, "predictor"); }
WindowCentre parse_window_centre(std::string_view name) { return parse(centre_names, name, "window centre"); }

std::string_view to_string(BorderMode border) { return name_of(border_names, border); }
std::string_view to_string(SearchMethod search) {
    for (const StageDescription& row : stage_table()) {
        if (row.kind == StageKind::integer_search && row.code == static_cast<int>(search)) return row.name;
    }
    return "?";
}
std::string_view to_string(Subpel subpel) { return name_of(subpel_names, subpel); }
std::string_view to_string(Partitions partitions) { return name_of(partitions_names, partitions); }
std::string_view to_string(Predictor predictor) { return name_of(predictor_names, predictor); }
std::string_view to_string(WindowCentre centre) { return name_of(centre_names, centre); }

}  // namespace xme
