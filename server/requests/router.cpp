#include "requests/router.h"

#include "requests/answer.h"
#include "tables/table.h"

#include <spdlog/spdlog.h>

namespace felt::server::requests {

namespace {

// Every request type and its handler, family by family. A type missing here is unknown_type.
const Routes& routes() {
    static const Routes all = [] {
        Routes r;
        add_account_requests(r);
        add_lobby_requests(r);
        add_table_requests(r);
        add_history_requests(r);
        add_tournament_requests(r);
        return r;
    }();
    return all;
}

} // namespace

void route(Peer& p, const protocol::Request& r) {
    p.client.arrived = std::chrono::steady_clock::now();
    try {
        auto it = routes().find(r.type);
        if (it == routes().end())
            return refuse(p, r.id, "unknown_type", "no request of type \"" + r.type + "\"");
        const Handler& h = it->second;
        if (h.needs != Needs::nothing && !p.client.hello)
            return refuse(p, r.id, "hello_first", "say \"hello\" with your protocol version first");
        if (h.needs == Needs::account && !p.client.account)
            return refuse(p, r.id, "unauthorized",
                          "sign in first (register, login, guest or resume)");
        h.run(p, r);
    } catch (const std::exception& e) {
        // A bug: the client hears of it, the server goes on.
        spdlog::error("{}: {} failed: {}", p.address(), r.type, e.what());
        refuse(p, r.id, "internal", "the server could not complete this request");
    }
}

void closed(Peer& p) {
    drop_account(p);
}

void drop_account(Peer& p) {
    Lobby& lobby = p.state().lobby();
    lobby.unwatch(&p);
    for (std::int64_t id : p.client.tables)
        if (auto t = lobby.find(id)) t->disconnected(&p);
    p.client.tables.clear();
    p.client.account.reset();
    p.client.token.clear();
}

void tell_balance(Peer& p, std::int64_t account, Chips balance) {
    ClientState& c = p.client;
    if (!c.account || c.account->id != account) return;
    c.account->balance = balance;
    p.answer(std::make_shared<const std::string>(
        protocol::json{{"type", "balance"}, {"balance", balance}}.dump()));
}

void tournament_news(Peer& p, const TournamentNews& news) {
    ClientState& c = p.client;
    if (!c.account) return;
    if (const auto told = news.told.find(c.account->id); told != news.told.end())
        for (const auto& message : told->second) p.answer(message);
    if (const auto seat = news.seated.find(c.account->id); seat != news.seated.end()) {
        c.tables.insert(seat->second->id());
        seat->second->attach(p.keep(), *c.account);
    }
}

void sign_out(Peer& p, const SignOut& which) {
    ClientState& c = p.client;
    if (!c.account || c.account->id != which.account) return;
    const bool same = !which.token_hash.empty() && token_hash(c.token) == which.token_hash;
    if (which.other_tokens ? same : !same) return;
    spdlog::info("{} signed out on {} ({})", c.account->name, p.address(), which.reason);
    drop_account(p);
    p.answer(std::make_shared<const std::string>(
        protocol::json{{"type", "signed_out"}, {"reason", which.reason}}.dump()));
}

} // namespace felt::server::requests
