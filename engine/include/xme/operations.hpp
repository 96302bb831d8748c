// The engine's table of operations (docs/engine.md): every stage SPEC defines, described once. The
// command line's options and help, the Python keywords, the conformance table's rows, `xme bench`'s
// matrix and `xme devices`' listing read these rows instead of keeping lists of their own; each backend
// maps the rows to its kernels through one table (xme/kernel_table.hpp) and answers "not supported"
// for a row it has no kernel for.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xme/params.hpp"

namespace xme {

enum class StageKind { integer_search, refinement, partitions, compensation, transform };

// One stage of a chain: what users type, what it computes and where SPEC defines it.
struct StageDescription {
    StageKind kind = StageKind::integer_search;
    int code = 0;  // the stage's value in its own enumeration (SearchMethod, Subpel, TransformAlgorithm)
    std::string_view name;     // as typed and printed: "fs", "qpel", "p41", "loeffler"
    std::string_view spec;     // "§11"
    Need needs = Need::none;   // what it needs prepared
    int min_block_size = 4;    // the smallest block size it is defined for
    std::string_view summary;  // one line for people
};

// Every stage, in the order users see them: searches (search_methods.def's rows, then any added at
// run time), refinements, partitions, compensation, transforms.
[[nodiscard]] std::span<const StageDescription> stage_table();
// The rows of one kind, in the table's order.
[[nodiscard]] std::vector<StageDescription> stages_of(StageKind kind);
// The integer search's row; throws Error(invalid_argument) for a value no row describes.
[[nodiscard]] const StageDescription& describe(SearchMethod search);
[[nodiscard]] const StageDescription& describe(Subpel subpel);
// "fs, dia, hex, ehds, tz": the names of one kind, for help texts and messages.
[[nodiscard]] std::string stage_names(StageKind kind);

// One line per row of `kind` for help texts: "  name  summary (SPEC §n)", names padded to one column.
[[nodiscard]] std::string stage_help(StageKind kind, std::string_view indent = "  ");

// Adds an integer search at run time, after search_methods.def's rows: a search defined outside the
// engine (the operations test's dummy). No backend has a kernel for it, so every one answers "not
// supported" until its kernel table maps it. Throws Error(invalid_argument) when the code or the
// name is taken. Not thread-safe: call it before any job starts.
void add_search_stage(const StageDescription& search);
// Removes a search add_search_stage added (not one of search_methods.def's); nothing when absent.
void remove_search_stage(SearchMethod search);

// What a chain needs prepared: its search's and refinement's needs, and its predictor's (the
// temporal one reads the previous field, the spatial one the neighbours' vectors).
[[nodiscard]] Need chain_needs(const SearchParams& params);
// Whether the chain reads the previous pair's field: then pairs of a segment run in order and a
// session is given the previous result (SPEC §8).
[[nodiscard]] bool needs_previous_field(const SearchParams& params);
// Whether a block reads its left, top and top-right neighbours' final vectors of the same frame: then
// blocks run as SPEC §8's wavefront.
[[nodiscard]] bool needs_wavefront(const SearchParams& params);

// A numeric parameter of every chain (SPEC §2, §8): the command line's option and Python's keyword
// take their range, default and help from here.
struct ParameterDescription {
    std::string_view name;  // Python's keyword; the option is "--" + name
    int minimum = 0;
    int maximum = 0;
    int default_value = 0;  // below minimum: none (qp, which replaces lambda only when given)
    std::string_view spec;
    std::string_view summary;
};
[[nodiscard]] std::span<const ParameterDescription> parameter_table();
// The row named `name`; throws Error(invalid_argument) when there is none.
[[nodiscard]] const ParameterDescription& describe_parameter(std::string_view name);
// "summary (min..max, default d; SPEC §n)" for help texts.
[[nodiscard]] std::string parameter_help(std::string_view name);
// Throws Error(invalid_argument) naming `what` (an option or keyword) and the allowed range when
// `value` is outside the parameter's.
void check_parameter(std::string_view name, long long value, std::string_view what);

}  // namespace xme
