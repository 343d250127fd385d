// The history family: the same answers over WebSocket as GET /api/... gives (history/history.h,
// docs/protocol.md), read from storage's reader.
#include "history/history.h"
#include "requests/answer.h"
#include "requests/router.h"

namespace felt::server::requests {

namespace {

void on_history(Peer& p, const protocol::Request& r) {
    auto query = history::read_query(r);
    if (!query.ok()) return refuse(p, r.id, query.refusal);
    const Account& me = *p.client.account;
    if (query.value->type == "totals" && !query.value->name) query.value->name = me.name;
    if (query.value->type == "stats")
        if (auto no = history::stats_private(*query.value, me.name)) return refuse(p, r.id, *no);
    if (query.value->type == "opponent_stats" && !p.state().config().table_stats)
        return refuse(p, r.id, "disabled",
                      "this server shows no statistics of opponents (feltd --no-table-stats)");
    stored(
        p, r, Access::read,
        [q = std::move(*query.value), me = me.id](Store& s) { return history::answer(s, q, me); },
        [self = p.keep(), r](const Outcome<protocol::json>& o) {
            if (!o.ok()) return refuse(*self, r.id, o.refusal);
            reply(*self, r, *o.value);
        });
}

} // namespace

void add_history_requests(Routes& routes) {
    for (const char* type : {"my_hands", "my_tournaments", "hand", "table_hands", "totals",
                             "hand_phh", "stats", "opponent_stats", "hand_search"})
        routes.insert({type, {Needs::account, on_history}});
}

} // namespace felt::server::requests
