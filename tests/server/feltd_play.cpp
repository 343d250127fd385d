// The helpers the feltd tests share for playing at a table (feltd_play.h).
#include "server/feltd_play.h"

#include "server/fairness_check.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

namespace feltd_test {

// Card tokens of a card string ("Ah Kd" -> {"Ah", "Kd"}).
std::vector<std::string> tokens(const std::string& cards) {
    std::vector<std::string> out;
    std::istringstream in(cards);
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// `n` of `from`, chosen at random, as a card string.
std::string some(std::vector<std::string> from, int n, std::mt19937& rng) {
    std::shuffle(from.begin(), from.end(), rng);
    std::string out;
    for (int i = 0; i < n && i < static_cast<int>(from.size()); ++i)
        out += (i ? " " : "") + from[static_cast<std::size_t>(i)];
    return out;
}

// A bot's choice among the legal actions of an update's turn: mostly check or call, sometimes a
// minimum bet or raise, now and then a fold; in a draw, a random number of its cards within the
// limits; in a rollover, random face-down cards.
json random_action(const json& legal, const Sight& sight, std::mt19937& rng) {
    if (legal["phase"] == "drawing") {
        const int lo = legal["min_discard"].get<int>(), hi = legal["max_discard"].get<int>();
        int n = lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
        if (legal["stand_pat"] == true && rng() % 3 == 0) n = 0; // shrinking draw: stands pat
        return {{"action", "discard"}, {"cards", some(sight.own, n, rng)}};
    }
    if (legal["phase"] == "rollover")
        return {{"action", "rollover"},
                {"cards", some(sight.down, legal["rollover"].get<int>(), rng)}};
    const int roll = static_cast<int>(rng() % 10);
    if (legal["raise"] == true && roll == 0)
        return {{"action", "raise"}, {"amount", legal["min_to"]}};
    if (legal["bet"] == true && roll <= 1) return {{"action", "bet"}, {"amount", legal["min_to"]}};
    if (legal["check"] == true) return {{"action", "check"}};
    if (legal["fold"] == true && roll == 9) return {{"action", "fold"}};
    if (legal["call"] == true) return {{"action", "call"}};
    if (legal["bring_in"] == true) return {{"action", "bring_in"}};
    return {{"action", "fold"}};
}

// Plays until `hands` hands have ended, then leaves and reads on until its seat is gone. With
// `leave_on_turn`, it may instead leave on a turn of its last hand (a coin decides each turn),
// and the server acts for it from then on, in whatever phase the hand is.
BotReport play(Client& c, std::int64_t table, int seat, int hands, unsigned seed,
               bool leave_on_turn) {
    BotReport rep;
    std::mt19937 rng(seed);
    Sight sight;
    sight.seat = seat;
    bool leaving = false;
    int id = 1000;
    for (;;) {
        auto m = c.read();
        if (!m) {
            rep.errors.push_back("connection closed");
            break;
        }
        if ((*m)["type"] == "error") rep.errors.push_back((*m).dump());
        if ((*m)["type"] != "table") continue;
        const std::string kind = (*m)["kind"];
        sight.read(*m);
        if (kind == "update" && (*m).contains("turn") && (*m)["turn"].contains("legal") &&
            !leaving) {
            if (leave_on_turn && rep.hands == hands - 1 && rng() % 2 == 0) {
                leaving = true;
                c.send(json{{"type", "leave"}, {"id", ++id}, {"table", table}});
                continue;
            }
            json a = random_action((*m)["turn"]["legal"], sight, rng);
            a["type"] = "act";
            a["id"] = ++id;
            a["table"] = table;
            c.send(a);
            ++rep.actions;
        }
        if (kind == "hand_end") rep.hand_ids.push_back((*m)["hand_id"]);
        if (kind == "hand_end" && ++rep.hands == hands && !leaving) {
            leaving = true;
            c.send(json{{"type", "leave"}, {"id", ++id}, {"table", table}});
        }
        if (kind == "left" && (*m)["seat"] == seat) break;
    }
    rep.leaks = std::move(sight.leaks);
    rep.cards = sight.dealt;
    rep.reveals = sight.reveals;
    return rep;
}

// Reads on to the next lobby push.
json next_lobby(Client& c) {
    for (;;) {
        auto m = c.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] == "lobby") return *m;
    }
}

// Folds for whichever of two players is to act in the hand just dealt (the other is told it is not
// their turn), and reads both on to the hand's end: the end.
json fold_first(Client& a, Client& b, std::int64_t table) {
    const json fold = {{"type", "act"}, {"table", table}, {"action", "fold"}};
    const json tried = a.call(fold);
    if (!tried.value("ok", false)) { // a refusal has no "ok"
        CHECK(tried["code"] == "not_your_turn");
        REQUIRE(b.call(fold)["ok"] == true);
    }
    next_kind(b, "hand_end");
    return next_kind(a, "hand_end");
}

void hand_running(Client& c) {
    for (;;) {
        auto m = c.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] != "table") continue;
        if ((*m)["kind"] == "hand_start") return;
        if ((*m)["kind"] == "snapshot" && m->contains("hand") && (*m)["hand"].is_object()) return;
    }
}

} // namespace feltd_test
