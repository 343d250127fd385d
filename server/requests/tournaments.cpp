// The tournament family: a new tournament, the lobby of tournaments, one tournament's state, and
// registering and unregistering (tournaments/tournament.h). The entry's chips move in storage
// first (Store::enter_tournament, leave_tournament); the tournament hears of it once written.
#include "requests/answer.h"
#include "requests/router.h"
#include "tournaments/tournament.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <set>

namespace felt::server::requests {

namespace {

std::int64_t now_s() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void on_create_tournament(Peer& p, const protocol::Request& r) {
    SharedState& state = p.state();
    if (state.stopping()) return refuse(p, r.id, "stopping", "the server is shutting down");
    auto decoded = protocol::decode_tournament_config(r.body, now_s());
    if (!decoded.ok()) return refuse(p, r.id, decoded.refusal);
    if (decoded.value->seed && !state.services().chosen_decks)
        return refuse(p, r.id, "not_testing",
                      "a tournament's seed is for tests: this server was not started with "
                      "--chosen-decks");
    const Account creator = *p.client.account;
    std::string text = decoded.value->to_json().dump(); // before the configuration moves below
    stored(
        p, r, Access::write,
        [text = std::move(text), creator = creator.id,
         guarantee = decoded.value->guarantee](Store& s) {
            auto made = s.create_tournament(text, creator, guarantee);
            const auto* refused = std::get_if<Refusal>(&made);
            if (refused) return std::make_tuple(std::int64_t{0}, std::optional(*refused), Chips());
            const auto found = s.find_account(creator);
            return std::make_tuple(std::get<std::int64_t>(made), std::optional<Refusal>(),
                                   found ? found->balance : Chips());
        },
        [self = p.keep(), r, config = std::move(*decoded.value),
         creator](std::tuple<std::int64_t, std::optional<Refusal>, Chips> done) {
            const auto& [id, refused, balance] = done;
            if (refused) {
                Refusal why = *refused;
                why.message = "a guarantee of " + std::to_string(config.guarantee.value()) +
                              " chips is more than your balance";
                why.field = "guarantee";
                return refuse(*self, r.id, why);
            }
            if (config.guarantee > 0) self->state().balance_changed(creator.id, balance);
            auto t = std::make_shared<Tournament>(id, config, creator.id, creator.name,
                                                  self->state().services(),
                                                  self->state().tournament_outlet());
            self->state().tournaments().add(t);
            t->arm_start();
            spdlog::info("{} created tournament {} ({} {} {}, {} seats)", creator.name, id,
                         config.format, config.structure, config.variant, config.seats);
            reply(*self, r, {{"tournament", id}, {"config", config.to_json()}});
        });
}

// The lobby of tournaments: this node's, and on a cluster the other nodes' too (each with its
// node's `url`), newest first.
void on_tournaments(Peer& p, const protocol::Request& r) {
    json lines = p.state().tournaments().lines();
    if (!p.state().clustered()) return reply(p, r, {{"tournaments", lines}});
    stored(
        p, r, Access::read, [](Store& s) { return s.tournaments_elsewhere(); },
        [self = p.keep(), r, lines = std::move(lines)](std::vector<TournamentElsewhere> rows) {
            json all = lines;
            std::set<std::int64_t> here; // (a reader's store may not know which node it is on)
            for (const json& line : lines) here.insert(line["tournament"].get<std::int64_t>());
            for (const TournamentElsewhere& t : rows) {
                if (here.count(t.id)) continue;
                const auto config =
                    protocol::decode_tournament_config(json::parse(t.config, nullptr, false), 0);
                if (!config.ok()) continue; // not written by feltd
                json line = tournament_line(t.id, *config.value, t.status,
                                            static_cast<std::size_t>(t.entrants), t.creator_name);
                line["url"] = t.url;
                all.push_back(std::move(line));
            }
            std::stable_sort(all.begin(), all.end(), [](const json& a, const json& b) {
                return a["tournament"].get<std::int64_t>() > b["tournament"].get<std::int64_t>();
            });
            reply(*self, r, {{"tournaments", all}});
        });
}

// The tournament the request names, or a refusal (and null). On a cluster, a tournament another
// node hosts is a `moved` refusal with its address (the client signs in there and asks again),
// given by `elsewhere`, once storage has said.
std::shared_ptr<Tournament> named(Peer& p, const protocol::Request& r) {
    const auto id = protocol::integer_field(r, "tournament", std::nullopt, 1);
    if (!id.ok()) {
        refuse(p, r.id, id.refusal);
        return nullptr;
    }
    auto t = p.state().tournaments().find(*id.value);
    if (t) return t;
    const std::int64_t which = *id.value;
    auto none = [which](Peer& to, const protocol::Request& req) {
        refuse(to, req.id, "no_such_tournament", "there is no tournament " + std::to_string(which));
    };
    if (!p.state().clustered()) {
        none(p, r);
        return nullptr;
    }
    stored(
        p, r, Access::read, [which](Store& s) { return s.node_url_of_tournament(which); },
        [self = p.keep(), r, which, none](std::optional<std::string> url) {
            if (!url) return none(*self, r);
            refuse(*self, r.id,
                   {"moved",
                    "tournament " + std::to_string(which) + " is on another node: connect to " +
                        *url + ", sign in with your token and ask again",
                    "", *url});
        });
    return nullptr;
}

void on_tournament(Peer& p, const protocol::Request& r) {
    if (auto t = named(p, r)) reply(p, r, {{"tournament", t->view()}});
}

// A purchase in a running tournament's entry period, answered once written.
void buy(Peer& p, const protocol::Request& r, const std::shared_ptr<Tournament>& t,
         Tournament::Purchase what) {
    const Account a = *p.client.account;
    t->buy(a, what, [self = p.keep(), r, id = t->id(), a](protocol::Outcome<Chips> done) {
        net::post(self->strand(), [self, r, id, a, done] {
            if (!done.ok()) return refuse(*self, r.id, done.refusal);
            reply(*self, r, {{"tournament", id}, {"balance", *done.value}});
            self->state().balance_changed(a.id, *done.value);
        });
    });
}

void on_register(Peer& p, const protocol::Request& r) {
    auto t = named(p, r);
    if (!t) return;
    if (!t->registering()) return buy(p, r, t, Tournament::Purchase::enter); // late
    const Account a = *p.client.account;
    const protocol::TournamentConfig& c = t->config();
    stored(
        p, r, Access::write,
        [id = t->id(), a, buy_in = c.buy_in, fee = c.fee, most = c.max_entrants](Store& s) {
            auto refused = s.enter_tournament(id, a.id, buy_in, fee, most);
            auto found = refused ? std::nullopt : s.find_account(a.id);
            return std::make_pair(std::move(refused), found ? found->balance : Chips());
        },
        [self = p.keep(), r, t, a](std::pair<std::optional<Refusal>, Chips> done) {
            if (done.first) return refuse(*self, r.id, *done.first);
            t->registered(a);
            reply(*self, r, {{"tournament", t->id()}, {"balance", done.second}});
            self->state().balance_changed(a.id, done.second);
        });
}

void on_unregister(Peer& p, const protocol::Request& r) {
    auto t = named(p, r);
    if (!t) return;
    const Account a = *p.client.account;
    stored(
        p, r, Access::write,
        [id = t->id(), a](Store& s) {
            auto refused = s.leave_tournament(id, a.id);
            auto found = refused ? std::nullopt : s.find_account(a.id);
            return std::make_pair(std::move(refused), found ? found->balance : Chips());
        },
        [self = p.keep(), r, t, a](std::pair<std::optional<Refusal>, Chips> done) {
            if (done.first) return refuse(*self, r.id, *done.first);
            t->unregistered(a.id);
            reply(*self, r, {{"tournament", t->id()}, {"balance", done.second}});
            self->state().balance_changed(a.id, done.second);
        });
}

void on_reenter(Peer& p, const protocol::Request& r) {
    if (auto t = named(p, r)) buy(p, r, t, Tournament::Purchase::reenter);
}

void on_rebuy(Peer& p, const protocol::Request& r) {
    if (auto t = named(p, r)) buy(p, r, t, Tournament::Purchase::rebuy);
}

void on_add_on(Peer& p, const protocol::Request& r) {
    if (auto t = named(p, r)) buy(p, r, t, Tournament::Purchase::add_on);
}

// A deal among the players still in: propose (by "icm" or "chips"), accept or decline.
void on_deal(Peer& p, const protocol::Request& r) {
    auto t = named(p, r);
    if (!t) return;
    const auto action = protocol::string_field(r, "action", 1, 16);
    if (const auto* no = std::get_if<protocol::Refusal>(&action)) return refuse(p, r.id, *no);
    const std::string& a = std::get<std::string>(action);
    using Answer = Tournament::DealAnswer;
    const std::optional<Answer> answer = a == "propose"   ? std::optional(Answer::propose)
                                         : a == "accept"  ? std::optional(Answer::accept)
                                         : a == "decline" ? std::optional(Answer::decline)
                                                          : std::nullopt;
    if (!answer)
        return refuse(
            p, r.id,
            {"bad_request", "action must be \"propose\", \"accept\" or \"decline\"", "action"});
    auto method = tournament::DealMethod::icm;
    if (*answer == Answer::propose) {
        const auto named_method = protocol::string_field(r, "method", 1, 16);
        const auto* m = std::get_if<std::string>(&named_method);
        const auto parsed = m ? tournament::parse_deal_method(*m) : std::nullopt;
        if (!parsed)
            return refuse(p, r.id,
                          {"bad_request", "method must be \"icm\" or \"chips\"", "method"});
        method = *parsed;
    }
    auto done = t->deal(p.client.account->id, *answer, method);
    if (!done.ok()) return refuse(p, r.id, done.refusal);
    reply(p, r, {{"tournament", t->id()}, {"deal", *done.value}});
}

} // namespace

void add_tournament_requests(Routes& routes) {
    routes.insert({
        {"create_tournament", {Needs::account, on_create_tournament}},
        {"tournaments", {Needs::account, on_tournaments}},
        {"tournament", {Needs::account, on_tournament}},
        {"tournament_register", {Needs::account, on_register}},
        {"tournament_unregister", {Needs::account, on_unregister}},
        {"tournament_deal", {Needs::account, on_deal}},
        {"tournament_reenter", {Needs::account, on_reenter}},
        {"tournament_rebuy", {Needs::account, on_rebuy}},
        {"tournament_add_on", {Needs::account, on_add_on}},
    });
}

} // namespace felt::server::requests
