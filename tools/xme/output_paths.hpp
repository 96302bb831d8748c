// Outputs that would destroy an input or each other: before any work, every output a command names
// is checked against each of its inputs and each of its other outputs (xme(1), WRITING
// OUTPUTS), as FFmpeg refuses "Output ... is same as Input".
#pragma once

#include <string>
#include <vector>

namespace xme::cli {

// A file a command reads or writes, and how its messages name it.
struct NamedPath {
    std::string name;  // an output's option ("-o", "--residual"); an input's role ("the input video")
    std::string path;  // empty: not given, never checked
    // "-" is standard output (an output) or standard input (an input), not a file named "-".
    bool dash_is_stream = false;
};

// Throws Error(invalid_argument), naming both, when an output is an input's file or another output's.
// Files are the same by identity: the same device and inode where the file exists (after following
// links, so symbolic and hard links clash), else the same absolute, normalised path with its links
// resolved (`./a.y4m` is `a.y4m`). A printf pattern (one PNG or .flo per frame: `f_%04d.png`) is
// compared by that spelling alone; an existing file that is not a regular one (/dev/null, a FIFO)
// takes any number of uses. Standard output named twice clashes too, as does a stream whose
// redirection is another named file.
void check_output_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

}  // namespace xme::cli
