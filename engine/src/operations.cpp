#include "xme/operations.hpp"

#include <algorithm>
#include <climits>
#include <deque>
#include <iterator>
#include <string>

#include "xme/dct.hpp"
#include "xme/error.hpp"

namespace xme {
namespace {

// search_methods.def's rows and those add_search_stage appends: a deque, so that appending keeps the
// addresses describe() handed out.
std::deque<StageDescription>& searches() {
    static std::deque<StageDescription> rows = [] {
        return std::deque<StageDescription>{
#define XME_SEARCH(identifier, code, name, spec, needs, min_block, summary) \
    {StageKind::integer_search, code, name, spec, search_needs(SearchMethod::identifier), min_block, summary},
#include "xme/search_methods.def"
#undef XME_SEARCH
        };
    }();
    return rows;
}

constexpr StageDescription other_stages[] = {
    {StageKind::refinement, static_cast<int>(Subpel::none), "none", "§3", Need::none, 4, "integer vectors"},
    {StageKind::refinement, static_cast<int>(Subpel::hpel), "hpel", "§4", Need::none, 4,
     "bilinear half-pel, cost4 (the legacy refinement)"},
    {StageKind::refinement, static_cast<int>(Subpel::qpel), "qpel", "§10", Need::half_sample_planes, 4,
     "H.264 6-tap half and quarter pel, SATD"},
    {StageKind::partitions, static_cast<int>(Partitions::all), "p41", "§9", Need::none, 16,
     "the 41 partitions of a 16x16 macroblock and the mode decision (after fs)"},
    {StageKind::compensation, 0, "prediction", "§12", Need::none, 4,
     "the reference at each block's final vector"},
    {StageKind::compensation, 1, "residual", "§12", Need::none, 4, "current minus prediction"},
    {StageKind::transform, static_cast<int>(TransformAlgorithm::matrix), "matrix", "§13", Need::none, 4,
     "8x8 DCT as two passes of 8 multiply-adds per coefficient"},
    {StageKind::transform, static_cast<int>(TransformAlgorithm::loeffler), "loeffler", "§13", Need::none, 4,
     "8x8 DCT as Loeffler's 11 multiplications per 1-D transform"},
};

// Every row in order, contiguous for stage_table(); rebuilt when a search is added.
std::vector<StageDescription>& flat_table() {
    static std::vector<StageDescription> rows = [] {
        std::vector<StageDescription> all(searches().begin(), searches().end());
        all.insert(all.end(), std::begin(other_stages), std::end(other_stages));
        return all;
    }();
    return rows;
}

const StageDescription& find_stage(StageKind kind, int code, std::string_view what) {
    for (const StageDescription& row : searches()) {
        if (row.kind == kind && row.code == code) return row;
    }
    for (const StageDescription& row : other_stages) {
        if (row.kind == kind && row.code == code) return row;
    }
    throw Error(ErrorKind::invalid_argument, "no row of the table of operations describes " +
                                                 std::string(what) + " " + std::to_string(code));
}

constexpr ParameterDescription parameters[] = {
    {"block", 4, 32, 16, "§1", "block size B: 4, 8, 16 or 32"},
    {"range", 0, max_search_range, 16, "§2", "search range R: integer candidates c + [-R, R]^2"},
    {"lambda", 0, max_lambda, 0, "§8", "rate weight: J = D + lambda * R(mv - p); 0: distortion only"},
    {"qp", 0, 51, -1, "§8", "lambda from an H.264 quantiser, by SPEC §8's table (instead of lambda)"},
    {"refresh", 0, INT_MAX, 0, "§8", "temporal predictor: a new segment every N pairs; 0: one segment"},
};

}  // namespace

std::span<const StageDescription> stage_table() { return flat_table(); }

std::vector<StageDescription> stages_of(StageKind kind) {
    std::vector<StageDescription> rows;
    std::copy_if(flat_table().begin(), flat_table().end(), std::back_inserter(rows),
                 [kind](const StageDescription& row) { return row.kind == kind; });
    return rows;
}

const StageDescription& describe(SearchMethod search) {
    return find_stage(StageKind::integer_search, static_cast<int>(search), "integer search");
}

const StageDescription& describe(Subpel subpel) {
    return find_stage(StageKind::refinement, static_cast<int>(subpel), "sub-pel refinement");
}

std::string stage_names(StageKind kind) {
    std::string names;
    for (const StageDescription& row : flat_table()) {
        if (row.kind == kind) names += (names.empty() ? "" : ", ") + std::string(row.name);
    }
    return names;
}

std::string stage_help(StageKind kind, std::string_view indent) {
    std::size_t width = 0;
    for (const StageDescription& row : flat_table()) {
        if (row.kind == kind) width = std::max(width, row.name.size());
    }
    std::string help;
    for (const StageDescription& row : flat_table()) {
        if (row.kind != kind) continue;
        help += std::string(indent) + std::string(row.name) + std::string(width + 2 - row.name.size(), ' ') +
                std::string(row.summary) + " (SPEC " + std::string(row.spec) + ")\n";
    }
    return help;
}

void add_search_stage(const StageDescription& search) {
    for (const StageDescription& row : searches()) {
        if (row.code == search.code || row.name == search.name) {
            throw Error(ErrorKind::invalid_argument, "the table of operations has a search with code " +
                                                         std::to_string(search.code) + " or name '" +
                                                         std::string(search.name) + "' already");
        }
    }
    StageDescription row = search;
    row.kind = StageKind::integer_search;
    searches().push_back(row);
    auto& flat = flat_table();
    flat.insert(flat.begin() + static_cast<std::ptrdiff_t>(searches().size() - 1), row);
}

void remove_search_stage(SearchMethod search) {
    constexpr std::size_t defined = 0
#define XME_SEARCH(identifier, code, name, spec, needs, min_block, summary) +1
#include "xme/search_methods.def"
#undef XME_SEARCH
        ;
    auto& rows = searches();
    for (std::size_t i = defined; i < rows.size(); ++i) {
        if (rows[i].code != static_cast<int>(search)) continue;
        rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(i));
        auto& flat = flat_table();
        flat.erase(flat.begin() + static_cast<std::ptrdiff_t>(i));
        return;
    }
}

Need chain_needs(const SearchParams& params) {
    Need needs = describe(params.search).needs | describe(params.subpel).needs;
    if (has(needs, Need::predictor_set)) needs = needs | Need::neighbour_vectors | Need::previous_field;
    if (params.predictor == Predictor::temporal) needs = needs | Need::previous_field;
    if (params.predictor == Predictor::spatial) needs = needs | Need::neighbour_vectors;
    return needs;
}

bool needs_previous_field(const SearchParams& params) {
    return has(chain_needs(params), Need::previous_field);
}
bool needs_wavefront(const SearchParams& params) { return has(chain_needs(params), Need::neighbour_vectors); }

std::span<const ParameterDescription> parameter_table() { return parameters; }

const ParameterDescription& describe_parameter(std::string_view name) {
    for (const ParameterDescription& row : parameters) {
        if (row.name == name) return row;
    }
    throw Error(ErrorKind::invalid_argument, "no chain parameter is named '" + std::string(name) + "'");
}

std::string parameter_help(std::string_view name) {
    const ParameterDescription& row = describe_parameter(name);
    const std::string maximum = row.maximum == INT_MAX ? "" : std::to_string(row.maximum);
    const std::string default_value =
        row.default_value < row.minimum ? "" : ", default " + std::to_string(row.default_value);
    return std::string(row.summary) + " (" + std::to_string(row.minimum) + ".." + maximum + default_value +
           "; SPEC " + std::string(row.spec) + ")";
}

void check_parameter(std::string_view name, long long value, std::string_view what) {
    const ParameterDescription& row = describe_parameter(name);
    if (value >= row.minimum && value <= row.maximum) return;
    throw Error(ErrorKind::invalid_argument,
                std::string(what) + " " + std::to_string(value) + " is out of bounds: use " +
                    std::to_string(row.minimum) + ".." + std::to_string(row.maximum) + " (" +
                    std::string(row.summary) + ", SPEC " + std::string(row.spec) + ")");
}

}  // namespace xme
