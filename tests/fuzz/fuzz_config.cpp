// libFuzzer: a `create_table` body for each game, then actions at the table it describes. A bad
// configuration or action is a refusal that names a code, never a crash.
#include "leap/leap_game.h"
#include "protocol/chinese_config.h"
#include "protocol/chinese_messages.h"
#include "protocol/leap_config.h"
#include "protocol/leap_messages.h"
#include "protocol/poker_config.h"
#include "protocol/poker_messages.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

template <class T>
void refused_with_code(const felt::protocol::Outcome<T>& o) {
    if (!o.ok() && o.refusal.code.empty()) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace felt::protocol;
    json body = json::parse(data, data + size, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return 0;
    // "act" is not a setting: the configuration is the rest of the body.
    json act;
    if (auto it = body.find("act"); it != body.end()) {
        act = std::move(*it);
        body.erase(it);
    }
    auto poker = decode_poker_config(body);
    refused_with_code(poker);
    if (poker.ok() && !act.is_null())
        refused_with_code(parse_poker_action(act, 0, *poker.value->second.ranking));
    refused_with_code(decode_chinese_config(body));
    refused_with_code(parse_chinese_split(body));
    refused_with_code(parse_chinese_action(body));
    auto leap = decode_leap_config(body);
    refused_with_code(leap);
    if (leap.ok() && !act.is_null()) {
        auto table = felt::leap::Table::make(leap.value->rules, 2);
        if (table) refused_with_code(parse_leap_action(*table.value(), act, 0));
    }
    return 0;
}
