// Integration: an open-face table on a real feltd. A chosen deck sends one player to Fantasyland
// with a pair of queens in front; the next hand deals them 14 cards at once, the button held, and
// they set last, face down. Refusals change nothing, the clock places for a player who sleeps,
// hints place the rest; a spectator sees no discard and no Fantasyland row before the end, the
// fairness reveal opens a discard to its owner alone, each hand settles again in the engine, and
// the history replays it.
#include "cards/deck.h"
#include "openface/openface.h"
#include "server/fairness_check.h"
#include "server/feltd_harness.h"

#include <deque>
#include <map>
#include <set>

using namespace feltd_test;

namespace {

#ifdef FELT_SANITIZE
constexpr int kDecisionMs = 20'000; // the bot's rollouts run ten times slower
#else
constexpr int kDecisionMs = 4'000;
#endif

const felt::Deck& pack() {
    static const felt::Deck d = felt::Deck::standard();
    return d;
}

std::multiset<std::string> card_set(const std::string& text) {
    auto c = pack().parse_cards(text);
    REQUIRE(c.ok());
    std::multiset<std::string> out;
    for (felt::Card k : *c) out.insert(pack().to_string(k));
    return out;
}

// A connection that keeps the table messages a request's reply overtakes.
struct Player {
    Player(Client& client, std::int64_t t, int s) : c(client), table(t), seat(s) {}
    Client& c;
    std::int64_t table = 0;
    int seat = -1;
    std::deque<json> queued;
    std::vector<json> seen; // every table message, in order
    int id = 100;

    json call(json req) {
        req["id"] = ++id;
        if (!req.contains("table")) req["table"] = table;
        c.send(req);
        for (;;) {
            auto m = c.read();
            REQUIRE(m.has_value());
            if ((*m)["type"] == "table") {
                queued.push_back(*m);
                seen.push_back(*m);
            } else if ((*m).contains("id") && (*m)["id"] == id) {
                return *m;
            }
        }
    }
    json next(const std::string& kind) {
        for (;;) {
            json m;
            if (!queued.empty()) {
                m = queued.front();
                queued.pop_front();
            } else {
                auto r = c.read();
                REQUIRE(r.has_value());
                if ((*r)["type"] != "table") continue;
                m = *r;
                seen.push_back(m);
            }
            if (m["kind"] == kind) return m;
        }
    }
    // The next table message of any kind.
    json next_any() {
        if (!queued.empty()) {
            json m = queued.front();
            queued.pop_front();
            return m;
        }
        for (;;) {
            auto r = c.read();
            REQUIRE(r.has_value());
            if ((*r)["type"] != "table") continue;
            seen.push_back(*r);
            return *r;
        }
    }
    // The next turn of this seat.
    json my_turn() {
        for (;;) {
            json t = next("open_face_turn");
            if (t["seat"] == seat) return t;
        }
    }
    // The hint's placement, sent.
    void play_hint() {
        const json h = call({{"type", "hint"}});
        REQUIRE(h["ok"] == true);
        json act = h["placement"];
        act["type"] = "act";
        REQUIRE(call(act)["ok"] == true);
    }
};

// The hand's rows settled again with the engine: the nets must be the server's.
void check_settlement(const json& deal, const json& end) {
    std::vector<felt::openface::Player> players;
    for (const json& r : end["rows"]) {
        felt::openface::Player p;
        p.name = r["seat"].dump();
        p.stack = deal["stacks"][r["seat"].get<std::size_t>()].get<felt::Chips>();
        auto fill = [&](const char* row, std::span<felt::Card> out) {
            auto cards = pack().parse_cards(r[row].get<std::string>());
            REQUIRE(cards.ok());
            REQUIRE(cards->size() == out.size());
            std::copy(cards->begin(), cards->end(), out.begin());
        };
        fill("front", p.split.front);
        fill("middle", p.split.middle);
        fill("back", p.split.back);
        p.fantasyland = r["fantasyland"];
        players.push_back(p);
    }
    auto st = felt::openface::settle({}, players, static_cast<int>(players.size()) - 1);
    REQUIRE(st.ok());
    for (std::size_t k = 0; k < players.size(); ++k) {
        const auto seat = end["rows"][k]["seat"].get<std::size_t>();
        CHECK(end["net"][seat].get<felt::Chips>() == st->net[k]);
        CHECK(end["points"][seat] == st->points[k]);
    }
}

} // namespace

TEST_CASE("feltd open-face: a hand to Fantasyland, the Fantasyland hand after it, refusals, "
          "a time-out, what a spectator sees, the reveal and the history") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    {
        Feltd d({"--chosen-decks"}, dir);
        Client ca(d.port()), cb(d.port()), cw(d.port());
        for (Client* c : {&ca, &cb, &cw}) {
            c->hello();
            REQUIRE(c->call({{"type", "guest"}})["ok"] == true);
        }
        // Configurations the game cannot deal.
        auto create = [&](json extra) {
            json r = {{"type", "create_table"}, {"game", "open-face"}};
            r.update(extra);
            return ca.call(r);
        };
        CHECK(create({{"variant", "crazy"}})["code"] == "bad_config");
        CHECK(create({{"seats", 4}})["code"] == "bad_config"); // pineapple seats three
        CHECK(create({{"variant", "classic"}, {"seats", 4}, {"progressive", true}})["code"] ==
              "bad_config");
        CHECK(create({{"stay", "loose"}})["code"] == "bad_config");
        CHECK(create({{"chip_limit", false}, {"min_buy_in", 50}})["code"] == "bad_config");
        const json classic = create({{"variant", "classic"}});
        REQUIRE(classic["ok"] == true);
        CHECK(classic["config"]["seats"] == 4);

        const json made =
            create({{"seats", 2}, {"hand_delay_ms", 0}, {"decision_ms", kDecisionMs}});
        REQUIRE(made["ok"] == true);
        const std::int64_t table = made["table"];
        Player a(ca, table, 0), b(cb, table, 1), w(cw, table, -1);
        REQUIRE(w.call({{"type", "spectate"}})["ok"] == true);
        // Seat 0 deals first; seat 1 acts first. Seat 1's cards, street by street, with seat 0's
        // between them.
        const std::string deck = "Qs Qh As Ad Ac  2h 3h 4h 5c 6c  Ks Kh 2c  7h 8h 9h  Kd 3c 4d  "
                                 "Th Jh 2d  5h 6h 7s  3d 5d 6d  8s 9s Ts  7d 8d 9d";
        REQUIRE(w.call({{"type", "choose_deck"}, {"cards", deck}})["ok"] == true);
        REQUIRE(a.call({{"type", "join"}, {"buy_in", 500}, {"seat", 0}})["ok"] == true);
        REQUIRE(b.call({{"type", "join"}, {"buy_in", 500}, {"seat", 1}})["ok"] == true);

        // Hand 1. Seat 1 places its queens in front, its aces in the back.
        const json deal1 = w.next("open_face_deal");
        CHECK(deal1["dealer"] == 0);
        CHECK(deal1["seats"] == json::array({1, 0}));
        const std::vector<json> plan = {
            {{"front", "Qs Qh"}, {"back", "As Ad Ac"}},
            {{"middle", "Ks Kh"}, {"discard", "2c"}},
            {{"middle", "Kd"}, {"front", "3c"}, {"discard", "4d"}},
            {{"middle", "5h"}, {"back", "6h"}, {"discard", "7s"}},
            {{"middle", "8s"}, {"back", "9s"}, {"discard", "Ts"}},
        };
        for (std::size_t street = 0; street < plan.size(); ++street) {
            CAPTURE(street);
            const json turn = b.my_turn();
            CHECK(turn["street"] == street);
            CHECK(turn["discards_due"] == (street == 0 ? 0 : 1));
            json act = plan[street];
            act["type"] = "act";
            REQUIRE(b.call(act)["ok"] == true);
            const json mine = a.my_turn();
            REQUIRE(mine.contains("cards"));
            if (street == 0) {
                // Refused, and nothing changes: another's card, a discard now, a row overfilled,
                // out of turn.
                CHECK(a.call({{"type", "act"}, {"back", "Qs 3h 4h 5c 6c"}})["code"] ==
                      "wrong_cards");
                CHECK(
                    a.call({{"type", "act"}, {"back", "2h 3h 4h 5c"}, {"discard", "6c"}})["code"] ==
                    "wrong_count");
                const json full =
                    a.call({{"type", "act"}, {"front", "2h 3h 4h 5c"}, {"back", "6c"}});
                CHECK(full["code"] == "row_full");
                CHECK(full["message"] == "the front has room for 3 cards, not 4");
                CHECK(b.call({{"type", "act"}, {"front", "2c"}})["code"] == "not_your_turn");
                // The engine's verdict on rows in progress: each row named, no foul yet.
                const json pv =
                    a.call({{"type", "preview"}, {"front", "3h 4h"}, {"back", "2h 5c 6c"}});
                REQUIRE(pv["ok"] == true);
                CHECK(pv["rows"]["front"] == json{{"words", "four high"}, {"royalty", 0}});
                CHECK(pv["foul"].is_null());
                CHECK(a.call({{"type", "preview"}, {"front", "Qs"}})["code"] == "wrong_cards");
                CHECK(a.call({{"type", "act"},
                              {"front", "2h"},
                              {"back", "3h 4h 5c 6c"},
                              {"bogus", 1}})["ok"] == true);
                continue;
            }
            if (street == 1) { // asleep: the clock places for seat 0
                const json p = a.next("open_face_placed");
                CHECK(p["seat"] == 0);
                CHECK(p["by"] == "server");
                continue;
            }
            a.play_hint();
        }
        const json end1 = w.next("open_face_end");
        check_settlement(deal1, end1);
        for (const json& r : end1["rows"])
            if (r["seat"] == 1) {
                CHECK(r["fouled"] == false);
                CHECK(r["royalties"] == json{{"front", 7}, {"middle", 2}, {"back", 0}});
                CHECK(r["words"]["front"] == "a pair of queens");
            }
        CHECK(end1["fantasyland"][0] == json{{"seat", 1}, {"cards", 14}});

        // Hand 2: seat 1 in Fantasyland, 14 cards at once; the button stays with seat 0.
        const json deal2 = w.next("open_face_deal");
        CHECK(deal2["dealer"] == 0);
        CHECK(deal2["fantasyland"] == json::array({{{"seat", 1}, {"cards", 14}}}));
        CHECK_FALSE(deal2.contains("cards"));
        const json own2 = b.next("open_face_deal");
        REQUIRE(own2.contains("cards"));
        CHECK(card_set(own2["cards"]).size() == 14);
        // A snapshot now (a reconnect's): the spectator sees seat 1 in Fantasyland, its rows face
        // down and no card of it; seat 1 gets its 14 cards back.
        REQUIRE(w.call({{"type", "snapshot"}})["ok"] == true);
        const json ws = w.next("snapshot");
        int fantasy_seats = 0;
        for (const json& s : ws["seats"])
            if (s["seat"] == 1) {
                ++fantasy_seats;
                CHECK(s.value("face_down", false) == true);
                CHECK(s["fantasyland"] == 14);
                CHECK(s["rows"] == json{{"front", ""}, {"middle", ""}, {"back", ""}});
            }
        CHECK(fantasy_seats == 1);
        CHECK_FALSE(ws["open_face"].contains("cards"));
        REQUIRE(b.call({{"type", "snapshot"}})["ok"] == true);
        const json bs = b.next("snapshot");
        CHECK(card_set(bs["open_face"]["cards"]) == card_set(own2["cards"]));
        for (int street = 0; street < 5; ++street) {
            a.my_turn();
            a.play_hint();
        }
        const json fl_turn = b.my_turn();
        CHECK(fl_turn["fantasyland"] == true);
        CHECK(fl_turn["discards_due"] == 1);
        const json h = b.call({{"type", "hint"}});
        REQUIRE(h["ok"] == true);
        CHECK(h["fantasyland"] == true);
        json act = h["placement"];
        act["type"] = "act";
        REQUIRE(b.call(act)["ok"] == true);
        const std::string discard = h["placement"]["discard"];
        const json end2 = w.next("open_face_end");
        check_settlement(deal2, end2);
        // The spectator and seat 0 saw the Fantasyland rows only at the end, and no discard ever.
        for (Player* p : {&w, &a})
            for (const json& m : p->seen) {
                if (m["kind"] == "open_face_end") continue;
                if (m.value("seat", -1) != p->seat) CHECK_FALSE(m.contains("discard"));
                if (m["kind"] == "open_face_placed" && m["seat"] == 1 && m["hand"] == 2) {
                    CHECK(m.value("face_down", false) == true);
                    CHECK_FALSE(m.contains("front"));
                }
                if (m.value("seat", -1) != p->seat) CHECK_FALSE(m.contains("cards"));
            }
        // The reveal: seat 1's discard opened to seat 1 alone.
        const auto fw = fairness_check::check(deal2["commitment"], end2["fairness"]);
        CHECK(fw.problems.empty());
        CHECK(fw.shown.size() == 13 * 2);
        CHECK(fw.shown.count(discard) == 0);
        const json end2b = b.next("open_face_end");
        const auto fb = fairness_check::check(deal2["commitment"], end2b["fairness"]);
        CHECK(fb.yours.count(discard) == 1);

        // The history: replayed by the engine; seat 1's cards and discards are its own.
        const json hist = a.call({{"type", "hand"}, {"hand", end2["hand_id"]}});
        REQUIRE(hist["ok"] == true);
        CHECK(hist["config"]["game"] == "open-face");
        CHECK(hist["replay"] == json{{"matches", true}});
        int ends = 0;
        for (const json& e : hist["events"]) {
            if (e.value("seat", -1) == 1 && e["kind"] != "open_face_end")
                CHECK_FALSE(e.contains("cards"));
            if (e["kind"] == "open_face_placed" && e.value("seat", -1) == 1)
                CHECK_FALSE(e.contains("front"));
            ends += e["kind"] == "open_face_end";
        }
        CHECK(ends == 1);
        REQUIRE(a.call({{"type", "leave"}})["ok"] == true);
        REQUIRE(b.call({{"type", "leave"}})["ok"] == true);
        CHECK(d.stop(SIGTERM) == 0);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd open-face: two house bots and a person over many hands, Pineapple and classic; "
          "nobody is shown a discard or a Fantasyland row that is not theirs, and every hand "
          "settles as the engine does") {
    for (const std::string variant : {"pineapple", "classic"}) {
        CAPTURE(variant);
#ifdef FELT_SANITIZE
        const int kHands = variant == "classic" ? 2 : 3;
#else
        const int kHands = variant == "classic" ? 6 : 12;
#endif
        char tmpl[] = "/tmp/feltd_test_XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        const std::string dir = tmpl;
        {
            Feltd d({"--bot-think-min-ms", "0", "--bot-think-max-ms", "0"}, dir);
            Client cp(d.port()), cw(d.port());
            for (Client* c : {&cp, &cw}) {
                c->hello();
                REQUIRE(c->call({{"type", "guest"}})["ok"] == true);
            }
            const json made = cp.call({{"type", "create_table"},
                                       {"game", "open-face"},
                                       {"variant", variant},
                                       {"hand_delay_ms", 0},
                                       {"decision_ms", kDecisionMs},
                                       {"bots", {{"seats", 2}, {"level", "fair"}}}});
            REQUIRE(made["ok"] == true);
            const std::int64_t table = made["table"];
            Player w(cw, table, -1);
            REQUIRE(w.call({{"type", "spectate"}})["ok"] == true);
            const json joined = cp.call({{"type", "join"}, {"table", table}, {"buy_in", 500}});
            REQUIRE(joined["ok"] == true);
            Player p(cp, table, joined["seat"]);
            // The person: the discards first, then the back, the middle and the front in turn.
            std::vector<json> deals, ends;
            std::set<int> fantasy_seats;
            std::map<std::string, int> room;
            while (static_cast<int>(ends.size()) < kHands) {
                const json m = p.next_any();
                if (m["kind"] == "open_face_deal") deals.push_back(m);
                if (m["kind"] == "open_face_end") ends.push_back(m);
                if (m["kind"] != "open_face_turn" || m["seat"] != p.seat) continue;
                auto cards = pack().parse_cards(m["cards"].get<std::string>());
                REQUIRE(cards.ok());
                std::vector<std::string> names;
                for (felt::Card c : *cards) names.push_back(pack().to_string(c));
                json act = {{"type", "act"}};
                std::size_t k = 0;
                std::string discard;
                for (int i = 0; i < m["discards_due"].get<int>(); ++i) discard += names[k++] + " ";
                act["discard"] = discard;
                // Room left, from the rows this seat has placed so far.
                if (m["street"] == 0 || m["fantasyland"] == true)
                    room = {{"back", 5}, {"middle", 5}, {"front", 3}};
                for (; k < names.size(); ++k)
                    for (const char* row : {"back", "middle", "front"})
                        if (room[row] > 0) {
                            --room[row];
                            act[row] = act.value(row, std::string()) + names[k] + " ";
                            break;
                        }
                REQUIRE(p.call(act)["ok"] == true);
            }
            // What the spectator and the person were told.
            for (Player* who : {&w, &p}) {
                std::set<int> face_down; // the hand's Fantasyland seats
                for (const json& m : who->seen) {
                    if (m["kind"] == "open_face_deal") {
                        face_down.clear();
                        for (const json& f : m["fantasyland"])
                            face_down.insert(f["seat"].get<int>());
                        fantasy_seats.insert(face_down.begin(), face_down.end());
                    }
                    if (m["kind"] == "open_face_end") continue;
                    const bool theirs = m.contains("seat") && m["seat"] == who->seat;
                    if (!theirs) {
                        CHECK_FALSE(m.contains("discard"));
                        CHECK_FALSE(m.contains("cards"));
                    }
                    if (m["kind"] == "open_face_placed" && face_down.count(m["seat"].get<int>()) &&
                        !theirs) {
                        CHECK(m.value("face_down", false) == true);
                        for (const char* row : {"front", "middle", "back"})
                            CHECK_FALSE(m.contains(row));
                    }
                }
            }
            // Each hand: the rows settle as the engine does, chips are conserved, and the reveal
            // opens the rows to everyone and nothing more.
            REQUIRE(deals.size() >= ends.size());
            for (std::size_t h = 0; h < ends.size(); ++h) {
                CAPTURE(h);
                check_settlement(deals[h], ends[h]);
                felt::Chips sum = 0;
                for (std::size_t s = 0; s < ends[h]["net"].size(); ++s)
                    sum += ends[h]["net"][s].get<felt::Chips>() +
                           ends[h]["rake"][s].get<felt::Chips>();
                CHECK(sum == 0);
                const auto f = fairness_check::check(deals[h]["commitment"], ends[h]["fairness"]);
                CHECK(f.problems.empty());
                std::multiset<std::string> rows;
                for (const json& r : ends[h]["rows"])
                    for (const char* row : {"front", "middle", "back"})
                        for (const std::string& c : card_set(r[row])) rows.insert(c);
                CHECK(f.shown == rows);
                CHECK(fairness_check::derivable(ends[h]["fairness"], f) == 0);
            }
            MESSAGE("Fantasyland seats seen: " << fantasy_seats.size());
            REQUIRE(cp.call({{"type", "leave"}, {"table", table}})["ok"] == true);
            CHECK(d.stop(SIGTERM) == 0);
        }
        std::filesystem::remove_all(dir);
    }
}
