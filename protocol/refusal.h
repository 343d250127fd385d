// One refusal for the whole server: a request, an action or a configuration that is not taken,
// with a stable code (docs/protocol.md's error codes), a sentence that names the problem, and the
// request's field at fault where there is one (bad_config). The engine's own refusals
// (engine/result.h) become one through refusal().
#pragma once

#include "protocol/chips_json.h"
#include "result.h"

#include <optional>
#include <string>

namespace felt::protocol {

struct Refusal {
    std::string code; // stable, machine-readable
    std::string message;
    std::string field = {}; // the request's field at fault, where one is
    std::string url = {};   // `moved`: the node that hosts the table
};

// A value, or why there is none.
template <class T>
struct Outcome {
    std::optional<T> value;
    Refusal refusal;
    bool ok() const { return value.has_value(); }
};

// The engine's refusal in the protocol's words: its code's name ("not_your_turn", ...) and its
// message.
inline Refusal refusal(const felt::Error& e) {
    return {error_code_name(e.code), e.message};
}

} // namespace felt::protocol
