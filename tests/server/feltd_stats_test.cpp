// Player statistics in feltd (docs/stats.md): counted at each hand's end, in the same transaction;
// equal to the stored hands replayed from their logs, whose PHH the slow reference counts the
// same; the hands stored before, counted in the background after a restart; the `stats` request
// and its refusals.
#include "bot.h"
#include "games/games.h"
#include "poker/phh.h"
#include "reference_stats.h"
#include "server/feltd_harness.h"
#include "storage/sqlite.h"
#include "storage/sqlite_store.h"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <set>
#include <thread>

using namespace feltd_test;
using felt::Chips;
using felt::server::HandRecord;
using felt::server::SqliteStore;
using felt::server::StatsFilter;
namespace stats = felt::stats;

namespace {

#ifdef FELT_SANITIZE
constexpr int kHands = 8; // hands each table plays: a few under the sanitizers
#else
constexpr int kHands = 150;
#endif

// Every variant, in a structure each, three seats a table.
const std::vector<std::pair<const char*, const char*>> kTables = {
    {"holdem", "no-limit"},
    {"omaha", "pot-limit"},
    {"short-deck", "no-limit"},
    {"omaha-hilo", "fixed-limit"},
    {"stud", "fixed-limit"},
    {"razz", "fixed-limit"},
    {"stud-hilo", "fixed-limit"},
    {"mexican", "pot-limit"},
    {"draw", "fixed-limit"},
    {"deuce-single-draw", "no-limit"},
    {"deuce-triple-draw", "fixed-limit"},
    {"badugi", "fixed-limit"},
    {"shrinking", "pot-limit"},
    {"straight", "no-limit"},
};

// The other games, beside poker's tables: Chinese poker deals (the scoop profile, whose
// surrender and scoops count) and leap rummy games, each bot's own.
#ifdef FELT_SANITIZE
constexpr int kDeals = 2, kGames = 1;
#else
constexpr int kDeals = 10, kGames = 2;
#endif

using Totals = std::map<std::string, stats::Totals>; // by game

// Each account's totals by game, as storage adds its rows up (cash hands).
std::map<std::int64_t, Totals> stored_totals(const std::string& db_path,
                                             const std::set<std::int64_t>& accounts) {
    SqliteStore store(db_path, Chips(0), SqliteStore::Role::reader);
    std::map<std::int64_t, Totals> out;
    for (std::int64_t a : accounts)
        for (const char* game : {"poker", "chinese", "leap"}) {
            StatsFilter f;
            f.game = game;
            out[a][game] = store.stats_of(a, f);
        }
    return out;
}

// The table overlay's and the search's rows, as text.
std::vector<std::string> pair_and_search_rows(const std::string& db_path) {
    felt::db::Database db(db_path);
    std::vector<std::string> out;
    for (const char* sql : {"SELECT account_id, opponent_id, hands, vpip_t, vpip_o, pfr_t, pfr_o "
                            "FROM opponent_stats ORDER BY 1, 2",
                            "SELECT account_id, hand_id, hole, position, net, pot, flags FROM "
                            "hand_search ORDER BY 1, 2"}) {
        felt::db::Statement q(db, sql);
        while (q.step()) {
            std::string row;
            for (int c = 0; c < 7; ++c) row += q.column_text(c) + " ";
            out.push_back(row);
        }
    }
    return out;
}

void same_totals(const stats::Totals& got, const stats::Totals& want) {
    CHECK(got.hands == want.hands);
    CHECK(got.ev_net == doctest::Approx(want.ev_net));
    CHECK(got.deal == want.deal);
    CHECK(got.net == want.net);
    CHECK(got.rake == want.rake);
    CHECK(got.showdown_net == want.showdown_net);
    CHECK(got.units == doctest::Approx(want.units));
    CHECK(got.sum_bb == doctest::Approx(want.sum_bb));
    CHECK(got.sum_bb_squared == doctest::Approx(want.sum_bb_squared));
    for (int i = 0; i < stats::kStats; ++i) {
        CAPTURE(stats::stat_name(static_cast<stats::Stat>(i)));
        CHECK(got.tallies[static_cast<std::size_t>(i)] ==
              want.tallies[static_cast<std::size_t>(i)]);
    }
}

} // namespace

TEST_CASE("feltd: statistics counted at each hand's end equal the stored hands replayed, in every "
          "variant; the slow reference agrees; hands stored before are counted after a restart") {
    char tmpl[] = "/tmp/feltd_stats_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl, db_path = dir + "/data/felt.db";
    std::map<std::int64_t, Totals> live;
    std::set<std::int64_t> accounts;
    {
        Feltd d({}, dir);
        auto hosts = guests(d.port(), 4); // five tables each at most
        // Each table's three bots play at once, a thread a table.
        std::vector<std::future<felt::bot::Report>> runs;
        for (std::size_t i = 0; i < kTables.size(); ++i) {
            const auto& [variant, structure] = kTables[i];
            const json made = hosts[i / 5]->call({{"type", "create_table"},
                                                  {"variant", variant},
                                                  {"structure", structure},
                                                  {"seats", 3},
                                                  {"hand_delay_ms", 0},
                                                  {"decision_ms", 4000}});
            REQUIRE_MESSAGE(made["ok"] == true, made.dump());
            felt::bot::Options o;
            o.port = std::to_string(d.port());
            o.join = made["table"];
            o.seats = 3;
            o.hands = kHands;
            o.level = i == 0 ? "" : "easy";
            o.shove = i == 0; // hold'em's bots go all in: all-in EV and the search's all-in flag
            runs.push_back(std::async(std::launch::async, [o] { return felt::bot::run(o); }));
        }
        for (const json& table : {json{{"game", "chinese"},
                                       {"profile", "scoop"},
                                       {"surrender", true},
                                       {"seats", 3},
                                       {"hand_delay_ms", 0},
                                       {"decision_ms", 4000}},
                                  json{{"game", "leap"},
                                       {"seats", 3},
                                       {"chips_per_point", 1},
                                       {"hand_delay_ms", 0},
                                       {"turn_ms", 20'000}}}) {
            json create = table;
            create["type"] = "create_table";
            const json made = hosts[3]->call(create);
            REQUIRE_MESSAGE(made["ok"] == true, made.dump());
            felt::bot::Options o;
            o.port = std::to_string(d.port());
            o.join = made["table"];
            o.seats = 3;
            o.hands = table["game"] == "chinese" ? kDeals : kGames;
            o.level = table["game"] == "chinese" ? "strong" : "fair";
            runs.push_back(std::async(std::launch::async, [o] { return felt::bot::run(o); }));
        }
        for (auto& r : runs) {
            const felt::bot::Report report = r.get();
            CHECK_MESSAGE(report.errors.empty(), (report.errors.empty() ? "" : report.errors[0]));
        }
        d.stop(SIGTERM);
    }
    // Every finished hand replayed from its log, its lines added up by account; and its PHH
    // counted by the slow reference, player by player, against the engine's count of the same.
    std::map<std::int64_t, Totals> replayed;
    std::map<std::string, long> games; // hands stored, by game
    long hands = 0, judged = 0;
    {
        felt::db::Database db(db_path);
        SqliteStore store(db_path, Chips(0), SqliteStore::Role::reader);
        felt::db::Statement q(db, "SELECT id FROM hands WHERE status = 'finished' ORDER BY id");
        while (q.step()) {
            const std::int64_t id = q.column_int(0);
            auto record = store.hand_record(id);
            REQUIRE(record);
            const json cfg = json::parse(record->config);
            const std::string game = cfg.value("game", "poker");
            const felt::server::GameEntry* entry = felt::server::find_game(game);
            REQUIRE(entry);
            auto rows = entry->stats(*record, cfg);
            REQUIRE_MESSAGE(rows.ok(), rows.error().message);
            for (const felt::server::StatsRow& r : rows.value()) {
                stats::Totals& t = replayed[r.account][game];
                t.add(r.line, r.stake);
                t.deal += r.deal;
                accounts.insert(r.account);
            }
            ++games[game];
            if (game != "poker") continue;
            ++hands;
            auto text = felt::server::kPokerGame.phh(*record, cfg, -1);
            REQUIRE(text.ok());
            auto ref = felt::test::reference_stats(text.value());
            if (!ref) continue;
            auto again = felt::poker::replay_phh(text.value());
            if (!again.ok() || again.value().undecided) continue;
            ++judged;
            for (const stats::Line& l : stats::count_replay(again.value()).lines) {
                const auto& want = ref->at("p" + std::to_string(l.seat + 1)).stats;
                for (const auto& [name, tally] : want)
                    for (int i = 0; i < stats::kStats; ++i)
                        if (stats::stat_name(static_cast<stats::Stat>(i)) == name) {
                            CAPTURE(name);
                            CHECK(l.tallies[static_cast<std::size_t>(i)].times == tally.first);
                            CHECK(l.tallies[static_cast<std::size_t>(i)].opportunities ==
                                  tally.second);
                        }
            }
        }
    }
    MESSAGE(hands, " hands stored, ", judged, " judged by the reference, ", accounts.size(),
            " players; ", games["chinese"], " Chinese poker deals, ", games["leap"],
            " leap rummy games");
    CHECK(games["chinese"] >= kDeals);
    CHECK(games["leap"] >= kGames);
    // What the other games count adds up across the table: units won are units lost, every
    // deal a special or not, every game won by someone, its melds someone's.
    stats::Totals chinese, leap;
    for (auto& [a, t] : replayed) {
        chinese += t["chinese"];
        leap += t["leap"];
    }
    CHECK(chinese.deal.units == 0);
    CHECK(chinese.deal.specials.opportunities == chinese.hands);
    CHECK(chinese.deal.surrenders.opportunities == chinese.hands);
    CHECK(chinese.deal.scoops.opportunities > 0);
    CHECK(chinese.net + chinese.rake == Chips(0));
    CHECK(leap.deal.wins.opportunities == leap.hands);
    CHECK(leap.deal.wins.times >= games["leap"]);
    CHECK(leap.deal.melds > 0);
    CHECK(leap.net == Chips(0));
    // Every table plays its hands but the shoving one, whose bots go broke sooner.
    CHECK(hands >= static_cast<long>(kTables.size() - 1) * kHands);
    CHECK(judged > hands / 3);
    live = stored_totals(db_path, accounts);
    for (std::int64_t a : accounts) {
        CAPTURE(a);
        for (const auto& [game, t] : replayed[a]) {
            CAPTURE(game);
            same_totals(live[a][game], t);
        }
    }
    const std::vector<std::string> pairs_live = pair_and_search_rows(db_path);
    {
        felt::db::Database db(db_path);
        // A search row for each player of each poker hand; hold'em's with its two cards' class.
        CHECK(sql_int(db, "SELECT COUNT(*) FROM hand_search") ==
              sql_int(db, "SELECT COUNT(*) FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                          "WHERE h.status = 'finished' AND h.config LIKE '%\"game\":\"poker\"%'"));
        CHECK(sql_int(db, "SELECT COUNT(*) FROM hand_search WHERE hole <> ''") > 0);
        CHECK(sql_int(db, "SELECT COUNT(*) FROM hand_search WHERE flags & 2 = 2") > 0);
        CHECK(sql_int(db, "SELECT COUNT(*) FROM hand_logs WHERE body LIKE '%\"all_in_ev\"%'") > 0);
    }
    // As if the hands were stored by a feltd that did not count them: the next start counts them
    // in the background, to the same sums.
    {
        felt::db::Database db(db_path);
        db.exec("DELETE FROM player_stats; DELETE FROM opponent_stats; DELETE FROM hand_search; "
                "UPDATE hands SET stats_counted = 0");
    }
    {
        Feltd d({}, dir);
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        for (;;) {
            felt::db::Database db(db_path);
            if (sql_int(db, "SELECT COUNT(*) FROM hands WHERE stats_counted = 0 AND status = "
                            "'finished'") == 0)
                break;
            REQUIRE(std::chrono::steady_clock::now() < until);
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        d.stop(SIGTERM);
    }
    const auto counted_after = stored_totals(db_path, accounts);
    // The table overlay's pairs and the search's rows are counted back the same.
    CHECK(pair_and_search_rows(db_path) == pairs_live);
    CHECK(pairs_live.size() > accounts.size());
    for (std::int64_t a : accounts) {
        CAPTURE(a);
        for (const auto& [game, t] : live[a]) {
            CAPTURE(game);
            same_totals(counted_after.at(a).at(game), t);
        }
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("feltd: the stats request: the asker's own, filtered; zeros for no hands; unknown "
          "filters, bad days and another player's name refused by name") {
    Feltd d;
    std::vector<std::unique_ptr<Client>> people;
    std::vector<std::string> names;
    for (int i = 0; i < 2; ++i) {
        people.push_back(std::make_unique<Client>(d.port()));
        people.back()->hello();
        const json g = people.back()->call({{"type", "guest"}});
        REQUIRE(g["ok"] == true);
        names.push_back(g["account"]["name"]);
    }
    Client& ann = *people[0];
    auto ask = [&](json body) {
        body["type"] = "stats";
        return ann.call(body);
    };
    // No hands yet: zeros with zero opportunities.
    const json none = ask({});
    REQUIRE_MESSAGE(none["ok"] == true, none.dump());
    CHECK(none["stats"]["hands"] == 0);
    CHECK(none["stats"]["bb_per_100"] == 0);
    CHECK(none["stats"]["vpip"] == json{{"times", 0}, {"opportunities", 0}});
    CHECK(none["filter"]["kind"] == "cash");
    CHECK(none["filter"]["game"] == "poker"); // one game at a time: poker unless named
    CHECK(none["days"] == json::array());
    const json no_deals = ask({{"game", "chinese"}, {"variant", "scoop"}});
    REQUIRE_MESSAGE(no_deals["ok"] == true, no_deals.dump());
    CHECK(no_deals["stats"]["units_per_deal"] == 0);
    CHECK(no_deals["stats"]["scoops"] == json{{"times", 0}, {"opportunities", 0}});
    const json no_games = ask({{"game", "leap"}});
    CHECK(no_games["stats"]["average_score"] == 0);
    CHECK(no_games["stats"]["wins"] == json{{"times", 0}, {"opportunities", 0}});
    const json no_tournaments = ask({{"kind", "tournament"}});
    CHECK(no_tournaments["tournaments"]["entries"] == 0);
    CHECK(no_tournaments["tournaments"]["roi"] == 0);
    // Bad input, each named.
    struct Bad {
        json body;
        const char* code;
        const char* field;
    };
    for (const Bad& b :
         {Bad{{{"colour", "red"}}, "bad_request", "colour"},
          Bad{{{"from", "2026-13-01"}}, "bad_request", "from"},
          Bad{{{"to", "yesterday"}}, "bad_request", "to"},
          Bad{{{"from", "2026-05-02"}, {"to", "2026-05-01"}}, "bad_request", "from"},
          Bad{{{"variant", "pineapple"}}, "bad_request", "variant"},
          Bad{{{"structure", "spread-limit"}}, "bad_request", "structure"},
          Bad{{{"stakes", 0}}, "bad_request", "stakes"},
          Bad{{{"position", "under_the_gun"}}, "bad_request", "position"},
          Bad{{{"table_size", 11}}, "bad_request", "table_size"},
          Bad{{{"kind", "freeroll"}}, "bad_request", "kind"},
          Bad{{{"game", "bridge"}}, "bad_request", "game"},
          Bad{{{"game", "chinese"}, {"variant", "holdem"}}, "bad_request", "variant"},
          Bad{{{"game", "leap"}, {"variant", "scoop"}}, "bad_request", "variant"}}) {
        CAPTURE(b.body.dump());
        const json r = ask(b.body);
        CHECK(r["type"] == "error");
        CHECK(r["code"] == b.code);
        CHECK(r["field"] == b.field);
    }
    CHECK(ask({{"name", names[1]}})["code"] == "private");
    CHECK(ask({{"name", names[0]}})["ok"] == true); // her own, named
    // Ann plays heads-up against Bob: her own figures, and the filters select them.
    const json made = ann.call({{"type", "create_table"},
                                {"variant", "holdem"},
                                {"structure", "no-limit"},
                                {"seats", 2},
                                {"hand_delay_ms", 0}});
    REQUIRE(made["ok"] == true);
    const std::int64_t table = made["table"];
    for (auto& c : people)
        REQUIRE(c->call({{"type", "join"}, {"table", table}, {"buy_in", 200}})["ok"] == true);
    // Each checks or calls, or folds where nothing else may be done, for a few hands.
    int ended = 0, id = 100;
    while (ended < 3) {
        for (auto& c : people) {
            auto m = c->read();
            REQUIRE(m.has_value());
            if ((*m)["type"] != "table") continue;
            if ((*m)["kind"] == "hand_end" && c.get() == &ann) ++ended;
            if ((*m)["kind"] != "update" || !m->contains("turn") || !(*m)["turn"].contains("legal"))
                continue;
            const json& legal = (*m)["turn"]["legal"];
            c->send(json{{"type", "act"},
                         {"id", ++id},
                         {"table", table},
                         {"action", legal.value("check", false) ? "check" : "call"}});
        }
    }
    // Storage has the hands once their ends are told.
    const json mine = ask({});
    REQUIRE(mine["ok"] == true);
    CHECK(mine["stats"]["hands"].get<int>() >= 3);
    CHECK(mine["stats"]["vpip"]["opportunities"].get<int>() >= 3);
    // Today's point of the profit graph: every hand, its net; no all-in, so the EV net is it.
    REQUIRE(mine["days"].size() == 1);
    CHECK(mine["days"][0]["hands"] == mine["stats"]["hands"]);
    CHECK(mine["days"][0]["net"] == mine["stats"]["net"]);
    CHECK(mine["days"][0]["showdown_net"] == mine["stats"]["showdown_net"]);
    CHECK(mine["stats"]["ev_net"] == mine["stats"]["net"]);
    CHECK(ask({{"game", "chinese"}})["stats"]["hands"] == 0);
    CHECK(ask({{"variant", "holdem"},
               {"structure", "no-limit"},
               {"table_size", 2}})["stats"]["hands"] == mine["stats"]["hands"]);
    CHECK(ask({{"variant", "omaha"}})["stats"]["hands"] == 0);
    CHECK(ask({{"stakes", 2}})["stats"]["hands"] == mine["stats"]["hands"]); // blinds 1-2
    CHECK(ask({{"stakes", 4}})["stats"]["hands"] == 0);
    CHECK(ask({{"kind", "tournament"}})["stats"]["hands"] == 0);
    CHECK(ask({{"from", "2000-01-01"}, {"to", "2000-12-31"}})["stats"]["hands"] == 0);
    // The table overlay: what Ann saw of Bob, from these hands only; a stranger, zeros.
    const json seen =
        ann.call({{"type", "opponent_stats"}, {"names", {names[1], "nobody-at-all"}}});
    REQUIRE_MESSAGE(seen["ok"] == true, seen.dump());
    CHECK(seen["opponents"][0]["name"] == names[1]);
    CHECK(seen["opponents"][0]["hands"] == mine["stats"]["hands"]);
    CHECK(seen["opponents"][0]["vpip"]["opportunities"].get<int>() <=
          mine["stats"]["hands"].get<int>());
    CHECK(seen["opponents"][0]["vpip"]["times"].get<int>() >= 1); // he checks or calls
    CHECK(seen["opponents"][1]["hands"] == 0);
    for (const json& bad :
         {json::array(), json("bob"), json{1, 2}, json(std::vector<std::string>(11, "x"))}) {
        const json r = ann.call({{"type", "opponent_stats"}, {"names", bad}});
        CHECK(r["code"] == "bad_request");
        CHECK(r["field"] == "names");
    }
    // The search over her hands: every one of them, newest first, each with her two cards; each
    // filter selects what it says.
    auto search = [&](json body) {
        body["type"] = "hand_search";
        const json r = ann.call(body);
        REQUIRE_MESSAGE(r["ok"] == true, r.dump());
        return r["hands"];
    };
    const json all = search({});
    CHECK(all.size() == mine["stats"]["hands"].get<std::size_t>());
    for (std::size_t i = 1; i < all.size(); ++i) CHECK(all[i - 1]["hand"] > all[i]["hand"]);
    const std::string hole = all[0]["hole"];
    CHECK((hole.size() == 2 || hole.size() == 3));
    bool listed = false;
    for (const json& h : search({{"hand", hole}})) {
        CHECK(h["hole"] == hole);
        listed = listed || h["hand"] == all[0]["hand"];
    }
    CHECK(listed);
    for (const json& h : search({{"hand", "pairs"}}))
        CHECK(h["hole"].get<std::string>().size() == 2);
    for (const json& h : search({{"result", "won"}})) CHECK(h["net"].get<int>() > 0);
    for (const json& h : search({{"showdown", true}})) CHECK(h["showdown"] == true);
    for (const json& h : search({{"min_pot", 6}})) CHECK(h["pot"].get<int>() >= 6);
    CHECK(search({{"table", table}}).size() == all.size());
    CHECK(search({{"table", table + 1000}}).empty());
    const json page = ann.call({{"type", "hand_search"}, {"limit", 1}});
    CHECK(page["hands"].size() == 1);
    CHECK(page["next"] == all[0]["hand"]);
    CHECK(search({{"before", all[0]["hand"]}}).size() == all.size() - 1);
    for (const Bad& b : {Bad{{{"hand", "AAs"}}, "bad_request", "hand"},
                         Bad{{{"hand", "XK"}}, "bad_request", "hand"},
                         Bad{{{"result", "tied"}}, "bad_request", "result"},
                         Bad{{{"showdown", "yes"}}, "bad_request", "showdown"},
                         Bad{{{"min_pot", -1}}, "bad_request", "min_pot"},
                         Bad{{{"from", "2026-02-30x"}}, "bad_request", "from"},
                         Bad{{{"colour", "red"}}, "bad_request", "colour"}}) {
        json body = b.body;
        body["type"] = "hand_search";
        const json r = ann.call(body);
        CHECK(r["code"] == b.code);
        CHECK(r["field"] == b.field);
    }
    const json positions = ask({{"position", "big_blind"}});
    const json button = ask({{"position", "small_blind"}}); // heads-up the button's blind
    CHECK(positions["stats"]["hands"].get<int>() + button["stats"]["hands"].get<int>() ==
          mine["stats"]["hands"].get<int>());
}

TEST_CASE("feltd --no-table-stats: the overlay is refused, and hello says so") {
    Feltd d({"--no-table-stats"});
    Client c(d.port());
    const json hello = c.call({{"type", "hello"}, {"version", 2}});
    CHECK(hello["table_stats"] == false);
    REQUIRE(c.call({{"type", "guest"}})["ok"] == true);
    const json r = c.call({{"type", "opponent_stats"}, {"names", {"bob"}}});
    CHECK(r["code"] == "disabled");
    CHECK(c.call({{"type", "stats"}})["ok"] == true); // one's own figures still shown
    Feltd plain;
    Client p(plain.port());
    CHECK_FALSE(p.call({{"type", "hello"}, {"version", 2}}).contains("table_stats"));
}
