// The table family: each request names its table, which answers it (tables/table.h). On one node
// of several, a table hosted by another node is a `moved` refusal with its address.
#include "requests/answer.h"
#include "requests/router.h"
#include "tables/table.h"

namespace felt::server::requests {

namespace {

using TableCall = void (Table::*)(std::shared_ptr<Recipient>, Account, protocol::Request);

void to_table(Peer& p, const protocol::Request& r, TableCall f) {
    auto id = r.body.find("table");
    if (id == r.body.end() || !id->is_number_integer())
        return refuse(p, r.id, "bad_request", "\"" + r.type + "\" needs an integer \"table\"");
    const std::int64_t table = id->get<std::int64_t>();
    auto t = p.state().lobby().find(table);
    if (!t && p.state().clustered() && (r.type == "join" || r.type == "spectate")) {
        // Another node may host it (several nodes on one PostgreSQL database): the client is
        // sent there, to sign in with its token and ask again. One node asks nobody.
        return stored(
            p, r, Access::read, [table](Store& s) { return s.node_url_of(table); },
            [self = p.keep(), r, table](std::optional<std::string> url) {
                if (!url)
                    return refuse(*self, r.id, "no_such_table",
                                  "there is no table " + std::to_string(table));
                refuse(*self, r.id,
                       {"moved",
                        "table " + std::to_string(table) + " is on another node: connect to " +
                            *url + ", sign in with your token and ask again",
                        "", *url});
            });
    }
    if (!t) return refuse(p, r.id, "no_such_table", "there is no table " + id->dump());
    p.client.tables.insert(t->id());
    ((*t).*f)(p.keep(), *p.client.account, r);
}

} // namespace

void add_table_requests(Routes& routes) {
    for (auto [type, f] : std::initializer_list<std::pair<const char*, TableCall>>{
             {"join", &Table::join},
             {"spectate", &Table::spectate},
             {"leave", &Table::leave},
             {"act", &Table::act},
             {"hint", &Table::hint},
             {"preview", &Table::preview},
             {"choose_deck", &Table::choose_deck},
             {"chat", &Table::chat},
             {"snapshot", &Table::resend},
             {"sit_out", &Table::sit_out},
             {"sit_in", &Table::sit_in},
             {"top_up", &Table::top_up},
             {"close_table", &Table::close}})
        routes.insert({type, {Needs::account, [f](Peer& p, const protocol::Request& r) {
                                  to_table(p, r, f);
                              }}});
}

} // namespace felt::server::requests
