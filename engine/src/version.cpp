// The library's own version (xme/version.hpp): this object is part of libxme, so the string is the
// library's, whatever headers the calling program was compiled with.
#include "xme/version.hpp"

namespace xme {

const char* version() noexcept { return XME_VERSION_STRING; }

}  // namespace xme
