// The history family: the same answers over WebSocket as GET /api/... gives (history/history.h,
// docs/protocol.md), read from storage's reader.
#include "history/history.h"
#include "requests/answer.h"
#include "requests/router.h"

#include <limits>

namespace felt::server::requests {

namespace {

void on_history(Peer& p, const protocol::Request& r) {
    // An integer field, or nothing once the request has been refused for it.
    auto integer = [&](const char* key, std::optional<std::int64_t> fallback,
                       std::int64_t lo) -> std::optional<std::int64_t> {
        auto v = protocol::integer_field(r, key, fallback, lo);
        if (!v.ok()) refuse(p, r.id, v.refusal);
        return v.value;
    };
    auto answer = [self = p.keep(), r](const Outcome<protocol::json>& o) {
        if (!o.ok()) return refuse(*self, r.id, o.refusal);
        reply(*self, r, *o.value);
    };
    const std::int64_t me = p.client.account->id;
    const auto limit = integer("limit", 20, std::numeric_limits<std::int64_t>::min());
    if (!limit) return;
    const int n = static_cast<int>(*limit);
    if (r.type == "my_hands") {
        const auto before = integer("before", 0, std::numeric_limits<std::int64_t>::min());
        if (!before) return;
        return stored(
            p, r, Access::read,
            [me, before = *before, n](Store& s) {
                return Outcome<protocol::json>{history::my_hands(s, me, before, n), {}};
            },
            answer);
    }
    if (r.type == "hand") {
        const auto id = integer("hand", std::nullopt, 0);
        if (!id) return;
        return stored(
            p, r, Access::read, [id = *id, me](Store& s) { return history::hand(s, id, me); },
            answer);
    }
    if (r.type == "hand_phh") {
        const auto id = integer("hand", std::nullopt, 0);
        if (!id) return;
        return stored(
            p, r, Access::read,
            [id = *id, me](Store& s) {
                auto phh = history::hand_phh(s, id, me);
                if (!phh.ok()) return Outcome<protocol::json>{{}, phh.refusal};
                return Outcome<protocol::json>{protocol::json{{"hand", id}, {"phh", *phh.value}},
                                               {}};
            },
            answer);
    }
    if (r.type == "table_hands") {
        const auto id = integer("table", std::nullopt, 0);
        if (!id) return;
        return stored(
            p, r, Access::read, [id = *id, n](Store& s) { return history::table_hands(s, id, n); },
            answer);
    }
    std::string name = p.client.account->name;
    if (auto it = r.body.find("name"); it != r.body.end()) {
        if (!it->is_string()) return refuse(p, r.id, "bad_request", "\"name\" must be a string");
        name = it->get<std::string>();
    }
    stored(
        p, r, Access::read, [name](Store& s) { return history::totals(s, name); }, answer);
}

} // namespace

void add_history_requests(Routes& routes) {
    for (const char* type : {"my_hands", "hand", "table_hands", "totals", "hand_phh"})
        routes.insert({type, {Needs::account, on_history}});
}

} // namespace felt::server::requests
