#include "xme/params.hpp"

#include <string>

#include "xme/error.hpp"

namespace xme {

void SearchParams::validate() const {
    if (block_size != 4 && block_size != 8 && block_size != 16 && block_size != 32) {
        throw Error(ErrorKind::invalid_argument,
                    "block size " + std::to_string(block_size) + " is not supported: use 4, 8, 16 or 32");
    }
    if (range < 0 || range > max_search_range) {
        throw Error(ErrorKind::invalid_argument, "search range " + std::to_string(range) +
                                                     " is out of bounds: use 0.." +
                                                     std::to_string(max_search_range));
    }
}

Algorithm parse_algorithm(std::string_view name) {
    if (name == "fs") return Algorithm::full_search;
    if (name == "fs+hpel") return Algorithm::full_search_hpel;
    throw Error(ErrorKind::invalid_argument,
                "unknown algorithm '" + std::string(name) + "': use fs or fs+hpel");
}

BorderMode parse_border_mode(std::string_view name) {
    if (name == "pad") return BorderMode::pad;
    if (name == "restrict") return BorderMode::restrict;
    throw Error(ErrorKind::invalid_argument,
                "unknown border mode '" + std::string(name) + "': use pad or restrict");
}

std::string_view to_string(Algorithm algorithm) {
    return algorithm == Algorithm::full_search ? "fs" : "fs+hpel";
}

std::string_view to_string(BorderMode border) { return border == BorderMode::pad ? "pad" : "restrict"; }

}  // namespace xme
