#include "chain_options.hpp"

#include <CLI/CLI.hpp>

#include "xme/error.hpp"
#include "xme/rate.hpp"

namespace xme::cli {

void add_chain_options(CLI::App& cmd, ChainOptions& o, bool several) {
    const std::string list = several ? " (comma-separated)" : "";
    auto* algo = cmd.add_option(
        "--algo" + std::string(several ? "s" : ""), o.algorithms,
        "Chain shorthand: SEARCH or SEARCH+hpel or SEARCH+qpel, e.g. fs, fs+hpel, tz+qpel; fs+p41 and "
        "fs+p41+qpel for the 41 partitions" +
            list);
    auto* search =
        cmd.add_option("--search", o.searches, "Integer search: fs (full), dia, hex, ehds, tz" + list);
    auto* subpel = cmd.add_option(
        "--subpel", o.subpels,
        "Sub-pel refinement: none, hpel (bilinear, SPEC §4), qpel (H.264, SATD, SPEC §10)" + list);
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
    auto* lambda =
        cmd.add_option("--lambda", o.lambda, "Rate weight of SPEC §8 (0..65535; default 0: distortion only)");
    auto* qp = cmd.add_option("--qp", o.qp, "Lambda from an H.264 quantiser, 0..51 (SPEC §8's table)");
    lambda->excludes(qp);
    cmd.add_option("--predictor", o.predictor,
                   "Predicted vector: none, temporal (previous pair), spatial (median)")
        ->capture_default_str();
    cmd.add_option("--center", o.centre, "Window centre: zero, or predictor (round(p/4))")
        ->capture_default_str();
    cmd.add_option("--refresh", o.refresh, "Temporal predictor: start a new segment every N pairs (0: never)")
        ->capture_default_str();
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
            o.searches.empty() ? std::vector<std::string>{"fs"} : o.searches;
        const std::vector<std::string> subpels =
            o.subpels.empty() ? std::vector<std::string>{"none"} : o.subpels;
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
