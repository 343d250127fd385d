// Integration: Chinese poker tables on a real feltd. Players split through the protocol (after a
// hint), one submits an illegal split first, one sleeps through a deal; a spectator checks that no
// card or split shows before the reveal, and every deal's settlement is recomputed with the engine.
#include "cards/deck.h"
#include "chinese/chinese.h"
#include "protocol/config_reader.h"
#include "rankings/evaluator.h"
#include "server/fairness_check.h"
#include "server/feltd_harness.h"
#include "storage/accounts.h"
#include "storage/sqlite.h"

#include <map>
#include <set>

using namespace feltd_test;

namespace {

const felt::Deck& pack() {
    static const felt::Deck d = felt::Deck::standard();
    return d;
}

std::vector<felt::Card> cards_of(const std::string& text) {
    auto c = pack().parse_cards(text);
    REQUIRE(c.ok());
    return c.value();
}

std::set<std::string> card_set(const std::string& text) {
    std::set<std::string> out;
    for (felt::Card c : cards_of(text)) out.insert(pack().to_string(c));
    return out;
}

// How one player behaves.
struct Plan {
    int deals = 3; // leaves after this many deals have ended (another may start meanwhile)
    bool illegal_first = false; // submits an illegal split (and a card not dealt) first
    int sleep_in = -1;          // the deal (1-based) it lets the clock arrange for it
};

struct Report {
    int deals = 0;
    std::map<int, std::string> dealt;  // deal number -> its 13 cards
    std::map<int, json> submitted;     // deal number -> the split it sent
    std::vector<std::string> refusals; // codes of the errors it was meant to get
    std::vector<std::string> problems; // anything else that went wrong
};

Report play_chinese(Client& c, std::int64_t table, int seat, Plan plan) {
    Report rep;
    int id = 1000, deal = 0;
    int illegal_id = -1, wrong_id = -1, hint_id = -1;
    bool leaving = false;
    std::string commitment; // the deal's
    auto request = [&](json j) {
        j["id"] = ++id;
        j["table"] = table;
        c.send(j);
        return id;
    };
    for (;;) {
        auto m = c.read();
        if (!m) {
            rep.problems.push_back("connection closed");
            return rep;
        }
        const json& msg = *m;
        if (msg["type"] == "error") {
            const int of = msg["id"].is_number() ? msg["id"].get<int>() : -1;
            if (of == illegal_id || of == wrong_id) {
                rep.refusals.push_back(msg["code"]);
                if (of == wrong_id) hint_id = request({{"type", "hint"}, {"count", 2}});
            } else {
                rep.problems.push_back(msg.dump());
            }
            continue;
        }
        if (msg["type"] == "hint" && msg["id"] == hint_id) {
            const json& best = msg["arrangements"][0];
            if (msg["arrangements"].size() != 2) rep.problems.push_back("not two hints");
            json split = {{"type", "act"},
                          {"action", "split"},
                          {"front", best["front"]},
                          {"middle", best["middle"]},
                          {"back", best["back"]}};
            if (!best["declare"].is_null()) split["declare"] = best["declare"];
            rep.submitted[deal] = split;
            request(split);
            continue;
        }
        if (msg["type"] != "table") continue;
        const std::string kind = msg["kind"];
        for (const char* secret : {"front", "middle", "back", "your_split"})
            if (kind != "deal_end" && kind != "snapshot" && msg.contains(secret))
                rep.problems.push_back("a split before the reveal: " + msg.dump());
        if (kind == "deal") {
            deal = msg["hand"];
            commitment = msg["commitment"];
            if (!msg.contains("cards")) {
                rep.problems.push_back("dealt in without cards: " + msg.dump());
                continue;
            }
            rep.dealt[deal] = msg["cards"];
            if (deal == plan.sleep_in || leaving) continue;
            if (plan.illegal_first && deal == 1) {
                // A split with a card never dealt: refused, then a hint, then the split.
                std::vector<felt::Card> mine = cards_of(msg["cards"]);
                felt::Card stranger{};
                for (felt::Card k : pack().cards())
                    if (std::find(mine.begin(), mine.end(), k) == mine.end()) stranger = k;
                std::vector<felt::Card> wrong = mine;
                wrong[0] = stranger;
                auto text = [&](std::size_t from, std::size_t n) {
                    return pack().to_string(std::span(wrong.data() + from, n));
                };
                wrong_id = request({{"type", "act"},
                                    {"action", "split"},
                                    {"front", text(0, 3)},
                                    {"middle", text(3, 5)},
                                    {"back", text(8, 5)}});
                continue;
            }
            hint_id = request({{"type", "hint"}, {"count", 2}});
        }
        if (kind == "deal_end") {
            ++rep.deals;
            // The reveal checks out, and opens this player's 13 cards to everyone.
            const auto f = fairness_check::check(commitment, msg["fairness"]);
            for (const std::string& p : f.problems) rep.problems.push_back(p);
            if (!f.yours.empty()) rep.problems.push_back("fairness: cards opened to one seat");
            for (const std::string& card : card_set(rep.dealt[deal]))
                if (!f.shown.count(card)) rep.problems.push_back("fairness: " + card + " unopened");
            for (const json& a : msg["arrangements"]) {
                if (a["seat"] != seat || deal > plan.deals) continue; // then leaving
                const bool slept = deal == plan.sleep_in;
                if (a["by"] != (slept ? "server" : "player"))
                    rep.problems.push_back("arranged by " + a["by"].get<std::string>());
                if (!slept && rep.submitted.count(deal))
                    for (const char* row : {"front", "middle", "back"})
                        if (card_set(a[row]) != card_set(rep.submitted[deal][row]))
                            rep.problems.push_back("the reveal is not my split");
            }
            if (rep.deals == plan.deals && !leaving) {
                leaving = true;
                request({{"type", "leave"}});
            }
        }
        if (kind == "left" && msg["seat"] == seat) return rep;
    }
}

// Settles a revealed deal again with the engine: the nets must be the server's.
void check_settlement(const json& config, const json& deal, const json& end) {
    const felt::chinese::Profile* profile =
        felt::chinese::find_profile(config["profile"].get<std::string>());
    REQUIRE(profile);
    felt::chinese::Options o;
    o.chip_limit = config["chip_limit"];
    o.aces = config["aces"];
    o.unit = config["unit"];
    o.rake = config["rake"];
    std::vector<felt::chinese::Player> players;
    std::vector<int> seats;
    int dealer = 0;
    for (const json& a : end["arrangements"]) {
        felt::chinese::Player p;
        const int seat = a["seat"];
        if (seat == deal["dealer"]) dealer = static_cast<int>(seats.size());
        seats.push_back(seat);
        p.name = std::to_string(seat);
        p.stack = deal["stacks"][static_cast<std::size_t>(seat)];
        auto fill = [&](const char* row, std::span<felt::Card> out) {
            auto cards = cards_of(a[row]);
            REQUIRE(cards.size() == out.size());
            std::copy(cards.begin(), cards.end(), out.begin());
        };
        p.surrender = a["surrender"];
        if (p.surrender) { // a fold: no rows shown, and none to settle
            for (const char* row : {"front", "middle", "back"}) CHECK(a[row] == "");
            CHECK(a["words"].is_null());
        } else {
            fill("front", p.split.front);
            fill("middle", p.split.middle);
            fill("back", p.split.back);
        }
        if (!a["declare"].is_null())
            p.declare = felt::chinese::parse_special(a["declare"].get<std::string>());
        players.push_back(p);
    }
    if (config["banker"] == true) o.banker = dealer;
    auto st = felt::chinese::settle(*profile, o, players, dealer);
    REQUIRE(st.ok());
    for (std::size_t k = 0; k < seats.size(); ++k) {
        const auto seat = static_cast<std::size_t>(seats[k]);
        CHECK(end["net"][seat].get<felt::Chips>() == st.value().net[k]);
        CHECK(end["stacks"][seat].get<felt::Chips>() == st.value().final_stacks[k]);
    }
}

} // namespace

TEST_CASE("feltd chinese: full deals with 2, 3 and 4 players under two profiles") {
    for (const std::string profile : {"classic", "scoop"})
        for (int n = 2; n <= 4; ++n) {
            CAPTURE(profile);
            CAPTURE(n);
            char tmpl[] = "/tmp/feltd_test_XXXXXX";
            REQUIRE(mkdtemp(tmpl) != nullptr);
            const std::string dir = tmpl;
            constexpr int kDeals = 3;
            {
                Feltd d({}, dir);
                std::vector<std::unique_ptr<Client>> players;
                for (int i = 0; i < n; ++i) {
                    players.push_back(std::make_unique<Client>(d.port()));
                    players.back()->hello();
                    REQUIRE(players.back()->call({{"type", "guest"}})["ok"] == true);
                }
                json config = {{"type", "create_table"}, {"game", "chinese"},
                               {"profile", profile},     {"seats", n},
                               {"hand_delay_ms", 200},   {"decision_ms", 2000},
                               {"aces", n == 3},         {"rake", n == 4 ? 1 : 0}};
                auto made = players[0]->call(config);
                REQUIRE(made["ok"] == true);
                const std::int64_t table = made["table"];
                const json table_config = made["config"];
                CHECK(table_config["game"] == "chinese");
                auto watching = std::make_unique<Client>(d.port());
                Client& watcher = *watching;
                watcher.hello();
                watcher.call({{"type", "guest"}});
                REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
                std::vector<int> seats;
                for (auto& p : players) {
                    auto j = p->call({{"type", "join"}, {"table", table}, {"buy_in", 100}});
                    REQUIRE(j["ok"] == true);
                    seats.push_back(j["seat"]);
                }
                std::vector<Report> reports(static_cast<std::size_t>(n));
                std::vector<std::thread> threads;
                for (int i = 0; i < n; ++i) {
                    Plan plan;
                    plan.deals = kDeals;
                    plan.illegal_first = i == 0;
                    plan.sleep_in = i == n - 1 ? 2 : -1;
                    threads.emplace_back([&, i, plan] {
                        const auto k = static_cast<std::size_t>(i);
                        reports[k] = play_chinese(*players[k], table, seats[k], plan);
                    });
                }
                for (auto& t : threads) t.join();
                // Every player saw its own 13 cards each deal, nobody else's.
                for (int deal = 1; deal <= kDeals; ++deal) {
                    std::set<std::string> all;
                    for (const Report& r : reports) {
                        REQUIRE(r.dealt.count(deal));
                        const auto mine = card_set(r.dealt.at(deal));
                        CHECK(mine.size() == 13);
                        all.insert(mine.begin(), mine.end());
                    }
                    CHECK(all.size() == static_cast<std::size_t>(13 * n));
                }
                for (const Report& r : reports) {
                    CHECK(r.deals >= kDeals);
                    CHECK_MESSAGE(r.problems.empty(),
                                  (r.problems.empty() ? "" : r.problems.front()));
                }
                CHECK(reports[0].refusals == std::vector<std::string>{"wrong_cards"});
                // The spectator: no card before the reveal, the reveal matches the commitment,
                // and the engine settles each revealed deal the same way.
                watcher.send(json{{"type", "ping"}, {"id", 1}});
                json deal;
                int ends = 0;
                for (auto m = watcher.read(); m && (*m)["type"] != "ping"; m = watcher.read()) {
                    const json& msg = *m;
                    if (msg["kind"] == "deal") {
                        CHECK_FALSE(msg.contains("cards"));
                        deal = msg;
                    }
                    if (msg["kind"] == "submitted") CHECK(msg.size() == 7);
                    if (msg["kind"] != "deal_end") continue;
                    ++ends;
                    REQUIRE(deal.is_object());
                    // Every card dealt is opened to everyone; the rest of the pack stays
                    // sealed, and no sealed leaf can be matched to a card.
                    const auto f = fairness_check::check(deal["commitment"], msg["fairness"]);
                    CHECK(f.problems.empty());
                    std::multiset<std::string> arranged;
                    for (const json& a : msg["arrangements"])
                        for (const char* row : {"front", "middle", "back"})
                            for (const std::string& card : card_set(a[row])) arranged.insert(card);
                    CHECK(arranged.size() == static_cast<std::size_t>(13 * n));
                    CHECK(f.shown == arranged);
                    CHECK(fairness_check::derivable(msg["fairness"], f) == 0);
                    check_settlement(table_config, deal, msg);
                    int rake = 0;
                    for (const json& r : msg["rake"]) rake += r.get<int>();
                    CHECK(rake == (n == 4 ? 4 : 0)); // 1 a player at four
                }
                CHECK(ends >= kDeals);
                players.clear(); // gone: the server need not wait for their close handshakes
                watching.reset();
                CHECK(d.stop(SIGTERM) == 0);
            }
            check_database(dir, n + 1, kDeals);
            std::filesystem::remove_all(dir);
        }
}

namespace {

json split_request(std::int64_t table, const felt::chinese::Split& s) {
    return {{"type", "act"},
            {"table", table},
            {"action", "split"},
            {"front", pack().to_string(s.front)},
            {"middle", pack().to_string(s.middle)},
            {"back", pack().to_string(s.back)}};
}

} // namespace

TEST_CASE("feltd chinese: refusals change nothing; a reconnected player gets the cards back; "
          "history") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    {
        Feltd d({"--grace", "1"}, dir); // at the end, A and B still hold open connections
        Client a(d.port());
        auto b = std::make_unique<Client>(d.port());
        a.hello();
        b->hello();
        REQUIRE(a.call({{"type", "guest"}})["ok"] == true);
        const std::string b_token = b->call({{"type", "guest"}})["token"];
        // Configurations the game cannot play.
        auto create = [&](json extra) {
            json r = {{"type", "create_table"}, {"game", "chinese"}};
            r.update(extra);
            return a.call(r);
        };
        CHECK(create({{"game", "mahjong"}})["code"] == "bad_config");
        CHECK(create({{"profile", "nope"}})["code"] == "bad_config");
        CHECK(create({{"seats", 5}})["code"] == "bad_config");
        CHECK(create({{"surrender", true}})["code"] == "bad_config"); // classic has none
        CHECK(create({{"aces", "yes"}})["code"] == "bad_config");
        CHECK(create({{"chip_limit", false}, {"min_buy_in", 5}})["code"] == "bad_config");
        // Without the chip limit a buy-in covers the worst deal: 13 units a player at classic.
        auto open = create({{"chip_limit", false}, {"seats", 2}});
        REQUIRE(open["ok"] == true);
        CHECK(open["config"]["min_buy_in"] == 13);
        CHECK(create({{"profile", "scoop"}, {"surrender", true}})["ok"] == true);

        // One deal only: both leave within the two seconds before the next.
        auto made = create({{"seats", 2}, {"hints", false}, {"hand_delay_ms", 2'000}});
        REQUIRE(made["ok"] == true);
        const std::int64_t table = made["table"];
        CHECK(a.call(split_request(table, {}))["code"] == "not_seated");
        REQUIRE(a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["ok"] == true);
        REQUIRE(b->call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["ok"] == true);
        const json deal = next_kind(a, "deal");
        const std::string b_cards = next_kind(*b, "deal")["cards"];
        const std::vector<felt::Card> mine = cards_of(deal["cards"]);
        REQUIRE(mine.size() == 13);
        const felt::chinese::Split good = felt::chinese::baseline_split(mine);

        // Each refused, each with the engine's or the table's reason.
        CHECK(a.call({{"type", "hint"}, {"table", table}})["code"] == "no_hints");
        CHECK(a.call({{"type", "act"}, {"table", table}, {"action", "fold"}})["code"] ==
              "bad_request");
        json req = split_request(table, good);
        req.erase("back");
        CHECK(a.call(req)["code"] == "bad_request");
        req = split_request(table, good);
        req["front"] = "Zz Ah Kd";
        CHECK(a.call(req)["code"] == "bad_card");
        req["front"] = pack().to_string(good.front) + " " + pack().to_string(good.back[0]);
        CHECK(a.call(req)["code"] == "wrong_count");
        felt::chinese::Split stolen = good;
        stolen.back[0] = cards_of(b_cards)[0];
        auto refused = a.call(split_request(table, stolen));
        CHECK(refused["code"] == "wrong_cards");
        CHECK(refused["message"].get<std::string>().size() > 10);
        felt::chinese::Split swapped = good;
        std::swap(swapped.middle, swapped.back);
        if (felt::evaluate<5>(good.back.data()) != felt::evaluate<5>(good.middle.data()))
            CHECK(a.call(split_request(table, swapped))["code"] == "middle_above_back");
        req = split_request(table, good);
        req["declare"] = "nonsense";
        CHECK(a.call(req)["code"] == "bad_declare");
        req["declare"] = "thirteen_of_one_suit"; // not a classic special hand
        CHECK(a.call(req)["message"] == "the classic profile pays no thirteen_of_one_suit");
        req["declare"] = 7;
        CHECK(a.call(req)["code"] == "bad_request");
        CHECK(a.call({{"type", "act"}, {"table", table}, {"action", "surrender"}})["code"] ==
              "no_surrender");
        // Nothing moved: the split goes in now, once.
        REQUIRE(a.call(split_request(table, good))["ok"] == true);
        CHECK(a.call(split_request(table, good))["code"] == "already_submitted");

        // B drops and comes back with its token: its 13 cards and who has submitted.
        b.reset();
        Client back(d.port());
        back.hello();
        REQUIRE(back.call({{"type", "resume"}, {"token", b_token}})["ok"] == true);
        const json snap = next_kind(back, "snapshot");
        REQUIRE(snap.contains("deal"));
        CHECK(card_set(snap["deal"]["cards"]) == card_set(b_cards));
        CHECK_FALSE(snap["deal"].contains("your_split"));
        for (const json& s : snap["seats"])
            CHECK(s["submitted"] == (s["seat"] != snap["your_seat"]));
        CHECK(snap.dump().find(pack().to_string(good.front)) == std::string::npos);
        const felt::chinese::Split b_split = felt::chinese::baseline_split(cards_of(b_cards));
        REQUIRE(back.call(split_request(table, b_split))["ok"] == true);
        const json end = next_kind(back, "deal_end");
        for (const json& arr : end["arrangements"])
            if (arr["seat"] != snap["your_seat"])
                CHECK(card_set(arr["back"]) == card_set(pack().to_string(good.back)));
        const std::int64_t hand_id = end["hand_id"];
        REQUIRE(a.call({{"type", "leave"}, {"table", table}})["ok"] == true);
        REQUIRE(back.call({{"type", "leave"}, {"table", table}})["ok"] == true);

        // History: the deal as A sees it; B's dealt cards stay B's, the reveal is everyone's.
        const json h = a.call({{"type", "hand"}, {"hand", hand_id}});
        REQUIRE(h["ok"] == true);
        CHECK(h["config"]["game"] == "chinese");
        CHECK(h["replay"] == json{{"matches", true}}); // the engine settles it the same again
        int deals = 0, reveals = 0, payments = 0;
        for (const json& e : h["events"]) {
            if (e["kind"] == "deal") {
                ++deals;
                CHECK(e.contains("cards") == (e["seat"] == h["your_seat"]));
            }
            reveals += e["kind"] == "reveal" && e.contains("front");
            payments += e["kind"] == "payment";
        }
        CHECK(deals == 2);
        CHECK(reveals == 2);
        CHECK(payments == static_cast<int>(end["payments"].size()));
        CHECK(a.call({{"type", "hand_phh"}, {"hand", hand_id}})["code"] == "not_poker");
        const json mine_list = a.call({{"type", "my_hands"}});
        REQUIRE(mine_list["hands"].size() == 1);
        CHECK(mine_list["hands"][0]["hand"] == hand_id);
        CHECK(mine_list["hands"][0]["net"] ==
              end["net"][mine_list["hands"][0]["seat"].get<std::size_t>()]);

        // A surrender at a scoop table: it pays the surrender units, and reveals no split.
        auto scoop = create(
            {{"profile", "scoop"}, {"surrender", true}, {"seats", 2}, {"hand_delay_ms", 2'000}});
        REQUIRE(scoop["ok"] == true);
        const std::int64_t table2 = scoop["table"];
        const json a_join = a.call({{"type", "join"}, {"table", table2}, {"buy_in", 100}});
        const json b_join = back.call({{"type", "join"}, {"table", table2}, {"buy_in", 100}});
        REQUIRE(a_join["ok"] == true);
        REQUIRE(b_join["ok"] == true);
        const json deal2 = next_kind(back, "deal");
        const json deal_a = next_kind(a, "deal");
        REQUIRE(a.call({{"type", "act"}, {"table", table2}, {"action", "surrender"}})["ok"] ==
                true);
        REQUIRE(back.call(split_request(table2, felt::chinese::baseline_split(
                                                    cards_of(deal2["cards"]))))["ok"] == true);
        const json end2 = next_kind(back, "deal_end");
        for (const json& arr : end2["arrangements"])
            CHECK(arr["surrender"] == (arr["seat"] == a_join["seat"]));
        check_settlement(scoop["config"], deal2, end2);
        // A surrender is a fold: its 13 cards are opened to their owner alone (`yours`), never
        // to the table (`shown`), live or in the history; the other seat's are everyone's.
        auto surrendered = [&](const json& fairness) {
            const auto f = fairness_check::check(deal2["commitment"], fairness);
            CHECK(fairness_check::derivable(fairness, f) == 0);
            CHECK(f.problems.empty());
            for (const std::string& card : card_set(deal_a["cards"])) CHECK(!f.shown.count(card));
            for (const std::string& card : card_set(deal2["cards"])) CHECK(f.shown.count(card));
            return std::set<std::string>(f.yours.begin(), f.yours.end());
        };
        CHECK(surrendered(end2["fairness"]).empty());
        const json end_a = next_kind(a, "deal_end");
        CHECK(surrendered(end_a["fairness"]) == card_set(deal_a["cards"]));
        const json record = json::parse(
            http_get(d.port(), "/api/hands/" + std::to_string(deal2["hand_id"].get<std::int64_t>()))
                .body);
        CHECK(surrendered(record["fairness"]).empty());
        CHECK(record["replay"]["matches"] == true);
        int reveals2 = 0;
        for (const json& e : record["events"]) {
            if (e["kind"] != "reveal" || e["seat"] != a_join["seat"]) continue;
            ++reveals2;
            CHECK(e["surrender"] == true);
            for (const char* row : {"front", "middle", "back"}) CHECK(e[row] == "");
        }
        CHECK(reveals2 == 1);
        REQUIRE(end2["payments"].size() == 1);
        CHECK(end2["payments"][0]["reason"] == "surrender");
        CHECK(end2["payments"][0]["from"] == a_join["seat"]);
        CHECK(end2["payments"][0]["to"] == b_join["seat"]);
        CHECK(end2["payments"][0]["units"] ==
              felt::chinese::find_profile("scoop")->surrender_units);
        REQUIRE(a.call({{"type", "leave"}, {"table", table2}})["ok"] == true);
        REQUIRE(back.call({{"type", "leave"}, {"table", table2}})["ok"] == true);
        CHECK(d.stop(SIGTERM) == 0);
    }
    check_database(dir, 2, 2);
    // A record altered behind the server's back no longer replays to its result.
    {
        felt::db::Database db(dir + "/data/felt.db");
        db.exec("UPDATE hand_seats SET stack_end = stack_end + 1 WHERE seat = 0");
    }
    {
        Feltd d({}, dir);
        const json h = json::parse(http_get(d.port(), "/api/hands/1").body);
        CHECK(h["replay"]["matches"] == false);
        CHECK(h["replay"]["reason"].get<std::string>().find("seat 0 ends with") == 0);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd chinese: preview judges a split in progress with the engine's words; a chosen "
          "deck, only on a test server") {
    // Without --chosen-decks nobody may choose the cards.
    {
        Feltd d;
        Client a(d.port());
        const json hi = a.call({{"type", "hello"}, {"version", felt::protocol::kVersion}});
        CHECK_FALSE(hi.contains("chosen_decks"));
        REQUIRE(a.call({{"type", "guest"}})["ok"] == true);
        const json made = a.call({{"type", "create_table"}, {"game", "chinese"}, {"seats", 2}});
        REQUIRE(a.call({{"type", "join"}, {"table", made["table"]}, {"buy_in", 100}})["ok"] ==
                true);
        CHECK(a.call({{"type", "choose_deck"},
                      {"table", made["table"]},
                      {"cards", "As Kd"}})["code"] == "not_testing");
    }
    Feltd d({"--chosen-decks"});
    Client a(d.port()), b(d.port()), poker(d.port());
    CHECK(a.call({{"type", "hello"}, {"version", felt::protocol::kVersion}})["chosen_decks"] ==
          true);
    b.hello();
    poker.hello();
    for (Client* c : {&a, &b, &poker}) REQUIRE(c->call({{"type", "guest"}})["ok"] == true);
    const json made = a.call({{"type", "create_table"}, {"game", "chinese"}, {"seats", 2}});
    REQUIRE(made["ok"] == true);
    const std::int64_t table = made["table"];
    // A spectator may choose (tests need no seat); a card the pack lacks, or holds fewer times.
    REQUIRE(a.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    CHECK(a.call({{"type", "choose_deck"}, {"table", table}, {"cards", "As Zz"}})["code"] ==
          "bad_card");
    CHECK(a.call({{"type", "choose_deck"}, {"table", table}, {"cards", "As As"}})["code"] ==
          "bad_card");
    CHECK(a.call({{"type", "choose_deck"}, {"table", table}})["code"] == "bad_request");
    CHECK(a.call({{"type", "preview"}, {"table", table}})["code"] == "not_seated");
    // Six pairs for whoever is dealt first, three flushes for the other, one card at a time.
    const std::string six_pairs = "2s 2h 3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8c";
    const std::string flushes = "2d 4d 6d 8d Td 3c 5c 7c 9c Jc 9s Js Ks";
    const auto x = cards_of(six_pairs), y = cards_of(flushes);
    std::string chosen;
    for (std::size_t i = 0; i < 13; ++i)
        chosen += pack().to_string(x[i]) + " " + pack().to_string(y[i]) + " ";
    const json ok = a.call({{"type", "choose_deck"}, {"table", table}, {"cards", chosen}});
    REQUIRE(ok["ok"] == true);
    CHECK(ok["cards"] == 26);
    REQUIRE(a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["ok"] == true);
    REQUIRE(b.call({{"type", "join"}, {"table", table}, {"buy_in", 100}})["ok"] == true);
    const std::string a_cards = next_kind(a, "deal")["cards"];
    const std::string b_cards = next_kind(b, "deal")["cards"];
    const bool a_pairs = card_set(a_cards) == card_set(six_pairs);
    Client& pairs = a_pairs ? a : b;
    Client& other = a_pairs ? b : a;
    REQUIRE(card_set(a_pairs ? b_cards : a_cards) == card_set(flushes));

    auto preview = [&](Client& c, json rows) {
        json r = {{"type", "preview"}, {"table", table}};
        r.update(rows);
        return c.call(r);
    };
    // Nothing placed yet: no rows, no foul, the special hands the cards can declare.
    json p = preview(pairs, json::object());
    REQUIRE(p["ok"] == true);
    CHECK(p["rows"]["front"].is_null());
    CHECK(p["foul"].is_null());
    REQUIRE(p["specials"].size() == 1);
    CHECK(p["specials"][0]["declare"] == "six_pairs");
    CHECK(p["specials"][0]["units"] == 3);
    const json declare_pairs = p["specials"][0];
    p = preview(other, json::object());
    REQUIRE(p["specials"].size() == 1);
    CHECK(p["specials"][0]["declare"] == "three_flushes");
    const json declare_flushes = p["specials"][0];
    // A split in progress: each row in words, and the foul before it is submitted.
    p = preview(other, {{"front", "9s 9c Jc"}, {"middle", "2d 4d 8d 3c Ks"}});
    CHECK(p["rows"]["front"]["category"] == "one_pair");
    CHECK(p["rows"]["front"]["words"] == "a pair of nines");
    CHECK(p["rows"]["middle"]["words"] == "king high");
    CHECK(p["rows"]["back"].is_null());
    CHECK(p["foul"]["code"] == "front_above_middle");
    CHECK(p["foul"]["message"] ==
          "front_above_middle: the front (a pair of nines) ranks above the middle (king high)");
    p = preview(other, {{"front", "9s Js Ks"}, {"back", "2d 4d 6d 8d Td"}});
    CHECK(p["foul"].is_null());
    CHECK(p["rows"]["back"]["words"] == "flush, ten high");
    // Cards that are not the asker's, twice, or too many for a row: refused, naming the card.
    CHECK(preview(other, {{"front", "2s 9s Js"}})["message"] == "2s is not one of your cards");
    CHECK(preview(other, {{"front", "9s Js Ks"}, {"middle", "9s 2d 4d 6d 8d"}})["code"] ==
          "duplicate_card");
    CHECK(preview(other, {{"front", "9s Js"}})["code"] == "wrong_count");
    CHECK(preview(other, {{"front", 7}})["code"] == "bad_request");
    // The splits the preview offered are declared as they are, and settle as special hands.
    // The reveal names each row's hand in the preview's words.
    std::map<std::string, std::string> words; // back's cards -> the words of the three rows
    for (auto [c, s] : {std::pair{&pairs, &declare_pairs}, std::pair{&other, &declare_flushes}}) {
        json act = {{"type", "act"}, {"table", table}, {"action", "split"}};
        for (const char* key : {"front", "middle", "back", "declare"}) act[key] = (*s)[key];
        const json rows = preview(
            *c,
            {{"front", (*s)["front"]}, {"middle", (*s)["middle"]}, {"back", (*s)["back"]}})["rows"];
        CHECK(rows["back"]["words"].is_string());
        words[(*s)["back"]] = rows["front"]["words"].get<std::string>() + "/" +
                              rows["middle"]["words"].get<std::string>() + "/" +
                              rows["back"]["words"].get<std::string>();
        REQUIRE(c->call(act)["ok"] == true);
    }
    const json end = next_kind(a, "deal_end");
    for (const json& arr : end["arrangements"]) {
        CHECK_FALSE(arr["declare"].is_null());
        CHECK(words[arr["back"]] == arr["words"]["front"].get<std::string>() + "/" +
                                        arr["words"]["middle"].get<std::string>() + "/" +
                                        arr["words"]["back"].get<std::string>());
    }
    // Once the deal is over there is nothing to preview; a poker table previews nothing.
    CHECK(preview(a, json::object())["code"] == "not_in_hand");
    const json holdem = poker.call({{"type", "create_table"}, {"game", "poker"}});
    REQUIRE(poker.call({{"type", "join"}, {"table", holdem["table"]}, {"buy_in", 100}})["ok"] ==
            true);
    CHECK(poker.call({{"type", "preview"}, {"table", holdem["table"]}})["code"] == "no_preview");
}

TEST_CASE("feltd chinese: a chip-limited pair settles once on its net; a hand stored before the "
          "rules' edition 2 settles again under edition 1") {
    char tmpl[] = "/tmp/feltd_test_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    // Issue 19's deal: A (the dealer, 3 chips) nets +1 against B, then has 2 chips of backing
    // left against C.
    const std::vector<felt::Card> a_cards = cards_of("Ks Kh 2c Qs Qh 3c 3d 4c 2d 4d 5d 7d 9d"),
                                  b_cards = cards_of("6s 6h Jc 8s 8h 8d Ac Tc 9s Ts Jd Qd Kd"),
                                  c_cards = cards_of("Ah 8c 3s Js Jh 9c 5c 6d 4s 4h 2s 2h Td");
    auto split_of = [](const std::vector<felt::Card>& c) {
        felt::chinese::Split s;
        std::copy(c.begin(), c.begin() + 3, s.front.begin());
        std::copy(c.begin() + 3, c.begin() + 8, s.middle.begin());
        std::copy(c.begin() + 8, c.end(), s.back.begin());
        return s;
    };
    std::int64_t hand_id = 0;
    {
        Feltd d({"--chosen-decks"}, dir);
        Client a(d.port()), b(d.port()), c(d.port());
        for (Client* x : {&a, &b, &c}) {
            x->hello();
            REQUIRE(x->call({{"type", "guest"}})["ok"] == true);
        }
        const json made = a.call({{"type", "create_table"},
                                  {"game", "chinese"},
                                  {"profile", "basic"},
                                  {"seats", 3},
                                  {"min_buy_in", 3},
                                  {"max_buy_in", 100},
                                  {"hand_delay_ms", 300}});
        REQUIRE(made["ok"] == true);
        const std::int64_t table = made["table"];
        // The first dealer is seat 0; cards go one at a time from its left: B, C, then A.
        std::string chosen;
        for (std::size_t k = 0; k < 13; ++k)
            for (const auto* cards : {&b_cards, &c_cards, &a_cards})
                chosen += pack().to_string((*cards)[k]) + " ";
        REQUIRE(a.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
        REQUIRE(a.call({{"type", "choose_deck"}, {"table", table}, {"cards", chosen}})["ok"] ==
                true);
        int seat = 0;
        for (auto [x, buy_in] : {std::pair{&a, 3}, std::pair{&b, 100}, std::pair{&c, 100}}) {
            const json joined =
                x->call({{"type", "join"}, {"table", table}, {"seat", seat++}, {"buy_in", buy_in}});
            REQUIRE_MESSAGE(joined["ok"] == true, joined.dump());
        }
        for (auto [x, cards] :
             {std::pair{&a, &a_cards}, std::pair{&b, &b_cards}, std::pair{&c, &c_cards}}) {
            const json deal = next_kind(*x, "deal");
            REQUIRE(card_set(deal["cards"]) == card_set(pack().to_string(*cards)));
            REQUIRE(x->call(split_request(table, split_of(*cards)))["ok"] == true);
        }
        const json end = next_kind(a, "deal_end");
        CHECK(end["stacks"] == json::array({6, 102, 95}));
        CHECK(end["payments"].size() == 9); // every row, listed with what it owed
        CHECK(end["settled"] == json::parse(R"([
            {"from": 1, "to": 0, "pass": "rest", "units": 1, "chips": 1},
            {"from": 2, "to": 0, "pass": "rest", "units": 3, "chips": 2},
            {"from": 2, "to": 1, "pass": "rest", "units": 3, "chips": 3}])"));
        hand_id = end["hand_id"];
        const json h = a.call({{"type", "hand"}, {"hand", hand_id}});
        CHECK(h["config"]["rules"] == felt::protocol::kRules);
        CHECK(h["replay"] == json{{"matches", true}});
        int settled = 0;
        for (const json& e : h["events"]) settled += e["kind"] == "settled";
        CHECK(settled == 3);
        for (Client* x : {&a, &b, &c})
            REQUIRE(x->call({{"type", "leave"}, {"table", table}})["ok"] == true);
        CHECK(d.stop(SIGTERM) == 0);
    }
    // The same record without its edition is a hand of edition 1, where each row used backing on
    // its own: A would have ended with 4, C with 97.
    const std::string path = "/api/hands/" + std::to_string(hand_id);
    {
        felt::db::Database db(dir + "/data/felt.db");
        db.exec("UPDATE hands SET config = json_remove(config, '$.rules')");
    }
    {
        Feltd d({}, dir);
        const json h = json::parse(http_get(d.port(), path).body);
        CHECK(h["replay"]["matches"] == false);
        CHECK(h["replay"]["reason"] == "seat 0 ends with 6, the engine says 4");
        CHECK(d.stop(SIGTERM) == 0);
    }
    {
        felt::db::Database db(dir + "/data/felt.db");
        db.exec("UPDATE hand_seats SET stack_end = 4 WHERE seat = 0");
        db.exec("UPDATE hand_seats SET stack_end = 97 WHERE seat = 2");
    }
    {
        Feltd d({}, dir);
        const json h = json::parse(http_get(d.port(), path).body);
        CHECK(h["replay"] == json{{"matches", true}});
        CHECK(d.stop(SIGTERM) == 0);
    }
    std::filesystem::remove_all(dir);
}
