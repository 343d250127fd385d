// The lobby family: the tables open (a page at a time, or watched from now on), and a new table.
#include "games/games.h"
#include "requests/answer.h"
#include "requests/router.h"
#include "tables/table.h"

#include <spdlog/spdlog.h>

namespace felt::server::requests {

namespace {

// The lobby, a page at a time: tables by id, after `after`, at most `limit`; `next` continues.
void on_tables(Peer& p, const protocol::Request& r) {
    const auto limit = protocol::integer_field(r, "limit", 50, 1, 100);
    if (!limit.ok()) return refuse(p, r.id, limit.refusal);
    const auto after = protocol::integer_field(r, "after", 0, 0);
    if (!after.ok()) return refuse(p, r.id, after.refusal);
    auto [list, next] = p.state().lobby().lines(*after.value, *limit.value);
    reply(p, r, {{"tables", list}, {"next", next}});
}

// The lobby's first page, as `tables` gives it, and from now on every change pushed.
void on_watch_lobby(Peer& p, const protocol::Request& r) {
    p.state().lobby().watch(p.keep());
    on_tables(p, r);
}

void on_unwatch_lobby(Peer& p, const protocol::Request& r) {
    p.state().lobby().unwatch(&p);
    reply(p, r);
}

// A new table of the game the request names (the default, poker, when none), through the registry
// (games.h); a configuration the game does not accept is refused with the field at fault.
void on_create_table(Peer& p, const protocol::Request& r) {
    SharedState& state = p.state();
    if (state.stopping()) return refuse(p, r.id, "stopping", "the server is shutting down");
    auto name = r.body.find("game");
    if (name != r.body.end() && !name->is_string())
        return refuse(p, r.id, {"bad_config", "\"game\" must be a string", "game"});
    const GameEntry* game =
        name == r.body.end() ? &default_game() : find_game(name->get_ref<const std::string&>());
    if (!game)
        return refuse(p, r.id,
                      {"bad_config",
                       "no game \"" + name->get<std::string>() + "\" (" + game_names() + ")",
                       "game"});
    auto decoded = game->decode(r.body, state.services());
    if (!decoded.ok()) return refuse(p, r.id, decoded.refusal);
    if (const int quota = state.config().tables_per_account;
        state.lobby().created_by(p.client.account->id) >= quota)
        return refuse(p, r.id, "too_many_tables",
                      "you have " + std::to_string(quota) +
                          " open tables already; a table closes once nobody has sat at it for " +
                          std::to_string(state.config().table_idle_s) + " s");
    stored(
        p, r, Access::write,
        [config = decoded.value->config.dump(), creator = p.client.account->id](Store& s) {
            return s.create_table(config, creator);
        },
        [self = p.keep(), r, make = decoded.value->make](std::int64_t id) {
            const auto& account = self->client.account;
            auto t = make(id);
            if (account) t->set_creator(account->id, account->name);
            self->state().lobby().add(t, account ? account->id : 0);
            spdlog::info("{} created table {} ({})", account ? account->name : "?", id,
                         t->describe());
            reply(*self, r, {{"table", id}, {"config", t->config_json()}});
        });
}

} // namespace

void add_lobby_requests(Routes& routes) {
    routes.insert({
        {"tables", {Needs::account, on_tables}},
        {"watch_lobby", {Needs::account, on_watch_lobby}},
        {"unwatch_lobby", {Needs::account, on_unwatch_lobby}},
        {"create_table", {Needs::account, on_create_table}},
    });
}

} // namespace felt::server::requests
