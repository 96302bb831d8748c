// The keyword options of estimate() and Estimator(), turned into a job by the CLI's own parser.
#include <algorithm>
#include <map>
#include <optional>

#include "bindings.hpp"
#include "chain_options.hpp"
#include "job_options.hpp"
#include "xme/error.hpp"
#include "xme/operations.hpp"

namespace xme::python {

std::string keywords_help() {
    // The searches, refinements and numeric parameters from the table of operations (xme/operations.hpp).
    const auto parameter = [](const char* name) { return parameter_help(name); };
    return "Keyword options (the CLI's `xme estimate` options):\n"
           "  device=\"auto\"      cpu, cuda:0, vulkan:0, a family (cuda), auto or reference (see "
           "xme.devices())\n"
           "  variant=None       an implementation variant of the device (default: its fastest)\n"
           "  block=16           block size: 4, 8, 16 or 32\n"
           "  range=16           " +
           parameter("range") +
           "\n"
           "  algo=None          the chain in one name: SEARCH, SEARCH+hpel, SEARCH+qpel, fs+p41, "
           "fs+p41+qpel\n"
           "  search=None        or the integer search alone (default fs):\n" +
           stage_help(StageKind::integer_search, "                       ") +
           "  subpel=None        and the refinement (default none):\n" +
           stage_help(StageKind::refinement, "                       ") +
           "  partitions=None    none, or all: SPEC 9's 41 partitions (block 16, fs)\n"
           "  lambda_=None       " +
           parameter("lambda") +
           ", or\n"
           "  qp=None            " +
           parameter("qp") +
           "\n"
           "  predictor=\"none\"   none, temporal (previous pair) or spatial (median of neighbours)\n"
           "  center=\"zero\"      window centre: zero or predictor\n"
           "  refresh=0          " +
           parameter("refresh") +
           "\n"
           "  border=\"pad\"       pad (vectors may leave the frame) or restrict (FFmpeg mestimate's "
           "window)\n"
           "  threads=0          host threads of the CPU backend (0: one per processor)";
}

namespace {

template <typename T>
T keyword_value(const py::handle& value, const std::string& key, const char* wanted) {
    try {
        return value.cast<T>();
    } catch (const py::cast_error&) {
        throw Error(ErrorKind::invalid_argument, key + "=" + py::repr(value).cast<std::string>() + " is a " +
                                                     type_name(value) + ": give " + wanted);
    }
}

}  // namespace

JobKeywords parse_keywords(const py::kwargs& keywords, bool several_devices) {
    std::map<std::string, py::handle> given;
    for (const auto& [key, value] : keywords) {
        if (!value.is_none()) given[key.cast<std::string>()] = value;
    }
    std::vector<std::string> known = {"device",    "variant", "block",      "range",   "algo",
                                      "search",    "subpel",  "partitions", "lambda_", "qp",
                                      "predictor", "center",  "refresh",    "border",  "threads"};
    if (several_devices) {
        known.emplace_back("devices");
        known.emplace_back("policy");
    }
    for (const auto& [key, value] : keywords) {
        const std::string name = key.cast<std::string>();
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string list;
            for (const auto& option : known) list += (list.empty() ? "" : ", ") + option;
            throw Error(ErrorKind::invalid_argument,
                        "unknown option '" + name + "': the options are " + list);
        }
    }
    auto text = [&](const std::string& key) -> std::optional<std::string> {
        const auto it = given.find(key);
        if (it == given.end()) return std::nullopt;
        auto value = keyword_value<std::string>(it->second, key, "a str");
        if (value.empty()) throw Error(ErrorKind::invalid_argument, key + " is given an empty value");
        return value;
    };
    // A whole number in minimum..maximum, as the CLI's options take it (cli_validators.hpp): a value
    // out of range is refused naming the range, not as a failed conversion to C++'s int.
    auto number = [&](const std::string& key, long long minimum, long long maximum,
                      std::string wanted = "") -> std::optional<int> {
        const auto it = given.find(key);
        if (it == given.end()) return std::nullopt;
        const py::handle value = it->second;
        if (wanted.empty()) wanted = "in " + std::to_string(minimum) + ".." + std::to_string(maximum);
        // bool is an int to Python, and numpy's integers are ints through __index__.
        if (PyBool_Check(value.ptr()) || PyIndex_Check(value.ptr()) == 0) {
            throw Error(ErrorKind::invalid_argument, key + "=" + py::repr(value).cast<std::string>() +
                                                         " is a " + type_name(value) + ": give an int " +
                                                         wanted);
        }
        const auto whole = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
        if (!whole) throw py::error_already_set();
        int overflow = 0;
        const long long result = PyLong_AsLongLongAndOverflow(whole.ptr(), &overflow);
        if (overflow != 0 || result < minimum || result > maximum) {
            throw Error(ErrorKind::invalid_argument,
                        key + "=" + py::repr(whole).cast<std::string>() + " is not " + wanted);
        }
        return static_cast<int>(result);
    };
    const auto parameter = [&](const std::string& key, const char* row) {
        const ParameterDescription& description = describe_parameter(row);
        return number(key, description.minimum, description.maximum);
    };

    JobKeywords job;
    if (auto device = text("device")) job.devices = {*device};
    if (given.count("devices") != 0) {
        if (given.count("device") != 0)
            throw Error(ErrorKind::invalid_argument, "give device (one) or devices (several), not both");
        job.devices = keyword_value<std::vector<std::string>>(given["devices"], "devices", "a list of str");
        job.policy = Policy::split;
    }
    if (auto policy = text("policy")) job.policy = parse_policy(*policy);
    if (job.policy == Policy::mirror)
        throw Error(ErrorKind::invalid_argument, "policy mirror compares devices: use xme.compare()");
    if (job.policy == Policy::single && job.devices.size() != 1)
        throw Error(ErrorKind::invalid_argument,
                    "policy single runs on one device; give policy='split' with devices");
    if (job.policy == Policy::split && job.devices.size() < 2)
        throw Error(ErrorKind::invalid_argument, "policy split needs at least two devices in devices=[...]");

    SessionOptions& session = job.session;
    session.variant = text("variant").value_or("");
    if (const auto block = number("block", 4, 32, "among 4, 8, 16 and 32")) {
        if (*block != 4 && *block != 8 && *block != 16 && *block != 32) {
            throw Error(ErrorKind::invalid_argument,
                        "block=" + std::to_string(*block) + " is not among 4, 8, 16 and 32");
        }
        session.params.block_size = *block;
    }
    session.params.range = parameter("range", "range").value_or(session.params.range);
    session.params.border = parse_border_mode(text("border").value_or("pad"));
    session.threads = number("threads", 0, cli::max_host_threads).value_or(0);

    cli::ChainOptions chain;
    const auto algo = text("algo");
    const auto search = text("search");
    const auto subpel = text("subpel");
    const auto partitions = text("partitions");
    if (algo && (search || subpel || partitions)) {
        throw Error(ErrorKind::invalid_argument,
                    "algo names the whole chain (as fs+hpel or fs+p41+qpel): give algo, or search, subpel "
                    "and partitions, not both");
    }
    if (algo) chain.algorithms = {*algo};
    if (search) chain.searches = {*search};
    if (subpel) chain.subpels = {*subpel};
    if (partitions) chain.partitions = *partitions;
    // Negative values are refused here: the CLI's -1 means "not given".
    const auto lambda = parameter("lambda_", "lambda");
    const auto qp = parameter("qp", "qp");
    if (lambda && qp) throw Error(ErrorKind::invalid_argument, "give lambda_ or qp, not both");
    if (lambda) chain.lambda = *lambda;
    if (qp) chain.qp = *qp;
    chain.predictor = text("predictor").value_or("none");
    chain.centre = text("center").value_or("zero");
    chain.refresh = parameter("refresh", "refresh").value_or(0);
    session.params = cli::chains_from(chain, session.params).front();
    return job;
}

}  // namespace xme::python
