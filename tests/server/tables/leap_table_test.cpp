// Integration: leap rummy tables on a real feltd. Players pursue, meld, extend, conjoin, discard
// and retire through the protocol; one tries a first meld in a leap another player holds, one
// sleeps until the clock retires it. Every message is checked for cards its reader may not see,
// every player's hand is tracked from what the server told it and checked against the public
// hand sizes, and every finished game is replayed by the engine from the record.
#include "leap/leap_game.h"
#include "protocol/leap_config.h"
#include "protocol/leap_messages.h"
#include "server/fairness_check.h"
#include "server/feltd_harness.h"
#include "storage/store.h"

#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace feltd_test;
namespace leap = felt::leap;
using felt::Card;

namespace {

// How one player behaves.
struct LeapPlan {
    int games = 1;         // leaves after this many games have ended, once it has seen a
    int max_games = 1;     // conjoin, or after max_games without
    int turns = 30;        // retires after this many turns of its own in a game
    bool sleep = false;    // never acts: the clock plays for it and retires it
    bool trespass = false; // tries a first meld in a leap another player holds, once
};

struct LeapReport {
    int games = 0;
    int conjoins = 0;   // its own
    int joins_seen = 0; // anyone's
    int melds = 0;
    int timed_out = 0;                 // actions the clock took for this player
    int reveals = 0;                   // games whose fairness reveal it checked
    std::vector<std::string> refusals; // codes of the errors it was meant to get
    std::vector<std::string> problems; // anything else that went wrong
};

struct OwnMeld {
    int leap = 0;
    std::vector<Card> cards; // in sequence order
};

class LeapPlayer {
  public:
    LeapPlayer(Client& c, std::int64_t table, int seat, LeapPlan plan, std::uint32_t seed)
        : c_(c), table_(table), seat_(seat), plan_(plan), rng_(seed) {}

    LeapReport play() {
        for (;;) {
            auto m = c_.read();
            if (!m) {
                rep_.problems.push_back("connection closed");
                return rep_;
            }
            if (!handle(*m)) return rep_;
        }
    }

  private:
    std::string text(const std::vector<Card>& cards) const { return t_->deck().to_string(cards); }
    // (No REQUIRE here: it runs on the player's thread.)
    std::vector<Card> parse(const json& v) {
        auto cards = t_->deck().parse_cards(v.is_string() ? v.get<std::string>() : "?");
        if (cards.ok()) return cards.value();
        rep_.problems.push_back("unreadable cards: " + v.dump());
        return {};
    }
    void drop(const std::vector<Card>& cards) {
        for (Card c : cards) {
            auto it = std::find(hand_.begin(), hand_.end(), c);
            if (it == hand_.end())
                rep_.problems.push_back("played a card it does not hold: " +
                                        t_->deck().to_string(c));
            else
                hand_.erase(it);
        }
    }
    int request(json j) {
        j["id"] = ++id_;
        j["table"] = table_;
        c_.send(j);
        return id_;
    }
    // A card of this suit class and rank in hand.
    std::optional<Card> holding(int suit, int rank, const std::vector<Card>& except = {}) const {
        for (Card c : hand_)
            if (!c.is_joker() && c.rank().index() == rank && t_->suit_class(c) == suit &&
                std::find(except.begin(), except.end(), c) == except.end())
                return c;
        return std::nullopt;
    }
    // Three cards in hand running along `leap`, preferring a suit it already melds in (for
    // conjoins later) and never touching one of its own melds.
    std::optional<std::vector<Card>> run_of_three(int leap) const {
        std::optional<std::vector<Card>> best;
        for (int suit = 0; suit < 4; ++suit)
            for (int start = 0; start < t_->ranks(); ++start) {
                std::vector<Card> run;
                for (int i = 0; i < 3; ++i)
                    if (auto c = holding(suit, t_->step(start, leap, i), run)) run.push_back(*c);
                if (run.size() < 3 || touches_own(suit, leap, start)) continue;
                const bool melds_here = std::any_of(melds_.begin(), melds_.end(), [&](auto& m) {
                    return m.second.leap == leap && t_->suit_class(m.second.cards[0]) == suit;
                });
                if (melds_here) return run;
                if (!best) best = run;
            }
        return best;
    }
    // Whether a run of three from `start` would sit next to or on one of its melds.
    bool touches_own(int suit, int leap, int start) const {
        for (const auto& [id, m] : melds_) {
            if (m.leap != leap || t_->suit_class(m.cards[0]) != suit) continue;
            for (Card c : m.cards)
                for (int i = -1; i <= 3; ++i)
                    if (c.rank().index() == t_->step(start, leap, i)) return true;
        }
        return false;
    }
    // An extension that fills the gap from one of its melds to another and joins them.
    std::optional<json> conjoin() const {
        for (const auto& [a, ma] : melds_)
            for (const auto& [b, mb] : melds_) {
                if (a == b || ma.leap != mb.leap ||
                    t_->suit_class(ma.cards[0]) != t_->suit_class(mb.cards[0]))
                    continue;
                const int suit = t_->suit_class(ma.cards[0]);
                const int start = ma.cards[0].rank().index();
                const int target = mb.cards[0].rank().index();
                std::vector<Card> gap;
                for (int i = static_cast<int>(ma.cards.size()); i < t_->ranks(); ++i) {
                    const int rank = t_->step(start, ma.leap, i);
                    if (rank == target) break;
                    auto c = holding(suit, rank, gap);
                    if (!c) {
                        gap.clear();
                        break;
                    }
                    gap.push_back(*c);
                }
                if (gap.empty()) continue;
                return json{{"meld", a}, {"high", text(gap)}, {"join", b}};
            }
        return std::nullopt;
    }
    Card to_discard() {
        std::uniform_int_distribution<std::size_t> pick(0, hand_.size() - 1);
        return hand_[pick(rng_)];
    }

    void on_turn(const json& msg) {
        if (plan_.sleep) return;
        if (msg["phase"] == "turn") {
            if (++turns_ > plan_.turns)
                return void(request({{"type", "act"}, {"action", "retire"}}));
            return void(request({{"type", "act"}, {"action", "pursue"}}));
        }
        if (msg["may_meld"] == true) {
            if (plan_.trespass && !trespassed_ && token_ == 0)
                for (int k = 1; k <= t_->leaps(); ++k) {
                    const auto h = holders_.find(k);
                    if (h == holders_.end() || h->second == seat_) continue;
                    if (auto run = run_of_three(k)) {
                        trespassed_ = true;
                        expect_ = request({{"type", "act"},
                                           {"action", "meld"},
                                           {"cards", text(*run)},
                                           {"leap", k}});
                        return;
                    }
                }
            // The trespasser lays no first meld of its own while it waits for its chance.
            if (plan_.trespass && !trespassed_ && token_ == 0 && turns_ <= 20) {
                request({{"type", "act"},
                         {"action", "discard"},
                         {"card", t_->deck().to_string(to_discard())}});
                return;
            }
            if (auto x = conjoin())
                return void(request(
                    {{"type", "act"}, {"action", "extend"}, {"extensions", json::array({*x})}}));
            for (const json& k : msg["open_leaps"])
                if (auto run = run_of_three(k.get<int>()))
                    return void(request(
                        {{"type", "act"}, {"action", "meld"}, {"cards", text(*run)}, {"leap", k}}));
        }
        request(
            {{"type", "act"}, {"action", "discard"}, {"card", t_->deck().to_string(to_discard())}});
    }

    // False once the player has left.
    bool handle(const json& msg) {
        if (msg["type"] == "error") {
            if (msg["id"] == expect_ && expect_ > 0) {
                rep_.refusals.push_back(msg["code"]);
                expect_ = -1;
                // Its turn goes on: meld elsewhere or discard.
                on_turn(last_turn_);
            } else {
                rep_.problems.push_back(msg.dump());
            }
            return true;
        }
        if (msg["type"] != "table") return true;
        const std::string kind = msg["kind"];
        // Private cards: only ever the reader's own.
        const bool mine = msg.contains("seat") && msg["seat"] == seat_;
        if ((kind == "drew" && msg.contains("cards") && !mine) ||
            (kind == "discarded" && msg.contains("card") && !mine) ||
            (kind == "snapshot" && msg.contains("game") && msg["game"].contains("your_hand") &&
             msg["your_seat"] != seat_))
            rep_.problems.push_back("someone else's cards: " + msg.dump());
        if (kind == "deal") {
            const auto players = msg["players"].get<std::vector<int>>();
            in_game_ = std::find(players.begin(), players.end(), seat_) != players.end();
            // The table's rules as the server reads them: deck, packs, suit rule and all.
            const auto parsed = felt::protocol::decode_leap_config(config_);
            if (!parsed.ok()) {
                rep_.problems.push_back("the table's config: " + parsed.refusal.message);
                return false;
            }
            auto t = leap::Table::make(parsed.value->rules, static_cast<int>(players.size()));
            if (!t.ok()) {
                rep_.problems.push_back(t.error().message);
                return false;
            }
            t_ = t.value();
            hand_ = in_game_ ? parse(msg["cards"]) : std::vector<Card>{};
            commitment_ = msg["commitment"];
            held_ever_.clear();
            for (Card c : hand_) held_ever_.insert(t_->deck().to_string(c));
            if (in_game_ != msg.contains("cards"))
                rep_.problems.push_back("a deal with the wrong cards: " + msg.dump());
            melds_.clear();
            holders_.clear();
            token_ = 0;
            turns_ = 0;
        }
        if (kind == "left" && msg["seat"] == seat_) return false;
        if (!in_game_) return true;
        rep_.joins_seen += kind == "joined";
        if (kind == "drew" && mine) {
            const auto drawn = parse(msg["cards"]);
            if (static_cast<int>(drawn.size()) != msg["count"]) rep_.problems.push_back("count");
            hand_.insert(hand_.end(), drawn.begin(), drawn.end());
            for (Card c : drawn) held_ever_.insert(t_->deck().to_string(c));
        }
        if (kind == "discarded" && mine) {
            drop(parse(msg["card"]));
            if (plan_.sleep) ++rep_.timed_out;
        }
        if (kind == "took_token") {
            holders_[msg["leap"]] = msg["seat"];
            if (mine) token_ = msg["leap"];
        }
        if ((kind == "melded" || kind == "extended" || kind == "joined") && mine) {
            const auto cards = parse(msg["cards"]);
            if (kind == "melded") {
                drop(cards);
                ++rep_.melds;
                melds_[msg["meld"]] = {msg["leap"], cards};
            } else if (kind == "extended") {
                OwnMeld& m = melds_[msg["meld"]];
                std::vector<Card> added;
                for (Card c : cards)
                    if (std::find(m.cards.begin(), m.cards.end(), c) == m.cards.end())
                        added.push_back(c);
                drop(added);
                m.cards = cards;
            } else {
                ++rep_.conjoins;
                melds_.erase(msg["other"].get<int>());
                melds_[msg["meld"]].cards = cards;
            }
        }
        if (kind == "turn") {
            // The public hand size is what this player was told it holds.
            if (msg["hand_sizes"][static_cast<std::size_t>(seat_)] != hand_.size())
                rep_.problems.push_back("holds " + std::to_string(hand_.size()) +
                                        " cards, the table says " +
                                        msg["hand_sizes"][static_cast<std::size_t>(seat_)].dump());
            if (msg["seat"] == seat_) {
                last_turn_ = msg;
                on_turn(msg);
            }
        }
        if (kind == "retired" && mine && plan_.sleep) ++rep_.timed_out;
        if (kind == "game_end") {
            ++rep_.games;
            in_game_ = false;
            // The reveal, as this player checks it: every card it held is opened to it (its own,
            // or everyone's once melded), and only those are opened to it alone.
            const auto f = fairness_check::check(commitment_, msg["fairness"]);
            for (const std::string& p : f.problems) rep_.problems.push_back(p);
            for (const std::string& card : held_ever_)
                if (!f.yours.count(card) && !f.shown.count(card))
                    rep_.problems.push_back("fairness: " + card + " was not opened");
            for (const std::string& card : f.yours)
                if (!held_ever_.count(card))
                    rep_.problems.push_back("fairness: opened " + card + ", never held");
            ++rep_.reveals;
            if (rep_.games >= plan_.max_games || (rep_.games >= plan_.games && rep_.joins_seen > 0))
                request({{"type", "leave"}});
        }
        return true;
    }

  public:
    json config_;

  private:
    Client& c_;
    std::int64_t table_;
    int seat_;
    LeapPlan plan_;
    std::mt19937 rng_;
    std::shared_ptr<const leap::Table> t_;
    bool in_game_ = false;
    std::vector<Card> hand_;
    std::string commitment_;
    std::multiset<std::string> held_ever_; // this game: dealt and drawn
    std::map<int, OwnMeld> melds_;
    std::map<int, int> holders_; // leap -> seat
    int token_ = 0;
    int turns_ = 0;
    int id_ = 1000;
    int expect_ = -1; // the request meant to be refused
    bool trespassed_ = false;
    json last_turn_;
    LeapReport rep_;
};

struct Watch {
    int games = 0;
    int melds = 0;
    int conjoins = 0;
    std::vector<std::int64_t> hands;
    std::vector<json> banks; // time_bank messages
    int sealed = 0;          // leaves left sealed to the spectator, all games
};

std::vector<std::string> card_texts(const json& cards) {
    std::vector<std::string> out;
    std::istringstream in(cards.get<std::string>());
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// The spectator's view until `players` have left: no private card ever, every game's reveal
// matches its commitment, and the chips move as the scores say.
Watch watch(Client& w, int players, std::int64_t per_point) {
    Watch out;
    json deal;
    std::map<int, std::vector<std::string>> melds; // the game's melds by id: public cards
    for (int left = 0; left < players;) {
        auto m = w.read();
        if (!m) {
            FAIL_CHECK("the spectator was cut off");
            break;
        }
        const json& msg = *m;
        if (msg["type"] != "table") continue;
        const std::string kind = msg["kind"];
        left += kind == "left";
        if (kind == "deal") {
            CHECK_FALSE(msg.contains("cards"));
            deal = msg;
            melds.clear();
        }
        if (kind == "melded" || kind == "extended" || kind == "joined")
            melds[msg["meld"]] = card_texts(msg["cards"]);
        if (kind == "joined") melds.erase(msg["other"].get<int>());
        if (kind == "drew") CHECK_FALSE(msg.contains("cards"));
        if (kind == "discarded") CHECK_FALSE(msg.contains("card"));
        out.melds += kind == "melded";
        out.conjoins += kind == "joined";
        if (kind == "time_bank") out.banks.push_back(msg);
        if (kind != "game_end") continue;
        ++out.games;
        if (!deal.is_object()) {
            FAIL_CHECK("a game's end without its deal");
            break;
        }
        // The reveal checks out, opens exactly the melded cards to a spectator, and no sealed
        // leaf (a hand, the stock) can be matched to a card with the salts it gives.
        const auto f = fairness_check::check(deal["commitment"], msg["fairness"]);
        CHECK_MESSAGE(f.problems.empty(), (f.problems.empty() ? "" : f.problems.front()));
        std::multiset<std::string> melded;
        for (const auto& [id, cards] : melds) melded.insert(cards.begin(), cards.end());
        CHECK(f.shown == melded);
        CHECK_FALSE(msg["fairness"].contains("yours"));
        CHECK(fairness_check::derivable(msg["fairness"], f) == 0);
        out.sealed += static_cast<int>(msg["fairness"]["leaves"].size() - f.opened.size());
        // Chips move as the scores say: pair by pair at chips_per_point.
        std::vector<int> scores;
        std::vector<felt::Chips> stacks;
        for (int s : deal["players"]) {
            scores.push_back(msg["scores"][static_cast<std::size_t>(s)]);
            stacks.push_back(deal["stacks"][static_cast<std::size_t>(s)].get<felt::Chips>());
        }
        const auto end = leap::settle_chips(scores, stacks, felt::Chips(per_point));
        std::size_t i = 0;
        for (int s : deal["players"]) {
            CHECK(msg["net"][static_cast<std::size_t>(s)].get<felt::Chips>() == end[i] - stacks[i]);
            ++i;
        }
        out.hands.push_back(msg["hand_id"]);
    }
    return out;
}

// Players in threads until each has left; their reports.
std::vector<LeapReport> play_all(std::vector<std::unique_ptr<Client>>& clients, std::int64_t table,
                                 const std::vector<int>& seats, const json& config,
                                 const std::vector<LeapPlan>& plans) {
    std::vector<LeapReport> reports(clients.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < clients.size(); ++i)
        threads.emplace_back([&, i] {
            LeapPlayer p(*clients[i], table, seats[i], plans[i], static_cast<std::uint32_t>(i + 7));
            p.config_ = config;
            reports[i] = p.play();
        });
    for (auto& t : threads) t.join();
    return reports;
}

std::vector<std::unique_ptr<Client>> guests(const Feltd& d, int n) {
    std::vector<std::unique_ptr<Client>> out;
    for (int i = 0; i < n; ++i) {
        out.push_back(std::make_unique<Client>(d.port()));
        out.back()->hello();
        REQUIRE(out.back()->call({{"type", "guest"}})["ok"] == true);
    }
    return out;
}

// Every finished game replays through the engine to the stored result; the asker sees its own
// draws and discards and nobody else's.
void check_history(Client& asker, int asker_seat, std::int64_t hand) {
    const json h = asker.call({{"type", "hand"}, {"hand", hand}});
    REQUIRE(h["ok"] == true);
    CHECK(h["config"]["game"] == "leap");
    CHECK_MESSAGE(h["replay"]["matches"] == true, h["replay"].dump());
    // The replay's steps: one for each recorded action, a new meld for each meld action, and
    // nobody's drawn or discarded cards.
    int actions = 0, melds = 0, melded = 0;
    for (const json& e : h["events"])
        if (e["kind"] == "action") {
            ++actions;
            melds += e["action"] == "meld";
        }
    REQUIRE(h["replay"]["steps"].size() == static_cast<std::size_t>(actions));
    for (const json& step : h["replay"]["steps"])
        for (const json& m : step) {
            melded += m["kind"] == "melded";
            CHECK_FALSE(m.contains("card"));
            if (m["kind"] == "drew") CHECK_FALSE(m.contains("cards"));
        }
    CHECK(melded == melds);
    int own = 0;
    for (const json& e : h["events"]) {
        const std::string kind = e["kind"];
        const bool secret =
            kind == "deal" || kind == "drew" || (kind == "action" && e["action"] == "discard");
        if (!secret) continue;
        const bool has = e.contains("cards") || e.contains("card");
        CHECK(has == (e["seat"] == asker_seat));
        own += has;
    }
    CHECK(own > 0);
}

} // namespace

TEST_CASE("feltd leap: full games with 2 and 4 players, a trespass refused, conjoins, the clock") {
    for (const int n : {2, 4}) {
        CAPTURE(n);
        char tmpl[] = "/tmp/feltd_test_XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        const std::string dir = tmpl;
        // Two players play two games, four play one, and each table plays on until someone has
        // conjoined. A game with one pack seats four on 32 cards of stock and ends without a
        // conjoin more often than not (7 of 12 measured), so four play with two packs, where 10
        // games in 12 had one; two players' games had one in 13 of 16. The chance of no conjoin
        // in all of max_games below is then about 1e-6 for four and 1e-7 for two.
        const int games = n == 2 ? 2 : 1;
        int finished = 0;
        {
            Feltd d({"--rate", "1000"}, dir); // bots play faster than people
            auto players = guests(d, n);
            // Two players play games for points; four play for chips with two packs, one of them
            // asleep (the clock plays a turn for it, then retires it). Deep stacks: nobody runs
            // out of chips in the games they play.
            json create = {{"type", "create_table"}, {"game", "leap"},  {"seats", n},
                           {"hand_delay_ms", 300},   {"turn_ms", 1500}, {"retire_after", 2}};
            if (n == 4) {
                create["chips_per_point"] = 1;
                create["time_bank_ms"] = 500;
                create["packs"] = 2;
                create["max_buy_in"] = 10'000;
            }
            auto made = players[0]->call(create);
            REQUIRE(made["ok"] == true);
            const std::int64_t table = made["table"];
            const json config = made["config"];
            CHECK(config["game"] == "leap");
            Client watcher(d.port());
            watcher.hello();
            watcher.call({{"type", "guest"}});
            REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
            std::vector<int> seats;
            for (auto& p : players) {
                json join = {{"type", "join"}, {"table", table}};
                if (n == 4) join["buy_in"] = 5'000;
                auto j = p->call(join);
                REQUIRE(j["ok"] == true);
                seats.push_back(j["seat"]);
            }
            std::vector<LeapPlan> plans(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                plans[static_cast<std::size_t>(i)].games = games;
                plans[static_cast<std::size_t>(i)].max_games = n == 2 ? 10 : 8;
                plans[static_cast<std::size_t>(i)].trespass = i == 1;
            }
            if (n == 4) plans[3].sleep = true;
            Watch w;
            std::thread spectator([&] { w = watch(watcher, n, config["chips_per_point"]); });
            auto reports = play_all(players, table, seats, config, plans);
            int refusals = 0, joins = 0;
            for (const LeapReport& r : reports) {
                CHECK(r.games >= games);
                CHECK(r.reveals == r.games);
                CHECK_MESSAGE(r.problems.empty(), (r.problems.empty() ? "" : r.problems.front()));
                for (const std::string& code : r.refusals) CHECK(code == "leap_taken");
                refusals += static_cast<int>(r.refusals.size());
                joins += r.conjoins;
            }
            CHECK(refusals == 1);
            if (n == 4) {
                CHECK(reports[3].melds == 0);
                // Each game: one turn played for it, then retired.
                CHECK(reports[3].timed_out == 2 * reports[3].games);
            }
            spectator.join();
            if (n == 4) { // the sleeper's bank ran once, in full, before its first time-out
                REQUIRE(w.banks.size() == 1);
                CHECK(w.banks[0]["seat"] == seats[3]);
                CHECK(w.banks[0]["bank_ms"] == 500);
            } else {
                CHECK(w.banks.empty());
            }
            CHECK(w.games >= games);
            CHECK(w.melds > 0);
            CHECK(w.sealed > 0);
            CHECK(w.conjoins >= 1);
            CHECK(w.conjoins == joins); // every conjoin, seen by the player who made it
            MESSAGE(n << " players: " << w.games << " games, " << w.conjoins << " conjoins");
            for (std::int64_t hand : w.hands) check_history(*players[0], seats[0], hand);
            finished = w.games;
            players.clear();
            CHECK(d.stop(SIGTERM) == 0);
        }
        check_database(dir, n + 1, finished);
        std::filesystem::remove_all(dir);
    }
}

namespace {

// The game in a snapshot, less the clock.
json game_of(const json& snapshot) {
    json g = snapshot.at("game");
    g.erase("deadline_ms");
    return g;
}

json snapshot_of(Client& c, std::int64_t table) {
    REQUIRE(c.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    return next_kind(c, "snapshot");
}

} // namespace

TEST_CASE("feltd leap: bad configurations and actions change nothing; reconnection; leaving; "
          "history") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    std::int64_t hand_id = 0;
    {
        Feltd d({"--grace", "1"}, dir);
        Client a(d.port());
        auto b = std::make_unique<Client>(d.port());
        a.hello();
        b->hello();
        REQUIRE(a.call({{"type", "guest"}})["ok"] == true);
        const std::string b_token = b->call({{"type", "guest"}})["token"];
        auto create = [&](json extra) {
            json r = {{"type", "create_table"}, {"game", "leap"}};
            r.update(extra);
            return a.call(r);
        };
        CHECK(create({{"seats", 7}})["code"] == "bad_config");
        CHECK(create({{"ranks", 9}})["code"] == "bad_config");
        CHECK(create({{"suits", "red"}})["code"] == "bad_config");
        CHECK(create({{"leap_rule", "free"}})["code"] == "bad_config");
        CHECK(create({{"turn_ms", "slow"}})["code"] == "bad_config");
        // The 28 cards of 7 ranks cannot deal two hands of 20.
        const json big = create({{"ranks", 7}, {"hand_size", 20}, {"seats", 2}});
        CHECK(big["code"] == "bad_config");
        CHECK(big["message"].get<std::string>().find("with 2 players") != std::string::npos);
        // Under leaptokens, no more seats than leaps (7 ranks: 3); by default, that many.
        const json four = create({{"ranks", 7}, {"seats", 4}});
        CHECK(four["code"] == "bad_config");
        CHECK(four["message"].get<std::string>().find("7 ranks have 3 leaps, so at most 3 "
                                                      "players, not 4") != std::string::npos);
        const json seven = create({{"ranks", 7}});
        REQUIRE(seven["ok"] == true);
        CHECK(seven["config"]["seats"] == 3);
        CHECK(create({{"ranks", 7}, {"seats", 4}, {"leap_rule", "distinct"}})["ok"] == true);
        CHECK(create({{"min_buy_in", 10}})["code"] == "bad_config"); // no chips at stake
        CHECK(create({{"suits", "same_colour"}, {"leap_rule", "distinct"}, {"jokers", 1}})["ok"] ==
              true);

        auto made = create({{"seats", 2}, {"turn_ms", 60'000}, {"hand_delay_ms", 2'000}});
        REQUIRE(made["ok"] == true);
        const std::int64_t table = made["table"];
        CHECK(a.call({{"type", "act"}, {"table", table}, {"action", "pursue"}})["code"] ==
              "not_seated");
        REQUIRE(a.call({{"type", "join"}, {"table", table}})["ok"] == true);
        REQUIRE(b->call({{"type", "join"}, {"table", table}})["ok"] == true);
        const json deal_a = next_kind(a, "deal");
        const json deal_b = next_kind(*b, "deal");
        const json turn = next_kind(a, "turn");
        // The player left of the dealer acts first.
        CHECK(turn["seat"] != deal_a["dealer"]);
        CHECK(turn["phase"] == "turn");
        Client& first = turn["seat"] == 0 ? a : *b;
        Client& second = turn["seat"] == 0 ? *b : a;
        const json first_deal = turn["seat"] == 0 ? deal_a : deal_b;
        const json second_deal = turn["seat"] == 0 ? deal_b : deal_a;
        Client watcher(d.port());
        watcher.hello();
        watcher.call({{"type", "guest"}});
        const json before = game_of(snapshot_of(watcher, table));
        CHECK_FALSE(before.contains("your_hand"));

        auto act = [&](Client& c, json body) {
            body["type"] = "act";
            body["table"] = table;
            return c.call(body);
        };
        const std::string theirs = second_deal["cards"].get<std::string>().substr(0, 2);
        const std::string own = first_deal["cards"].get<std::string>().substr(0, 2);
        CHECK(act(first, {{"action", "dance"}})["code"] == "bad_request");
        CHECK(act(first, {{"action", "meld"}})["code"] == "bad_request");
        CHECK(act(first, {{"action", "discard"}, {"card", "Zz"}})["code"] == "bad_card");
        CHECK(act(first, {{"action", "discard"}, {"card", own}})["code"] == "must_pursue");
        CHECK(act(first, {{"action", "extend"}, {"extensions", 3}})["code"] == "bad_request");
        const json wrong = act(second, {{"action", "pursue"}});
        CHECK(wrong["code"] == "not_your_turn");
        // The engine's "seat N" is the table's seat as people count it (from 1), with the
        // player's name.
        CHECK(wrong["message"].get<std::string>().find(
                  "(seat " + std::to_string(turn["seat"].get<int>() + 1) + ")") !=
              std::string::npos);
        CHECK(game_of(snapshot_of(watcher, table)) == before);

        REQUIRE(act(first, {{"action", "pursue"}})["ok"] == true);
        CHECK(act(first, {{"action", "pursue"}})["code"] == "must_discard");
        CHECK(act(first, {{"action", "retire"}})["code"] == "must_discard");
        CHECK(act(first, {{"action", "discard"}, {"card", theirs}})["code"] == "not_in_hand");
        CHECK(act(first, {{"action", "meld"}, {"cards", own}})["code"] == "too_short");
        CHECK(act(first, {{"action", "extend"},
                          {"extensions", {{{"meld", 9}, {"cards", own}}}}})["code"] ==
              "no_such_meld");
        CHECK(a.call({{"type", "hint"}, {"table", table}})["code"] == "no_hints");
        const json mid = game_of(snapshot_of(watcher, table));
        CHECK(mid["phase"] == "melding");
        REQUIRE(act(first, {{"action", "discard"}, {"card", own}})["ok"] == true);

        // B drops and comes back with its token: its own hand, the public rest.
        const bool b_first = &first == b.get();
        std::string b_hand = (b_first ? first_deal : second_deal)["cards"];
        b.reset();
        Client back(d.port());
        back.hello();
        REQUIRE(back.call({{"type", "resume"}, {"token", b_token}})["ok"] == true);
        const json snap = next_kind(back, "snapshot");
        REQUIRE(snap.contains("game"));
        const json& g = snap["game"];
        CHECK(g.contains("your_hand"));
        const std::size_t b_seat = snap["your_seat"];
        const auto deck = leap::Table::make(leap::Rules{}, 2).value();
        CHECK(g["hand_sizes"][b_seat] ==
              deck->deck().parse_cards(g["your_hand"].get<std::string>())->size());
        if (!b_first) CHECK(g["your_hand"] == b_hand); // B has not moved yet
        CHECK(g["stock"] == 52 - 10 - 2 + 1);
        CHECK(snap.dump().find(g["your_hand"].get<std::string>()) != std::string::npos);
        // A leaves mid-game: the server retires A at its turn; B retires; the game ends.
        auto b_to_start = [&](const json& state) {
            return state["seat"] == snap["your_seat"] && state["phase"] == "turn";
        };
        REQUIRE(a.call({{"type", "leave"}, {"table", table}})["after_hand"] == true);
        if (!b_to_start(g))
            while (!b_to_start(next_kind(back, "turn"))) {
            }
        REQUIRE(act(back, {{"action", "retire"}})["ok"] == true);
        const json end = next_kind(back, "game_end");
        hand_id = end["hand_id"];
        CHECK(end["net"] == json::array({0, 0}));
        // Nothing was melded: A's hand (it left) and B's (it retired) go to their owners alone,
        // never to the table, live or in the history.
        auto unshown = [&](const json& fairness) {
            const auto f = fairness_check::check(deal_a["commitment"], fairness);
            CHECK(f.problems.empty());
            CHECK(f.shown.empty());
            CHECK(fairness_check::derivable(fairness, f) == 0);
            return f.yours.size();
        };
        // B's own: the hand it held (and the card it discarded, had it gone first).
        const std::size_t b_yours = unshown(end["fairness"]);
        CHECK(b_yours == g["hand_sizes"][b_seat].get<std::size_t>() + (b_first ? 1 : 0));
        CHECK(unshown(json::parse(
                  http_get(d.port(), "/api/hands/" + std::to_string(hand_id)).body)["fairness"]) ==
              0);
        REQUIRE(back.call({{"type", "leave"}, {"table", table}})["ok"] == true);

        const json h = back.call({{"type", "hand"}, {"hand", hand_id}});
        REQUIRE(h["ok"] == true);
        CHECK_MESSAGE(h["replay"]["matches"] == true, h["replay"].dump());
        int actions = 0, by_server = 0;
        for (const json& e : h["events"]) {
            if (e["kind"] != "action") continue;
            ++actions;
            by_server += e["by"] == "server";
        }
        CHECK(actions >= 4);   // pursue, discard, a retirement for each
        CHECK(by_server >= 1); // A's
        CHECK(d.stop(SIGTERM) == 0);
    }
    check_database(dir, 3, 1);
    // A log altered behind the server's back no longer replays.
    {
        felt::db::Database db(dir + "/data/felt.db");
        felt::db::Statement read(db, "SELECT body FROM hand_logs WHERE hand_id = ?");
        read.bind(1, hand_id);
        REQUIRE(read.step());
        std::vector<std::string> events = felt::server::hand_log_events(read.column_text(0)), kept;
        for (std::string& e : events)
            if (e.find(R"("action":"retire")") == std::string::npos) kept.push_back(std::move(e));
        CHECK(kept.size() + 2 <= events.size()); // both players' retirements
        felt::db::Statement write(db, "UPDATE hand_logs SET body = ? WHERE hand_id = ?");
        write.bind(1, felt::server::hand_log_text(kept)).bind(2, hand_id).run();
        CHECK(db.changes() == 1);
    }
    {
        Feltd d({}, dir);
        const json h =
            json::parse(http_get(d.port(), "/api/hands/" + std::to_string(hand_id)).body);
        CHECK(h["replay"]["matches"] == false);
        CHECK(h["replay"]["reason"] == "the game does not reach its end");
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd leap: preview gives the engine's verdict on a meld or an extension, changing "
          "nothing; a chosen deck") {
    Feltd d({"--chosen-decks"});
    Client a(d.port()), b(d.port());
    a.hello();
    b.hello();
    REQUIRE(a.call({{"type", "guest"}})["ok"] == true);
    REQUIRE(b.call({{"type", "guest"}})["ok"] == true);
    const json made = a.call({{"type", "create_table"}, {"game", "leap"}, {"seats", 2}});
    REQUIRE(made["ok"] == true);
    const std::int64_t table = made["table"];
    REQUIRE(a.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    // The first to act is dealt first: hearts along leap 2 and a spade; the other diamonds along
    // leap 2. The stock's top two go to the first player's pursuit.
    const json chosen = a.call({{"type", "choose_deck"},
                                {"table", table},
                                {"cards", "3h 4d 5h 6d 7h 8d Jh Kc Ts Qc 9h 2c"}});
    REQUIRE(chosen["ok"] == true);
    REQUIRE(a.call({{"type", "join"}, {"table", table}})["ok"] == true);
    REQUIRE(b.call({{"type", "join"}, {"table", table}})["ok"] == true);
    const json turn = next_kind(a, "turn");
    Client& first = turn["seat"] == 0 ? a : b;
    Client& second = turn["seat"] == 0 ? b : a;
    auto ask = [&](Client& c, const char* type, json body) {
        body["type"] = type;
        body["table"] = table;
        return c.call(body);
    };
    // Before drawing: valid, but not now; the leaps it runs along; the points it would score.
    json p = ask(first, "preview", {{"action", "meld"}, {"cards", "7h 3h 5h"}});
    REQUIRE(p["ok"] == true);
    CHECK(p["valid"] == true);
    CHECK(p["now"] == false);
    CHECK(p["leaps"] == json::array({2}));
    CHECK(p["leap"] == 2);
    CHECK(p["melds"][0]["cards"] == "3h 5h 7h");
    CHECK(p["points_before"] == 0);
    CHECK(p["points_after"] == 1);
    CHECK(ask(second, "preview", {{"action", "meld"}, {"cards", "4d 6d 8d"}})["valid"] == true);
    // Refusals are the engine's, in the table's words; a pursuit is no preview.
    p = ask(first, "preview", {{"action", "meld"}, {"cards", "3h 5h Ts"}});
    CHECK(p["valid"] == false);
    CHECK(p["refusal"]["code"] == "wrong_suit");
    CHECK(ask(first, "preview", {{"action", "meld"}, {"cards", "Zz"}})["code"] == "bad_card");
    CHECK(ask(first, "preview", {{"action", "pursue"}})["valid"] == false);
    // Retiring now would cost the five cards in hand.
    p = ask(first, "preview", {{"action", "retire"}});
    CHECK(p["valid"] == true);
    CHECK(p["now"] == true);
    CHECK(p["points_after"].get<int>() < 0);
    // The preview matches what the meld then does.
    REQUIRE(ask(first, "act", {{"action", "pursue"}})["ok"] == true);
    p = ask(first, "preview", {{"action", "meld"}, {"cards", "3h 5h 7h"}});
    CHECK(p["now"] == true);
    REQUIRE(ask(first, "act", {{"action", "meld"}, {"cards", "3h 5h 7h"}})["ok"] == true);
    const json melded = next_kind(second, "melded");
    CHECK(melded["points"] == p["points_after"]);
    CHECK(melded["leap"] == p["leap"]);
    // Leap 2 is taken: the other player is told whose it is.
    p = ask(second, "preview", {{"action", "meld"}, {"cards", "4d 6d 8d"}});
    CHECK(p["valid"] == false);
    CHECK(p["refusal"]["code"] == "leap_taken");
    CHECK(p["refusal"]["message"].get<std::string>().find(
              "(seat " + std::to_string(turn["seat"].get<int>() + 1) + ")") != std::string::npos);
    // An extension of the new meld: 9h after 7h.
    const int id = melded["meld"];
    p = ask(first, "preview",
            {{"action", "extend"}, {"extensions", json::array({{{"meld", id}, {"high", "9h"}}})}});
    CHECK(p["valid"] == true);
    CHECK(p["melds"][0]["cards"] == "3h 5h 7h 9h");
    CHECK(p["points_after"] == 3);
    CHECK(p["could_join"] == json::array());
    // A card of the pack that is not in the asker's hand.
    p = ask(second, "preview", {{"action", "meld"}, {"cards", "Kc Qc 2c"}});
    CHECK(p["valid"] == false);
    CHECK(p["refusal"]["code"] == "not_in_hand");
}
