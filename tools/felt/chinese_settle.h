// `felt chinese settle`: a hand of Chinese poker described as a JSON document (the README's
// "felt chinese settle"), settled by the engine, and the payments as a JSON document.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace felt::cli {

// The settlement of the document `text`: payments, net, final_stacks and rake, by player name.
// Anything wrong with the document throws UsageError naming it (malformed JSON, a missing or
// mistyped field, an unknown profile, player or special hand, a bad card or row, a hand the engine
// refuses).
nlohmann::ordered_json settle_document(std::string_view text);

} // namespace felt::cli
