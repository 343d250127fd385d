// The accounts family: hello and ping, then signing in (register, login, guest, resume), who the
// client is (me), and signing out or changing the password. Passwords are hashed and checked on
// the worker pool (Argon2id is slow on purpose), each address in its turn; the answers come back
// on the connection's strand.
#include "requests/answer.h"
#include "requests/router.h"
#include "tables/table.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <limits>

namespace felt::server::requests {

namespace {

// How long a password check waits once its account has had its share of checks
// (SharedState::checks_by_name): a delay, never a refusal, so that nobody can lock an owner out.
constexpr std::chrono::seconds kAccountPause{2};

std::string lowercase(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

void on_hello(Peer& p, const protocol::Request& r) {
    auto v = r.body.find("version");
    if (v == r.body.end() || !v->is_number_integer())
        return refuse(p, r.id, "bad_request", "\"hello\" needs an integer \"version\"");
    if (*v != protocol::kVersion)
        return refuse(p, r.id, "unsupported_version",
                      "this server speaks protocol version " + std::to_string(protocol::kVersion) +
                          ", not " + v->dump());
    p.client.hello = true;
    protocol::json fields{{"version", protocol::kVersion}, {"server", "feltd " FELT_VERSION}};
    if (p.state().config().chosen_decks) fields["chosen_decks"] = true; // a test server
    if (!p.state().config().table_stats) fields["table_stats"] = false; // --no-table-stats
    reply(p, r, std::move(fields));
}

// A sign-in may start: not signed in already, and no other sign-in being checked.
bool may_sign_in(Peer& p, const protocol::Request& r) {
    if (p.client.account) {
        refuse(p, r.id, "already_signed_in", "this connection is signed in");
        return false;
    }
    if (p.client.busy) {
        refuse(p, r.id, "busy", "a sign-in is already being checked");
        return false;
    }
    return true;
}

// Refuses (too_many_accounts) when this address has made its new accounts for the hour.
bool may_make_account(Peer& p, const protocol::Request& r) {
    if (p.state().new_accounts().take(p.address(), std::chrono::steady_clock::now())) return true;
    refuse(p, r.id, "too_many_accounts",
           "this address has made " + std::to_string(p.state().config().accounts_per_hour) +
               " accounts in the last hour; sign in to one of them");
    return false;
}

// Password checks (sign-in, registration, a new password): each is counted by address (refused,
// too_many_attempts, over the limit) and by account name (over the limit, it waits kAccountPause
// first), then runs in this address's turn on the workers (refused, busy, when the address has
// too many waiting).
bool may_check_password(Peer& p, const protocol::Request& r) {
    if (p.state().checks_by_address().take(p.address(), std::chrono::steady_clock::now()))
        return true;
    refuse(p, r.id, "too_many_attempts",
           "too many password checks from this address; try again in a minute");
    return false;
}

void after_account_pause(Peer& p, const std::string& name, std::function<void()> then) {
    if (p.state().checks_by_name().take(name, std::chrono::steady_clock::now())) return then();
    auto pause = std::make_shared<net::steady_timer>(p.strand(), kAccountPause);
    pause->async_wait([pause, then = std::move(then)](error_code) { then(); });
}

void hash_in_turn(Peer& p, const protocol::Request& r, std::function<void()> job) {
    if (p.state().password_checks().submit(p.address(), std::move(job))) return;
    p.client.busy = false;
    refuse(p, r.id, "busy",
           "this address has " + std::to_string(SharedState::kMostWaitingChecks) +
               " password checks waiting; try again shortly");
}

// The sign-in's reply (with the seats held on other nodes), then the seats held here, each with a
// snapshot after the reply.
void welcome(Peer& p, const protocol::Request& r, const Account& a, const std::string& token,
             const std::vector<SeatElsewhere>& elsewhere) {
    p.client.account = a;
    p.client.token = token;
    spdlog::info("{} signed in as {}{}", p.address(), a.name, a.guest ? " (guest)" : "");
    protocol::json fields = {
        {"account", {{"id", a.id}, {"name", a.name}, {"guest", a.guest}, {"balance", a.balance}}},
        {"token", token}};
    if (!elsewhere.empty()) {
        auto& list = fields["elsewhere"] = protocol::json::array();
        for (const SeatElsewhere& s : elsewhere)
            list.push_back({{"table", s.table}, {"url", s.url}});
    }
    reply(p, r, std::move(fields));
    Lobby& lobby = p.state().lobby();
    for (std::int64_t id : lobby.seats_of(a.id))
        if (auto t = lobby.find(id)) {
            p.client.tables.insert(id);
            t->attach(p.keep(), a);
        }
}

void signed_in(Peer& p, const protocol::Request& r, const Account& a, const std::string& token) {
    // Several nodes: a returning player is told of the seats it holds at other nodes' tables
    // (`elsewhere`), to go there. A lookup that fails costs only that list.
    if (p.state().clustered() && (r.type == "resume" || r.type == "login")) {
        p.client.busy = true; // still signing in
        return p.state().storage().read(
            [id = a.id](Store& s) { return s.seats_elsewhere(id); }, p.strand(),
            [self = p.keep(), r, a, token](std::optional<std::vector<SeatElsewhere>> e) {
                self->client.busy = false;
                welcome(*self, r, a, token, e.value_or(std::vector<SeatElsewhere>{}));
            });
    }
    welcome(p, r, a, token, {});
}

// Register or log in: the password is hashed or checked on the worker pool, in this address's
// turn, and the session opened in storage.
void log_in(Peer& p, const protocol::Request& r, bool create) {
    if (!may_sign_in(p, r)) return;
    // Any length (the frame limit bounds it): a name too long is a bad name, or no account.
    auto name = protocol::string_field(r, "name", 0, std::numeric_limits<std::size_t>::max());
    if (auto* e = std::get_if<protocol::Refusal>(&name)) return refuse(p, r.id, *e);
    auto password = protocol::string_field(r, "password", 0, 1024);
    if (auto* e = std::get_if<protocol::Refusal>(&password)) return refuse(p, r.id, *e);
    if (create) {
        if (auto bad = check_name(std::get<std::string>(name))) return refuse(p, r.id, *bad);
        if (auto bad = check_password(std::get<std::string>(password)))
            return refuse(p, r.id, *bad);
        if (!may_make_account(p, r)) return;
    }
    // Failed sign-ins make the name, and the address, wait (limits.h). A name that has no account
    // counts as one that has.
    const std::string key = lowercase(std::get<std::string>(name).substr(0, 32));
    if (!create) {
        const auto now = std::chrono::steady_clock::now();
        const auto wait = std::max(p.state().name_failures().wait(key, now),
                                   p.state().address_failures().wait(p.address(), now));
        if (wait.count() > 0)
            return refuse(p, r.id, "too_many_attempts",
                          "too many failed sign-ins for this name or from this address; try "
                          "again in " +
                              std::to_string((wait.count() + 999) / 1000) + " s");
    }
    if (!may_check_password(p, r)) return;
    p.client.busy = true;
    auto self = p.keep();
    std::string who = std::get<std::string>(name), secret = std::get<std::string>(password);
    auto done = [self, r, key, create](std::pair<Outcome<Account>, std::string> out) {
        SharedState& state = self->state();
        if (!create && !out.first.ok() && out.first.refusal.code == "unauthorized") {
            const auto now = std::chrono::steady_clock::now();
            state.name_failures().fail(key, now);
            state.address_failures().fail(self->address(), now);
        }
        if (!out.first.ok()) return refuse(*self, r.id, out.first.refusal);
        if (!create) state.name_failures().succeed(key);
        signed_in(*self, r, *out.first.value, out.second);
    };
    // A new account and its first session, in one unit of work.
    auto open = [](Outcome<Account> out) {
        return [out](Store& s) {
            std::string token;
            if (out.ok()) token = s.open_session(out.value->id);
            return std::pair{out, token};
        };
    };
    if (create) {
        after_account_pause(p, key, [self, r, who, secret, done, open] {
            hash_in_turn(*self, r, [self, r, who, secret, done, open] {
                std::string hash = hash_password(secret);
                stored(
                    *self, r, Access::sign_in,
                    [who, hash, open](Store& s) { return open(s.create_account(who, hash))(s); },
                    done);
            });
        });
        return;
    }
    // The hash is read, then checked on the worker pool in this address's turn, then the session
    // opened.
    after_account_pause(p, key, [self, r, who, secret, done, open] {
        self->state().storage().read(
            [who](Store& s) { return s.find_with_hash(who); }, self->strand(),
            [self, r, secret, done, open](auto found) {
                if (!found) {
                    self->client.busy = false;
                    return refuse(*self, r.id, "internal",
                                  "the server could not complete this request");
                }
                hash_in_turn(*self, r, [self, r, secret, done, open, found] {
                    // A name with no account costs the same check as one with a wrong password,
                    // and gets the same answer: nobody learns which names exist.
                    Outcome<Account> out;
                    if (*found ? verify_password((*found)->second, secret)
                               : (verify_password(no_account_hash(), secret), false))
                        out.value = (*found)->first;
                    else
                        out.refusal = {"unauthorized", "wrong name or password"};
                    stored(*self, r, Access::sign_in, open(out), done);
                });
            });
    });
}

void on_guest(Peer& p, const protocol::Request& r) {
    if (!may_sign_in(p, r) || !may_make_account(p, r)) return;
    p.client.busy = true;
    stored(
        p, r, Access::sign_in,
        [](Store& s) {
            auto made = s.create_guest();
            return std::pair{*made.value, s.open_session(made.value->id)};
        },
        [self = p.keep(), r](std::pair<Account, std::string> made) {
            signed_in(*self, r, made.first, made.second);
        });
}

void on_resume(Peer& p, const protocol::Request& r) {
    if (!may_sign_in(p, r)) return;
    auto token = protocol::string_field(r, "token", 1, 256);
    if (auto* e = std::get_if<protocol::Refusal>(&token)) return refuse(p, r.id, *e);
    p.client.busy = true;
    stored(
        p, r, Access::sign_in, [t = std::get<std::string>(token)](Store& s) { return s.resume(t); },
        [self = p.keep(), r, t = std::get<std::string>(token)](Outcome<Account> found) {
            if (!found.ok()) return refuse(*self, r.id, found.refusal);
            signed_in(*self, r, *found.value, t);
        });
}

void on_me(Peer& p, const protocol::Request& r) {
    stored(
        p, r, Access::read, [id = p.client.account->id](Store& s) { return s.find_account(id); },
        [self = p.keep(), r](std::optional<Account> a) {
            auto& account = self->client.account;
            if (!account) return refuse(*self, r.id, "unauthorized", "signed out meanwhile");
            if (a) account = *a;
            reply(*self, r,
                  {{"account",
                    {{"id", account->id},
                     {"name", account->name},
                     {"guest", account->guest},
                     {"balance", account->balance}}}});
        });
}

// Revokes this connection's token, or with "everywhere" every token of the account, and signs
// out every connection signed in with what was revoked.
void on_logout(Peer& p, const protocol::Request& r) {
    auto everywhere = protocol::bool_field(r, "everywhere", false);
    if (!everywhere.ok()) return refuse(p, r.id, everywhere.refusal);
    const bool all = *everywhere.value;
    stored(
        p, r, Access::write,
        [t = p.client.token, id = p.client.account->id, all](Store& s) {
            if (all)
                s.revoke_all(id, "");
            else
                s.revoke(t);
            return true;
        },
        [self = p.keep(), r, all](bool) {
            const ClientState& c = self->client;
            if (!c.account) return reply(*self, r); // signed out meanwhile
            spdlog::info("{} signed out{}", c.account->name, all ? " everywhere" : "");
            self->state().sign_out({c.account->id, all ? "" : token_hash(c.token), all},
                                   self.get());
            drop_account(*self);
            reply(*self, r);
        });
}

// A new password, once the current one checks out (failures count as failed sign-ins); every
// other token of the account is revoked and its connections signed out. This one stays in.
void on_change_password(Peer& p, const protocol::Request& r) {
    if (p.client.account->guest)
        return refuse(p, r.id, "no_password", "a guest account has no password to change");
    if (p.client.busy) return refuse(p, r.id, "busy", "a sign-in is already being checked");
    auto old_password = protocol::string_field(r, "password", 0, 1024);
    if (auto* e = std::get_if<protocol::Refusal>(&old_password)) return refuse(p, r.id, *e);
    auto new_password = protocol::string_field(r, "new_password", 0, 1024);
    if (auto* e = std::get_if<protocol::Refusal>(&new_password)) return refuse(p, r.id, *e);
    if (auto bad = check_password(std::get<std::string>(new_password)))
        return refuse(p, r.id, *bad);
    const std::string key = lowercase(p.client.account->name);
    if (p.state().name_failures().wait(key, std::chrono::steady_clock::now()).count() > 0)
        return refuse(p, r.id, "too_many_attempts",
                      "too many failed password checks for this account; try again later");
    if (!may_check_password(p, r)) return;
    p.client.busy = true;
    auto self = p.keep();
    // Signed out meanwhile: the check ends there.
    auto gone = [](Peer& s, const protocol::Request& r) {
        if (s.client.account) return false;
        s.client.busy = false;
        refuse(s, r.id, "unauthorized", "signed out meanwhile");
        return true;
    };
    auto check = [self, r, key, gone, old = std::get<std::string>(old_password),
                  fresh = std::get<std::string>(new_password)](auto found) {
        hash_in_turn(*self, r, [self, r, key, gone, found, old, fresh] {
            const bool ok = found && *found && verify_password((*found)->second, old);
            std::string hash = ok ? hash_password(fresh) : std::string();
            net::post(self->strand(), [self, r, key, gone, ok, hash = std::move(hash)] {
                if (!ok) {
                    self->client.busy = false;
                    self->state().name_failures().fail(key, std::chrono::steady_clock::now());
                    return refuse(*self, r.id, "unauthorized", "the password is wrong");
                }
                if (gone(*self, r)) return;
                stored(
                    *self, r, Access::sign_in,
                    [id = self->client.account->id, hash, keep = self->client.token](Store& s) {
                        s.change_password(id, hash, keep);
                        return true;
                    },
                    [self, r](bool) {
                        const ClientState& c = self->client;
                        if (!c.account) return reply(*self, r);
                        spdlog::info("{} changed their password", c.account->name);
                        self->state().sign_out(
                            {c.account->id, token_hash(c.token), true, "password_changed"},
                            self.get());
                        reply(*self, r);
                    });
            });
        });
    };
    after_account_pause(p, key, [self, r, gone, check = std::move(check)] {
        if (gone(*self, r)) return;
        self->state().storage().read(
            [name = self->client.account->name](Store& s) { return s.find_with_hash(name); },
            self->strand(), check);
    });
}

} // namespace

void add_account_requests(Routes& routes) {
    using N = Needs;
    routes.insert({
        {"hello", {N::nothing, on_hello}},
        {"ping", {N::hello, [](Peer& p, const protocol::Request& r) { reply(p, r); }}},
        {"register", {N::hello, [](Peer& p, const protocol::Request& r) { log_in(p, r, true); }}},
        {"login", {N::hello, [](Peer& p, const protocol::Request& r) { log_in(p, r, false); }}},
        {"guest", {N::hello, on_guest}},
        {"resume", {N::hello, on_resume}},
        {"me", {N::account, on_me}},
        {"logout", {N::account, on_logout}},
        {"change_password", {N::account, on_change_password}},
    });
}

} // namespace felt::server::requests
