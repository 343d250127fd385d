// A line of table chat as the table passes it on: Unicode NFC, one line of visible text. Text
// that could hide or disguise what it says, or garble the lines around it, is refused: control
// characters (C0 and C1), line and paragraph separators, format characters (direction overrides
// such as U+202E, zero-width characters such as U+200B and U+200D), long runs of combining marks,
// and text that is only whitespace.
#pragma once

#include "protocol/refusal.h"

#include <string>
#include <string_view>

namespace felt::protocol {

inline constexpr int kChatMaxMarks = 3; // combining marks in a row on one character

// The line in NFC, at most `max_chars` code points once normalised; or bad_request naming the
// problem. `text` is valid UTF-8 (the JSON parser has checked it).
Outcome<std::string> clean_chat(std::string_view text, int max_chars);

} // namespace felt::protocol
