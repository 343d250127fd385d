#include "protocol/chat.h"

#include <utf8proc.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace felt::protocol {

namespace {

std::string code_point(utf8proc_int32_t c) {
    char out[16];
    std::snprintf(out, sizeof out, "U+%04X", static_cast<unsigned>(c));
    return out;
}

Refusal bad(std::string why) {
    return {"bad_request", "chat text " + std::move(why)};
}

// Walks the code points of `text`, calling f(code point) until it returns a refusal.
template <class F>
std::optional<Refusal> each(std::string_view text, F&& f) {
    const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
    for (utf8proc_ssize_t at = 0, n = static_cast<utf8proc_ssize_t>(text.size()); at < n;) {
        utf8proc_int32_t c = 0;
        const utf8proc_ssize_t len = utf8proc_iterate(p + at, n - at, &c);
        if (len <= 0) return bad("is not valid UTF-8");
        if (auto r = f(c)) return r;
        at += len;
    }
    return std::nullopt;
}

} // namespace

Outcome<std::string> clean_chat(std::string_view text, int max_chars) {
    // Controls first: NFC reads a NUL as the end of the text.
    auto check = [](utf8proc_int32_t c) -> std::optional<Refusal> {
        switch (utf8proc_category(c)) {
        case UTF8PROC_CATEGORY_CC:
            return bad("is one line, without control characters (" + code_point(c) + ")");
        case UTF8PROC_CATEGORY_ZL:
        case UTF8PROC_CATEGORY_ZP:
            return bad("is one line, without line or paragraph separators (" + code_point(c) + ")");
        case UTF8PROC_CATEGORY_CF:
            return bad("may not hold invisible format characters such as direction overrides "
                       "and zero-width characters (" +
                       code_point(c) + ")");
        default:
            return std::nullopt;
        }
    };
    if (auto r = each(text, check)) return {std::nullopt, std::move(*r)};
    const std::string line(text);
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> nfc(
        utf8proc_NFC(reinterpret_cast<const utf8proc_uint8_t*>(line.c_str())), &std::free);
    if (!nfc) return {std::nullopt, bad("is not valid UTF-8")};
    std::string out(reinterpret_cast<const char*>(nfc.get()));
    int chars = 0, marks = 0;
    bool visible = false;
    auto count = [&](utf8proc_int32_t c) -> std::optional<Refusal> {
        if (auto r = check(c)) return r; // NFC makes none of these, but check what goes out
        ++chars;
        const utf8proc_category_t cat = utf8proc_category(c);
        const bool mark = cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC ||
                          cat == UTF8PROC_CATEGORY_ME;
        marks = mark ? marks + 1 : 0;
        if (marks > kChatMaxMarks)
            return bad("may not stack more than " + std::to_string(kChatMaxMarks) +
                       " combining marks on a character");
        visible = visible || cat != UTF8PROC_CATEGORY_ZS;
        return std::nullopt;
    };
    if (auto r = each(out, count)) return {std::nullopt, std::move(*r)};
    if (chars < 1 || chars > max_chars)
        return {std::nullopt, bad("is 1 to " + std::to_string(max_chars) + " characters, not " +
                                  std::to_string(chars))};
    if (!visible) return {std::nullopt, bad("is only whitespace")};
    return {std::move(out), {}};
}

} // namespace felt::protocol
