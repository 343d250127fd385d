// feltd's own bots (server/bots/bot_host.h) against a real feltd: a table that asks for bots gets
// them when its first person sits and loses them with its last; they get up for a person; they
// play through the request layer, seeing only what their seat may see; their chips are granted
// within the bank, and the ledger balances.
#include "server/feltd_harness.h"
#include "storage/accounts.h"
#include "storage/sqlite.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace feltd_test;

namespace {

// Every card a message shows: the values of its "cards" (space-separated) and "card" fields, at
// any depth.
void cards_in(const json& j, std::multiset<std::string>& out) {
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            if ((key == "cards" || key == "card") && value.is_string()) {
                std::istringstream in(value.get<std::string>());
                for (std::string c; in >> c;) out.insert(c);
            } else {
                cards_in(value, out);
            }
        }
    } else if (j.is_array()) {
        for (const json& v : j) cards_in(v, out);
    }
}

bool is_bot(const json& m) {
    return m.value("name", "").rfind("bot-", 0) == 0;
}

// A hand as the person saw it: its hole cards and the messages (by seq) from their deal to the
// hand's end.
struct Dealt {
    std::string cards;
    std::int64_t from = 0, to = 0;
};

} // namespace

TEST_CASE("feltd's bots: they sit when the first person sits, get up for a second person, leave "
          "with the last; they see only their seat; their chips come from the bank") {
    char tmpl[] = "/tmp/feltd_bots_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl, log = dir + "/bots.log";
    Feltd d({"--bot-think-min-ms", "0", "--bot-think-max-ms", "0", "--bot-log", log, "--bot-bank",
             "5000"},
            dir);
    auto people = guests(d.port(), 3);
    Client &a = *people[0], &b = *people[1], &watcher = *people[2];

    // A table that did not ask for bots gets none.
    const std::int64_t plain =
        a.call({{"type", "create_table"}, {"seats", 4}, {"hand_delay_ms", 0}})["table"];
    REQUIRE(a.call({{"type", "join"}, {"table", plain}, {"buy_in", 200}})["ok"] == true);

    const json made = a.call({{"type", "create_table"},
                              {"seats", 4},
                              {"hand_delay_ms", 0},
                              {"decision_ms", 1000},
                              {"bots", {{"seats", 2}, {"level", "easy"}}}});
    REQUIRE(made["type"] == "create_table");
    CHECK(made["config"]["bots"] ==
          json{{"seats", 2}, {"level", "easy"}, {"leave_for_people", true}});
    const std::int64_t table = made["table"];
    REQUIRE(watcher.call({{"type", "spectate"}, {"table", table}})["ok"] == true);
    // Nobody sits yet: no bot either.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto taken = [&](std::int64_t id) {
        const json list = b.call({{"type", "tables"}});
        for (const json& t : list["tables"])
            if (t["id"] == id) return t["taken"].get<int>();
        return -1;
    };
    CHECK(taken(table) == 0);
    CHECK(taken(plain) == 1);
    REQUIRE(a.call({{"type", "leave"}, {"table", plain}})["ok"] == true);

    // The person sits: two bots follow, and hands are dealt. The person folds whenever it may
    // (checks otherwise), so that its cards are never shown.
    const json joined = a.call({{"type", "join"}, {"table", table}, {"buy_in", 200}});
    REQUIRE(joined["ok"] == true);
    const int mine = joined["seat"];
    std::vector<Dealt> hands;
    std::set<std::string> bot_names;
    int ended = 0, acted = 0;
    auto play = [&](Client& c, int seat, auto until) {
        for (int n = 0; n < 5000 && !until(); ++n) {
            auto m = c.read();
            REQUIRE(m.has_value());
            if ((*m)["type"] != "table" || (*m)["table"] != table) continue;
            const std::string kind = (*m).value("kind", "");
            if (kind == "seated" && is_bot(*m)) bot_names.insert((*m)["name"]);
            if (kind == "hand_end") {
                ++ended;
                if (!hands.empty() && hands.back().to == 0) hands.back().to = (*m)["seq"];
            }
            if (kind != "update") continue;
            for (const json& e : (*m)["events"])
                if (e.value("kind", "") == "deal_down" && e.value("seat", -1) == seat &&
                    e.contains("cards"))
                    hands.push_back({e["cards"], (*m)["seq"].get<std::int64_t>(), 0});
            if ((*m).contains("turn") && (*m)["turn"].value("seat", -1) == seat &&
                (*m)["turn"].contains("legal")) {
                const json& legal = (*m)["turn"]["legal"];
                ++acted;
                c.send(json{{"type", "act"},
                            {"id", 1000 + acted},
                            {"table", table},
                            {"action", legal.value("fold", false) ? "fold" : "check"}});
            }
        }
    };
    play(a, mine, [&] { return ended >= 4; });
    CHECK(bot_names.size() == 2);
    CHECK(taken(table) == 3);

    // A second person: one bot gets up (between hands) to keep a seat free.
    const json second = b.call({{"type", "join"}, {"table", table}, {"buy_in", 200}});
    REQUIRE(second["ok"] == true);
    int bots_left = 0;
    auto count_left = [&](Client& c, int want) {
        for (int n = 0; n < 5000 && bots_left < want; ++n) {
            auto m = c.read();
            REQUIRE(m.has_value());
            if ((*m)["type"] == "table" && (*m)["table"] == table && (*m)["kind"] == "left" &&
                is_bot(*m))
                ++bots_left;
            // The person keeps folding meanwhile.
            if ((*m)["type"] == "table" && (*m).value("kind", "") == "update" &&
                (*m).contains("turn") && (*m)["turn"].value("seat", -1) == mine &&
                (*m)["turn"].contains("legal"))
                c.send(json{
                    {"type", "act"},
                    {"id", 5000 + n},
                    {"table", table},
                    {"action", (*m)["turn"]["legal"].value("fold", false) ? "fold" : "check"}});
        }
    };
    count_left(a, 1);
    CHECK(bots_left == 1);
    CHECK(taken(table) == 3);

    // The people leave: so does the last bot.
    a.send(json{{"type", "leave"}, {"id", 9001}, {"table", table}});
    b.send(json{{"type", "leave"}, {"id", 9002}, {"table", table}});
    bots_left = 0;
    count_left(watcher, 2); // the watcher has seen both bots go
    CHECK(bots_left == 2);
    for (int i = 0; i < 100 && taken(table) != 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(taken(table) == 0);

    // What the bots were told: never the person's hole cards, in the hands the person folded.
    REQUIRE(hands.size() >= 3);
    std::ifstream in(log);
    int lines = 0, checked = 0;
    for (std::string line; std::getline(in, line);) {
        ++lines;
        const json entry = json::parse(line);
        CHECK(bot_names.contains(entry["bot"].get<std::string>()));
        const json m = json::parse(entry["message"].get<std::string>());
        if (m.value("type", "") != "table" || !m.contains("seq")) continue;
        const std::int64_t seq = m["seq"];
        std::multiset<std::string> seen;
        cards_in(m, seen);
        for (const Dealt& h : hands) {
            if (seq < h.from || (h.to && seq > h.to)) continue;
            ++checked;
            std::istringstream cards(h.cards);
            for (std::string c; cards >> c;) {
                CAPTURE(line);
                CHECK(!seen.contains(c));
            }
        }
    }
    CHECK(lines > 0);
    CHECK(checked > 0);

    // The bots' accounts: marked, funded by grants within the bank; every balance is its ledger.
    felt::db::Database db(dir + "/data/felt.db");
    CHECK(sql_int(db, "SELECT count(*) FROM accounts WHERE bot = 1") == 2);
    CHECK(sql_int(db, "SELECT count(*) FROM accounts WHERE bot = 1 AND name LIKE 'bot-%'") == 2);
    CHECK(sql_int(db, "SELECT count(*) FROM accounts WHERE bot = 0 AND name LIKE 'bot-%'") == 0);
    CHECK(sql_int(db, "SELECT sum(balance) FROM accounts WHERE bot = 1") <= 5000);
    CHECK(sql_int(db, "SELECT count(*) FROM ledger l JOIN accounts a ON a.id = l.account_id "
                      "WHERE a.bot = 1 AND l.reason = 'grant'") >= 2);
    CHECK(sql_int(db, "SELECT count(*) FROM accounts a WHERE a.balance != (SELECT "
                      "coalesce(sum(amount), 0) FROM ledger WHERE account_id = a.id)") == 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd's bots: a table's bots setting is checked, and nobody may take a bot's name") {
    Feltd d;
    auto people = guests(d.port(), 1);
    Client& a = *people[0];
    auto refused = [&](json bots) {
        const json r = a.call({{"type", "create_table"}, {"seats", 4}, {"bots", std::move(bots)}});
        CHECK(r["type"] == "error");
        CHECK(r["code"] == "bad_config");
        return r.value("message", "");
    };
    CHECK(refused(json{{"seats", 4}}).find("seats") != std::string::npos); // 3 at most
    CHECK(refused(json{{"seats", 0}}).find("seats") != std::string::npos);
    CHECK(refused(json{{"level", "genius"}}).find("level") != std::string::npos);
    CHECK(refused(json{{"seats", 1}, {"colour", "red"}}).find("colour") != std::string::npos);
    CHECK(refused(json(3)).find("object") != std::string::npos);
    Client stranger(d.port());
    stranger.hello();
    const json r =
        stranger.call({{"type", "register"}, {"name", "Bot-Ann"}, {"password", "secret-pw1"}});
    CHECK(r["type"] == "error");
    CHECK(r["code"] == "bad_name");
}

TEST_CASE("feltd's bots at a Chinese poker table: they sit with the person and split their own "
          "cards at every deal, each split the engine accepts") {
    Feltd d({"--bot-think-min-ms", "0", "--bot-think-max-ms", "0"});
    auto people = guests(d.port(), 1);
    Client& a = *people[0];
    const json made = a.call({{"type", "create_table"},
                              {"game", "chinese"},
                              {"seats", 4},
                              {"decision_ms", 1000},
                              {"hand_delay_ms", 0},
                              {"bots", {{"seats", 2}, {"level", "strong"}}}});
    REQUIRE(made["type"] == "create_table");
    CHECK(made["config"]["bots"] ==
          json{{"seats", 2}, {"level", "strong"}, {"leave_for_people", true}});
    const std::int64_t table = made["table"];
    const json joined = a.call({{"type", "join"}, {"table", table}, {"buy_in", 100}});
    REQUIRE(joined["ok"] == true);
    const int mine = joined["seat"];
    // The person splits as the hint says; the bots submit their own. (The first deal may be
    // dealt before the second bot sits.)
    int deals = 0, by_bots = 0, bots_by_clock = 0, bot_rows = 0;
    std::set<int> bot_seats;
    while (deals < 3) {
        auto m = a.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] == "hint" && (*m).contains("arrangements")) {
            json split = (*m)["arrangements"][0];
            split.erase("expected_units");
            split["type"] = "act";
            split["id"] = 100 + deals;
            split["table"] = table;
            split["action"] = "split";
            a.send(split);
        }
        if ((*m)["type"] != "table" || (*m)["table"] != table) continue;
        const std::string kind = (*m).value("kind", "");
        if (kind == "deal" && (*m).contains("cards"))
            a.send(json{{"type", "hint"}, {"id", 50 + deals}, {"table", table}, {"count", 1}});
        if (kind == "seated" && is_bot(*m)) bot_seats.insert((*m)["seat"].get<int>());
        if (kind == "submitted" && (*m)["seat"] != mine) {
            by_bots += (*m)["by"] == "player";
            bots_by_clock += (*m)["by"] == "server";
        }
        if (kind == "deal_end") {
            ++deals;
            // The bots' rows are shown as they split them (nobody surrenders at the classic
            // profile).
            for (const json& s : (*m)["arrangements"])
                if (bot_seats.contains(s.value("seat", -1))) {
                    CHECK(s["front"] != "");
                    CHECK(s["by"] == "player");
                    ++bot_rows;
                }
        }
    }
    CHECK(bot_seats.size() == 2);
    CHECK(bot_rows >= 2 * deals - 1);
    CHECK(by_bots == bot_rows);
    CHECK(bots_by_clock == 0);
}

TEST_CASE("feltd's bots: they leave when the only person sits out, and come back when the "
          "person sits in (bots never play on among themselves)") {
    Feltd d({"--bot-think-min-ms", "0", "--bot-think-max-ms", "0"});
    auto people = guests(d.port(), 1);
    Client& a = *people[0];
    const std::int64_t table = a.call({{"type", "create_table"},
                                       {"seats", 3},
                                       {"hand_delay_ms", 0},
                                       {"bots", {{"seats", 1}, {"level", "easy"}}}})["table"];
    const json joined = a.call({{"type", "join"}, {"table", table}, {"buy_in", 200}});
    REQUIRE(joined["ok"] == true);
    const int mine = joined["seat"];
    // Reads on until a bot has sat down (`seated`) or left, checking the person's turns.
    auto next_bot = [&](const std::string& kind) {
        for (int n = 0; n < 5000; ++n) {
            auto m = a.read();
            REQUIRE(m.has_value());
            if ((*m)["type"] != "table") continue;
            if ((*m)["kind"] == kind && is_bot(*m)) return true;
            if ((*m).value("kind", "") == "update" && (*m).contains("turn") &&
                (*m)["turn"].value("seat", -1) == mine && (*m)["turn"].contains("legal"))
                a.send(json{
                    {"type", "act"},
                    {"id", 7000 + n},
                    {"table", table},
                    {"action", (*m)["turn"]["legal"].value("check", false) ? "check" : "call"}});
        }
        return false;
    };
    CHECK(next_bot("seated"));
    a.send(json{{"type", "sit_out"}, {"id", 1}, {"table", table}});
    CHECK(next_bot("left"));
    a.send(json{{"type", "sit_in"}, {"id", 2}, {"table", table}});
    CHECK(next_bot("seated"));
}

TEST_CASE("feltd's bots at a leap rummy table: they play whole games on their own (pursue, meld, "
          "discard, retire), never waiting for the clock") {
    Feltd d({"--bot-think-min-ms", "0", "--bot-think-max-ms", "0"});
    auto people = guests(d.port(), 1);
    Client& a = *people[0];
    const json made = a.call({{"type", "create_table"},
                              {"game", "leap"},
                              {"seats", 4},
                              {"turn_ms", 10'000},
                              {"hand_delay_ms", 0},
                              {"bots", {{"seats", 2}, {"level", "fair"}}}});
    REQUIRE(made["type"] == "create_table");
    const std::int64_t table = made["table"];
    const json joined = a.call({{"type", "join"}, {"table", table}});
    REQUIRE(joined["ok"] == true);
    const int mine = joined["seat"];
    // The person retires at once, every game; the bots play on to the game's end.
    using Clock = std::chrono::steady_clock;
    std::set<int> bot_seats;
    int games = 0, bot_melds = 0, bot_discards = 0, bot_retired = 0, bots_timed_out = 0;
    double slowest_ms = 0;
    Clock::time_point told = Clock::now();
    bool bot_turn = false; // a bot's turn told (at `told`), not yet acted on
    while (games < 2) {
        auto m = a.read();
        REQUIRE(m.has_value());
        if ((*m)["type"] != "table" || (*m)["table"] != table) continue;
        const std::string kind = (*m).value("kind", "");
        const int seat = (*m).value("seat", -1);
        if (kind == "seated" && is_bot(*m)) bot_seats.insert(seat);
        if (bot_turn && kind != "turn") { // the bot's step
            slowest_ms = std::max(
                slowest_ms, std::chrono::duration<double, std::milli>(Clock::now() - told).count());
            bot_turn = false;
        }
        if (kind == "turn" && bot_seats.contains(seat)) {
            bot_turn = true;
            told = Clock::now();
        }
        if (kind == "turn" && seat == mine && (*m)["phase"] == "turn")
            a.send(json{{"type", "act"}, {"id", 1}, {"table", table}, {"action", "retire"}});
        if (bot_seats.contains(seat)) {
            bot_melds += kind == "melded" || kind == "extended" || kind == "joined";
            bot_discards += kind == "discarded";
            bot_retired += kind == "retired";
            bots_timed_out += kind == "timed_out";
        }
        games += kind == "game_end";
    }
    CHECK(bot_seats.size() == 2);
    CHECK(bot_discards > 0);
    CHECK(bot_retired >= 2);
    CHECK(bot_melds > 0);
    // No turn of a bot's was left to the clock.
    CHECK(bots_timed_out == 0);
    MESSAGE("bots: " << bot_melds << " melds or extensions, " << bot_discards
                     << " discards; slowest step " << slowest_ms << " ms");
}
