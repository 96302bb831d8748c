// Text from an input (a header tag, a file name, a decoder's message) made safe to print: a byte
// that a terminal would act on (ESC, BEL, CR, a C1 control) must not reach it from a message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace xme {

// `text` with every control byte (0x00-0x1f, 0x7f), C1 control (U+0080-U+009F) and byte that is
// not part of valid UTF-8 written as \xNN; printable ASCII and valid UTF-8 text stay as they are.
// A backslash is kept, so escaping twice changes nothing.
[[nodiscard]] inline std::string escape_text(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    const auto escape_byte = [&](unsigned char byte) {
        out += "\\x";
        out += hex[byte >> 4];
        out += hex[byte & 0xf];
    };
    const auto continuation = [&](std::size_t at) {
        return at < text.size() && (static_cast<unsigned char>(text[at]) & 0xc0) == 0x80;
    };
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            if (byte < 0x20 || byte == 0x7f) {
                escape_byte(byte);
            } else {
                out += static_cast<char>(byte);
            }
            ++i;
            continue;
        }
        // The length of a well-formed UTF-8 sequence starting here, or 0 (RFC 3629: no overlong
        // forms, no surrogates, nothing past U+10FFFF).
        std::size_t length = 0;
        const auto second = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        if (byte >= 0xc2 && byte <= 0xdf) {
            length = continuation(i + 1) ? 2 : 0;
            if (byte == 0xc2 && second < 0xa0) length = 0;  // U+0080-U+009F: C1 controls
        } else if (byte >= 0xe0 && byte <= 0xef) {
            const bool valid_second = (byte == 0xe0 ? second >= 0xa0 : byte == 0xed ? second < 0xa0 : true);
            length = continuation(i + 1) && continuation(i + 2) && valid_second ? 3 : 0;
        } else if (byte >= 0xf0 && byte <= 0xf4) {
            const bool valid_second = (byte == 0xf0 ? second >= 0x90 : byte == 0xf4 ? second < 0x90 : true);
            length =
                continuation(i + 1) && continuation(i + 2) && continuation(i + 3) && valid_second ? 4 : 0;
        }
        if (length == 0) {
            escape_byte(byte);
            ++i;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

}  // namespace xme
