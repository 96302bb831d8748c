// The options that choose what a job computes per frame pair (SPEC §8-§11), shared by `estimate`,
// `compare` and `bench`: the chain (search and sub-pel refinement) and its rate term and predictor.
#pragma once

#include <string>
#include <vector>

#include "xme/params.hpp"

// Only the command files that register options need CLI11 itself: its header costs every file that
// includes it seconds of compile time (its validators are objects built in each one).
namespace CLI {
class App;
}

namespace xme::cli {

struct ChainOptions {
    std::vector<std::string> algorithms;  // --algo: chain names, "fs+hpel" (bench: several)
    std::vector<std::string> searches;    // --search fs|dia|hex|ehds|tz (bench: several)
    std::vector<std::string> subpels;     // --subpel none|hpel|qpel (bench: several)
    std::string partitions = "none";      // --partitions none|all (SPEC §9), for every chain
    bool several = false;                 // lists allowed (bench), and "all" for every row of the table
    int lambda = -1;                      // --lambda N; -1: not given
    int qp = -1;                          // --qp Q; -1: not given
    std::string predictor = "none";
    std::string centre = "zero";
    int refresh = 0;
};

// Adds the options; `several` lets --algo, --search and --subpel take comma-separated lists (bench).
void add_chain_options(CLI::App& command, ChainOptions& options, bool several);

// Every chain the options name, on top of `base` (block size, range and border already set): the
// names of --algo, or the cross product of --search and --subpel (each defaulting to fs and none).
// Throws Error(invalid_argument) naming the option for bad values and combinations SPEC does not
// define.
[[nodiscard]] std::vector<SearchParams> chains_from(const ChainOptions& options, const SearchParams& base);

}  // namespace xme::cli
