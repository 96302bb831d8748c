#include "chain_options.hpp"

#include <CLI/CLI.hpp>

#include "cli_validators.hpp"
#include "xme/error.hpp"
#include "xme/operations.hpp"
#include "xme/rate.hpp"

namespace xme::cli {

namespace {

// A help text's list of rows, without the last line's end (CLI11 ends the option's text itself).
std::string rows_help(StageKind kind) {
    std::string help = stage_help(kind);
    if (!help.empty() && help.back() == '\n') help.pop_back();
    return help;
}

// `names`, with "all" (which only the options taking lists offer) replaced by every row of `kind`, in
// the table's order: `xme bench --search all` times every search the table has.
std::vector<std::string> every_row_for_all(const std::vector<std::string>& names, StageKind kind) {
    std::vector<std::string> expanded;
    for (const std::string& name : names) {
        if (name != "all") {
            expanded.push_back(name);
            continue;
        }
        for (const StageDescription& row : stages_of(kind)) expanded.emplace_back(row.name);
    }
    return expanded;
}

}  // namespace

void add_chain_options(CLI::App& cmd, ChainOptions& o, bool several) {
    // The searches, refinements and parameters come from the table of operations (xme/operations.hpp).
    o.several = several;
    const std::string list = several ? " (comma-separated)" : "";
    auto* algo =
        cmd.add_option("--algo" + std::string(several ? "s" : ""), o.algorithms,
                       "Chain shorthand: SEARCH, SEARCH+hpel or SEARCH+qpel (SEARCH one of " +
                           stage_names(StageKind::integer_search) +
                           "), e.g. fs+hpel, tz+qpel; fs+p41 and fs+p41+qpel for the 41 partitions" + list);
    const std::string every = several ? "; all: every row below" : "";
    auto* search =
        cmd.add_option("--search", o.searches,
                       "Integer search" + list + every + ":\n" + rows_help(StageKind::integer_search));
    auto* subpel =
        cmd.add_option("--subpel", o.subpels,
                       "Sub-pel refinement" + list + every + ":\n" + rows_help(StageKind::refinement));
    for (auto* option : {algo, search, subpel}) {
        if (several)
            option->delimiter(',');
        else
            option->expected(1);
    }
    auto* partitions =
        cmd.add_option("--partitions", o.partitions,
                       "none, or all: the 41 partitions of every 16x16 macroblock and the mode "
                       "decision (SPEC §9; block 16, fs, subpel none or qpel)")
            ->capture_default_str();
    algo->excludes(search)->excludes(subpel)->excludes(partitions);
    const auto numeric = [&](const char* name, int& value) {
        const ParameterDescription& row = describe_parameter(name);
        return cmd.add_option("--" + std::string(name), value, parameter_help(name))
            ->check(whole_number_from(row.minimum, row.maximum));
    };
    numeric("lambda", o.lambda)->excludes(numeric("qp", o.qp));
    cmd.add_option("--predictor", o.predictor,
                   "Predicted vector: none, temporal (previous pair), spatial (median)")
        ->capture_default_str();
    cmd.add_option("--center", o.centre, "Window centre: zero, or predictor (round(p/4))")
        ->capture_default_str();
    numeric("refresh", o.refresh)->capture_default_str();
}

std::vector<SearchParams> chains_from(const ChainOptions& o, const SearchParams& base) {
    SearchParams params = base;
    params.lambda = o.lambda >= 0 ? o.lambda : 0;
    if (o.qp >= 0) params.lambda = checked_lambda_from_qp(o.qp);
    params.predictor = parse_predictor(o.predictor);
    params.centre = parse_window_centre(o.centre);
    params.refresh = o.refresh;
    params.partitions = parse_partitions(o.partitions);
    std::vector<SearchParams> chains;
    if (!o.algorithms.empty()) {
        for (const auto& name : o.algorithms) {
            apply_chain_name(params, name);
            chains.push_back(params);
        }
    } else {
        const std::vector<std::string> searches =
            o.searches.empty() ? std::vector<std::string>{"fs"}
            : o.several        ? every_row_for_all(o.searches, StageKind::integer_search)
                               : o.searches;
        const std::vector<std::string> subpels = o.subpels.empty() ? std::vector<std::string>{"none"}
                                                 : o.several
                                                     ? every_row_for_all(o.subpels, StageKind::refinement)
                                                     : o.subpels;
        for (const auto& search : searches) {
            for (const auto& subpel : subpels) {
                params.search = parse_search_method(search);
                params.subpel = parse_subpel(subpel);
                chains.push_back(params);
            }
        }
    }
    if (chains.empty())
        throw Error(ErrorKind::invalid_argument, "no chain given: use --algo, --search or --subpel");
    for (const auto& chain : chains) chain.validate();
    return chains;
}

}  // namespace xme::cli
