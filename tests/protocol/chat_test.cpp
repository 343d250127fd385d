// Chat lines (protocol/chat.h): normalised to NFC, refused where they could hide or disguise
// what they say. The characters are named by their code points in the Unicode standard.
#include "protocol/chat.h"

#include <doctest/doctest.h>

#include <string>

using felt::protocol::clean_chat;

namespace {

std::string refused(const std::string& text, int max_chars = 200) {
    auto out = clean_chat(text, max_chars);
    return out.ok() ? std::string() : out.refusal.message;
}

} // namespace

TEST_CASE("chat: lines come out in NFC, counted in characters") {
    // U+0065 U+0301 (e, combining acute) composes to U+00E9; U+212B (angstrom sign) to U+00C5.
    CHECK(*clean_chat("cafe\xcc\x81", 200).value == "caf\xc3\xa9");
    CHECK(*clean_chat("\xe2\x84\xab", 200).value == "\xc3\x85");
    CHECK(*clean_chat("gl \xe2\x99\xa0 \xf0\x9f\x82\xa1 \xe4\xbd\xa0\xe5\xa5\xbd", 200).value ==
          "gl \xe2\x99\xa0 \xf0\x9f\x82\xa1 \xe4\xbd\xa0\xe5\xa5\xbd"); // ♠, 🂡, 你好: as they are
    std::string decomposed;
    for (int i = 0; i < 10; ++i) decomposed += "e\xcc\x81";
    CHECK(clean_chat(decomposed, 10).ok()); // 20 code points, 10 once composed
    CHECK_FALSE(clean_chat(decomposed + "x", 10).ok());
    CHECK(refused("") != "");
}

TEST_CASE("chat: controls, separators, invisible format characters, stacked marks and blank "
          "lines are refused, each by name") {
    CHECK(refused("a\nb").find("U+000A") != std::string::npos);
    CHECK(refused(std::string("a\0b", 3)).find("U+0000") != std::string::npos);
    CHECK(refused("a\tb") != "");
    CHECK(refused("a\x7f").find("U+007F") != std::string::npos);
    CHECK(refused("a\xc2\x85").find("U+0085") != std::string::npos);       // C1: next line
    CHECK(refused("a\xe2\x80\xa8").find("U+2028") != std::string::npos);   // line separator
    CHECK(refused("a\xe2\x80\xa9").find("U+2029") != std::string::npos);   // paragraph separator
    CHECK(refused("gg \xe2\x80\xae").find("U+202E") != std::string::npos); // right-to-left override
    CHECK(refused("\xe2\x81\xa6x").find("U+2066") != std::string::npos);   // left-to-right isolate
    CHECK(refused("a\xe2\x80\x8b").find("U+200B") != std::string::npos);   // zero width space
    CHECK(refused("a\xe2\x80\x8d").find("U+200D") != std::string::npos);   // zero width joiner
    CHECK(refused("\xef\xbb\xbf").find("U+FEFF") != std::string::npos);    // zero width no-break
    // x has no precomposed accented forms: its marks stay marks. Three stack, four do not.
    const std::string acute = "\xcc\x81";
    CHECK(refused("x" + acute + acute + acute) == "");
    CHECK(refused("x" + acute + acute + acute + acute).find("combining") != std::string::npos);
    CHECK(refused("   ").find("whitespace") != std::string::npos);
    CHECK(refused("\xc2\xa0\xe3\x80\x80").find("whitespace") != std::string::npos); // NBSP, U+3000
    CHECK(refused(" ok ") == "");
}
