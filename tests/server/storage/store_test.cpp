// The Store interface (storage/store.h) on both engines, with the same checks: whatever SQLite
// does, PostgreSQL does the same, to the refusal's code, the chip and the event's last byte.
#include "server/storage/engines.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

using namespace felt_test;

namespace {

// ISO 8601 as both engines give it: 2026-11-26T04:11:25.123Z.
bool iso_time(const std::string& t) {
    const std::string shape = "dddd-dd-ddTdd:dd:dd.dddZ";
    if (t.size() != shape.size()) return false;
    for (std::size_t i = 0; i < t.size(); ++i)
        if (shape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(t[i])) : t[i] != shape[i])
            return false;
    return true;
}

void accounts_and_sessions(const Engine& e) {
    auto store = e.open(true);
    const std::string hash = hash_password("correct horse");
    auto ann = store->create_account("Ann", hash);
    REQUIRE(ann.ok());
    CHECK(ann.value->balance == Chips(1000));
    CHECK(store->create_account("aNN", hash).refusal.code == "name_taken"); // names ignore case
    auto found = store->find_with_hash("ANN");
    REQUIRE(found.has_value());
    CHECK(found->first.name == "Ann");
    CHECK(found->second == hash);
    CHECK(store->find_account(ann.value->id)->balance == Chips(1000));
    CHECK_FALSE(store->find_account(ann.value->id + 1000).has_value());
    CHECK_FALSE(store->find_with_hash("nobody").has_value());

    auto guest = store->create_guest();
    REQUIRE(guest.ok());
    CHECK(guest.value->guest);
    CHECK(guest.value->name.rfind("guest-", 0) == 0);
    CHECK_FALSE(store->find_with_hash(guest.value->name).has_value()); // no password login
    CHECK(store->find_account(guest.value->id)->guest);

    // The server's bots: marked, named bot-, made with nothing, funded by grants within the bank.
    CHECK(store->bot_accounts().empty());
    const Account bot = store->create_bot();
    const Account bot2 = store->create_bot();
    CHECK(bot.bot);
    CHECK(bot.name.rfind("bot-", 0) == 0);
    CHECK(bot.name != bot2.name);
    CHECK(bot.balance == Chips());
    CHECK_FALSE(store->find_with_hash(bot.name).has_value()); // no password login
    const auto bots = store->bot_accounts();
    REQUIRE(bots.size() == 2);
    CHECK(bots[0].id == bot.id);
    CHECK(bots[1].id == bot2.id);
    CHECK(bots[0].bot);
    CHECK_FALSE(store->fund_bot(bot.id, Chips(300), Chips(500)).has_value());
    CHECK(store->find_account(bot.id)->balance == Chips(300));
    // 300 held: 201 more would pass a bank of 500, 200 does not.
    CHECK(store->fund_bot(bot2.id, Chips(201), Chips(500))->code == "bot_bank_spent");
    CHECK(store->find_account(bot2.id)->balance == Chips());
    CHECK_FALSE(store->fund_bot(bot2.id, Chips(200), Chips(500)).has_value());
    CHECK(e.scalar("SELECT COUNT(*) FROM ledger WHERE reason = 'grant' AND account_id IN (" +
                   std::to_string(bot.id) + ", " + std::to_string(bot2.id) + ")") == 2);
    CHECK(e.scalar("SELECT COUNT(*) FROM accounts WHERE bot = 1") == 2);

    const std::string token = store->open_session(ann.value->id);
    CHECK(token.size() == 64);
    CHECK(store->resume(token).value->name == "Ann");
    CHECK(e.scalar("SELECT COUNT(*) FROM sessions WHERE used_at IS NOT NULL") == 1);
    CHECK(store->resume("nonsense").refusal.code == "unauthorized");
    store->revoke(token);
    CHECK(store->resume(token).refusal.code == "unauthorized");
    CHECK(e.scalar("SELECT COUNT(*) FROM sessions WHERE token_hash = '" + token + "'") == 0);

    // Tokens expire 14 days unused and 90 days after they were issued, whichever comes first.
    auto aged = [&](int created, int used) {
        const std::string t = store->open_session(ann.value->id);
        e.exec("UPDATE sessions SET created_at = " + e.ago(created) + ", used_at = " + e.ago(used) +
               " WHERE token_hash = '" + token_hash(t) + "'");
        return t;
    };
    auto reader = e.open(false); // reads without counting as a use
    CHECK(reader->resume(aged(13, 13)).ok());
    CHECK_FALSE(reader->resume(aged(15, 15)).ok());
    CHECK(reader->resume(aged(89, 1)).ok());
    CHECK_FALSE(reader->resume(aged(91, 1)).ok());
    const std::string used = aged(20, 13);
    REQUIRE(store->resume(used).ok()); // a use counts: 14 more days
    CHECK(e.scalar("SELECT COUNT(*) FROM sessions WHERE token_hash = '" + token_hash(used) +
                   "' AND used_at > " + e.ago(1)) == 1);

    const std::string keep = store->open_session(ann.value->id);
    const std::string other = store->open_session(ann.value->id);
    store->revoke_all(ann.value->id, keep);
    CHECK(store->resume(keep).ok());
    CHECK_FALSE(store->resume(other).ok());
    store->change_password(ann.value->id, hash_password("a new one here"), keep);
    CHECK(verify_password(store->find_with_hash("ann")->second, "a new one here"));
    CHECK(store->resume(keep).ok());
    store->revoke_all(ann.value->id, "");
    CHECK_FALSE(store->resume(keep).ok());
    ledger_balances(e);
}

void tables_and_hands(const Engine& e) {
    auto store = e.open(true);
    const auto ann = *store->create_account("ann", hash_password("correct horse")).value;
    const auto bob = *store->create_guest().value;
    const std::int64_t table = store->create_table(R"({"game":"holdem"})", ann.id);
    CHECK(table > 0);
    CHECK_FALSE(store->buy_in(table, 0, ann.id, Chips(300)));
    CHECK(store->find_account(ann.id)->balance == Chips(700));
    const auto no = store->buy_in(table, 1, bob.id, Chips(1001));
    REQUIRE(no.has_value());
    CHECK(no->code == "insufficient_chips");
    CHECK(no->message == "the balance is 1000, short of 1001");
    CHECK(e.scalar("SELECT COUNT(*) FROM table_seats") == 1); // nothing of the refused one
    CHECK_FALSE(store->buy_in(table, 1, bob.id, Chips(500)));
    CHECK(store->top_up(table, 1, bob.id, Chips(600))->code == "insufficient_chips");
    CHECK_FALSE(store->top_up(table, 1, bob.id, Chips(100)));
    CHECK_THROWS(store->top_up(table, 5, bob.id, Chips(1))); // no such seat: nothing moves
    CHECK(store->find_account(bob.id)->balance == Chips(400));
    CHECK(e.scalar("SELECT stack FROM table_seats WHERE seat = 1") == 600);

    // A hand, its seats and its events: the events come back byte for byte.
    CHECK(store->last_hand_id() == 0);
    store->start_hand({7, table, 1, R"({"hand":1})", "c0ffee"});
    CHECK(store->last_hand_id() == 7);
    std::vector<std::string> log = {R"({"type":"deal","cards":["As","Kd"]})",
                                    R"({"say":"quote \" backslash \\ comma , brace }"})",
                                    "{\"name\":\"Zoë ♠ 東\"}", "{}"};
    // Longer than a hand's usual log, and than the rows one statement writes (16).
    for (int i = 0; i < 33; ++i) log.push_back(R"({"seq":)" + std::to_string(i) + "}");
    store->finish_hand({7,
                        table,
                        "As Kd 2c",
                        "42",
                        R"({"salts":[]})",
                        {{0, ann.id, Chips(300), Chips(350)}, {1, bob.id, Chips(600), Chips(550)}},
                        log});
    CHECK(e.scalar("SELECT stack FROM table_seats WHERE seat = 0") == 350);
    CHECK(e.scalar("SELECT stack FROM table_seats WHERE seat = 1") == 550);
    CHECK_THROWS(store->finish_hand({7, table, "", "", "", {}, {}})); // finished already
    CHECK_THROWS(store->finish_hand({8, table, "", "", "", {}, {}})); // never started

    auto reader = e.open(false);
    const auto rec = reader->hand_record(7);
    REQUIRE(rec.has_value());
    CHECK(rec->summary.status == "finished");
    CHECK(rec->summary.number == 1);
    CHECK(iso_time(rec->summary.started_at));
    CHECK(iso_time(rec->summary.ended_at));
    CHECK(rec->summary.started_at <= rec->summary.ended_at);
    CHECK(rec->config == R"({"hand":1})");
    CHECK(rec->commitment == "c0ffee");
    CHECK(rec->deck == "As Kd 2c");
    CHECK(rec->seed == "42");
    CHECK(rec->fairness == R"({"salts":[]})");
    CHECK(rec->events == log);
    REQUIRE(rec->seats.size() == 2);
    CHECK(rec->seats[0].name == "ann");
    CHECK(rec->seats[1].account == bob.id);
    CHECK(rec->seats[1].end == Chips(550));
    CHECK_FALSE(reader->hand_record(99).has_value());

    store->start_hand({8, table, 2, "{}", "beef"});
    // The log is one row, an event a line: an event holding a line break would come back as two,
    // so the hand is refused whole.
    CHECK_THROWS_WITH_AS(
        store->finish_hand({8, table, "", "", "", {}, {"{}", "{\"say\":\"a\nb\"}"}}),
        "event 1 of a hand's log holds a line break", std::invalid_argument);
    CHECK(reader->hand_record(8)->summary.status == "running");
    CHECK(reader->hand_record(8)->events.empty());
    store->void_hand(8);
    store->start_hand({9, table, 3, "{}", "f00d"});
    store->finish_hand({9, table, "2c", "1", "", {{0, ann.id, Chips(350), Chips(250)}}, {"{}"}});
    CHECK(reader->hand_record(8)->summary.status == "void");
    CHECK(reader->hand_record(9)->fairness.empty());

    const auto list = reader->finished_hands(table, 10);
    REQUIRE(list.has_value());
    REQUIRE(list->size() == 2); // not the void one
    CHECK((*list)[0].id == 9);
    CHECK((*list)[1].id == 7);
    CHECK(reader->finished_hands(table, 1)->size() == 1);
    CHECK_FALSE(reader->finished_hands(table + 100, 10).has_value());

    const auto mine = reader->hands_of(ann.id, 0, 10);
    REQUIRE(mine.size() == 2);
    CHECK(mine[0].hand.id == 9);
    CHECK(mine[0].start == Chips(350));
    CHECK(mine[0].end == Chips(250));
    const auto older = reader->hands_of(ann.id, 9, 10);
    REQUIRE(older.size() == 1);
    CHECK(older[0].hand.id == 7);
    CHECK(reader->hands_of(ann.id, 0, 1).size() == 1);

    const auto totals = reader->totals_of("ANN");
    REQUIRE(totals.has_value());
    CHECK(totals->name == "ann");
    CHECK(totals->hands == 2);
    CHECK(totals->won == 1);
    CHECK(totals->net == Chips(-50));
    CHECK(totals->biggest_win == Chips(50));
    CHECK(totals->biggest_loss == Chips(-100));
    CHECK_FALSE(reader->totals_of("nobody").has_value());

    store->cash_out(table, 0, ann.id, Chips(250), "leave");
    CHECK(store->find_account(ann.id)->balance == Chips(950));
    const std::int64_t other = store->create_table("{}", bob.id);
    store->close_table(other);
    CHECK(e.scalar("SELECT COUNT(*) FROM tables WHERE closed_at IS NOT NULL") == 1);
    ledger_balances(e);

    // Groups: what a group did is kept on commit and gone when abandoned; a refusal inside one
    // undoes only itself.
    store->begin_group();
    CHECK(store->buy_in(table, 3, ann.id, Chips(2000))->code == "insufficient_chips");
    CHECK_FALSE(store->buy_in(table, 3, ann.id, Chips(50)));
    store->commit_group();
    CHECK(store->find_account(ann.id)->balance == Chips(900));
    store->begin_group();
    CHECK_FALSE(store->buy_in(table, 4, ann.id, Chips(900)));
    store->abandon_group();
    CHECK(store->find_account(ann.id)->balance == Chips(900));
    CHECK(e.scalar("SELECT COUNT(*) FROM table_seats WHERE seat = 4") == 0);
    store->probe();
    store->check();

    // A stop mid-hand: the next writer returns the seated chips (bob's 550, ann's 50) and voids
    // the running hand.
    store->start_hand({10, table, 4, "{}", "dead"});
    store.reset();
    reader.reset();
    e.exec("UPDATE nodes SET lease_until = " + e.ago(1)); // a crash: nobody renews its lease
    auto again = e.open(true);
    CHECK(again->find_account(ann.id)->balance == Chips(950));
    CHECK(again->find_account(bob.id)->balance == Chips(950));
    CHECK(e.scalar("SELECT COUNT(*) FROM table_seats") == 0);
    CHECK(e.scalar("SELECT COUNT(*) FROM hands WHERE status = 'running'") == 0);
    // The table stays open, for the server to open again, its hands numbered on from hand 4;
    // once.
    CHECK(e.scalar("SELECT COUNT(*) FROM tables WHERE closed_at IS NULL") == 1);
    const std::vector<OpenTable> open = again->left_open();
    REQUIRE(open.size() == 1);
    CHECK(open[0].id == table);
    CHECK(open[0].hands == 4);
    CHECK(open[0].creator == ann.id);
    CHECK(nlohmann::json::parse(open[0].config).is_object());
    CHECK(again->left_open().empty());
    CHECK(e.scalar("SELECT COUNT(*) FROM ledger WHERE reason = 'recovered'") == 2);
    CHECK(again->last_hand_id() == 10);
    ledger_balances(e);
}

// Tournaments: entries pay in and get refunds, fees go to the creator at the start, prizes are
// paid once with the hand that put a player out, and a cancelled tournament gives everything
// back. Every chip is somewhere: balances plus what tournaments hold equal what was granted.
void tournaments(const Engine& e) {
    auto store = e.open(true);
    const auto host = *store->create_account("host", hash_password("correct horse")).value;
    std::vector<std::int64_t> p;
    for (int i = 0; i < 4; ++i) p.push_back(store->create_guest().value->id);
    const auto balance = [&](std::int64_t a) { return store->find_account(a)->balance; };
    // Held by tournaments: what registering entries paid, and what running ones have not paid
    // out yet (the buy-ins less the prizes); and the creators' chips for guarantees.
    const auto held = [&] {
        return e.scalar("SELECT COALESCE(SUM(CASE WHEN t.status = 'registering' THEN e.buy_in + "
                        "e.fee WHEN t.status = 'running' THEN e.buy_in + e.bought - e.prize ELSE 0 "
                        "END), 0) "
                        "FROM tournament_entries e JOIN tournaments t ON t.id = "
                        "e.tournament_id") +
               e.scalar("SELECT COALESCE(SUM(guarantee_held), 0) FROM tournaments WHERE status "
                        "IN ('registering', 'running')");
    };
    const auto create = [&](const std::string& config, Chips guarantee = Chips()) {
        auto made = store->create_tournament(config, host.id, guarantee);
        REQUIRE(std::holds_alternative<std::int64_t>(made));
        return std::get<std::int64_t>(made);
    };
    const auto conserved = [&] {
        CHECK(e.scalar("SELECT SUM(balance) FROM accounts") + held() == 5 * 1000);
    };

    const std::int64_t t = create(R"({"format":"sit-and-go"})");
    CHECK(t > 0);
    CHECK_FALSE(store->enter_tournament(t, p[0], Chips(100), Chips(10), 3));
    CHECK(balance(p[0]) == Chips(890));
    CHECK(store->enter_tournament(t, p[0], Chips(100), Chips(10), 3)->code == "already_registered");
    CHECK(store->enter_tournament(t, p[1], Chips(995), Chips(10), 3)->code == "insufficient_chips");
    CHECK_FALSE(store->enter_tournament(t, p[1], Chips(100), Chips(10), 3));
    CHECK_FALSE(store->enter_tournament(t, p[2], Chips(100), Chips(10), 3));
    CHECK(store->enter_tournament(t, p[3], Chips(100), Chips(10), 3)->code == "tournament_full");
    CHECK(store->enter_tournament(t + 100, p[3], Chips(100), Chips(10), 3)->code ==
          "not_registering");
    conserved();
    // Unregistering gives back the buy-in and the fee.
    CHECK_FALSE(store->leave_tournament(t, p[2]));
    CHECK(balance(p[2]) == Chips(1000));
    CHECK(store->leave_tournament(t, p[2])->code == "not_registered");
    CHECK_FALSE(store->enter_tournament(t, p[3], Chips(100), Chips(10), 3));
    auto row = store->tournament(t);
    REQUIRE(row);
    CHECK(row->status == "registering");
    CHECK(row->creator_name == "host");
    REQUIRE(row->entries.size() == 3);
    CHECK(row->entries[0].account == p[0]);
    CHECK(row->entries[2].account == p[3]);
    CHECK(store->open_tournaments().size() == 1);
    conserved();

    // The start: the fees to the host, once.
    CHECK(store->start_tournament(t, R"({"hands":0})"));
    CHECK_FALSE(store->start_tournament(t, "{}"));
    CHECK(balance(host.id) == Chips(1030));
    CHECK(store->tournament(t)->status == "running");
    CHECK(store->tournament(t)->state == R"({"hands":0})");
    CHECK(store->leave_tournament(t, p[0])->code == "not_registering");
    CHECK(store->enter_tournament(t, p[2], Chips(100), Chips(10), 3)->code == "not_registering");
    conserved();

    // A hand at its table puts p[3] out in 3rd (no prize) ...
    const std::int64_t table = store->create_table(R"({"tournament":1})", host.id);
    store->start_hand({11, table, 1, "{}", "c"});
    HandEnd h{11, table, "As", "", "", {{0, p[3], Chips(500), Chips(0)}}, {"{}"}};
    h.tournament = TournamentChange{t, {{p[3], 3, Chips(0), false}}, R"({"hands":1})", false};
    store->finish_hand(h);
    CHECK(e.scalar("SELECT COUNT(*) FROM table_seats") == 0); // tournament chips stay out
    // ... and the next decides it: 2nd and 1st, 90 and 210, paid once.
    const TournamentChange last{
        t, {{p[1], 2, Chips(90), false}, {p[0], 1, Chips(210), false}}, R"({"hands":2})", true};
    store->change_tournament(last);
    store->change_tournament(last);
    CHECK(balance(p[1]) == Chips(890 + 90));
    CHECK(balance(p[0]) == Chips(890 + 210));
    row = store->tournament(t);
    CHECK(row->status == "finished");
    CHECK(row->entries[0].place == 1);
    CHECK(row->entries[0].prize == Chips(210));
    CHECK(row->entries[2].status == "out");
    CHECK(row->entries[2].place == 3);
    CHECK(store->open_tournaments().empty());
    conserved();

    // Cancelled while registering: every entry refunded.
    const std::int64_t u = create("{}");
    CHECK_FALSE(store->enter_tournament(u, p[2], Chips(50), Chips(5), 9));
    store->cancel_tournament(u, {});
    CHECK(balance(p[2]) == Chips(1000));
    CHECK(store->tournament(u)->status == "cancelled");
    store->cancel_tournament(u, {}); // nothing twice
    CHECK(balance(p[2]) == Chips(1000));
    // Cancelled while running: a finished entry keeps its prize, the rest of the pool goes to
    // those still in by their stacks (300 - 40 = 260 by 3 to 1: 195 and 65).
    const std::int64_t v = create("{}");
    for (int i = 0; i < 3; ++i)
        CHECK_FALSE(
            store->enter_tournament(v, p[static_cast<std::size_t>(i)], Chips(100), Chips(0), 9));
    CHECK(store->start_tournament(v, "{}"));
    store->change_tournament({v, {{p[2], 3, Chips(40), false}}, "{}", false});
    const Chips before0 = balance(p[0]), before1 = balance(p[1]);
    store->cancel_tournament(v, {{p[0], Chips(3'000)}, {p[1], Chips(1'000)}});
    CHECK(balance(p[0]) - before0 == Chips(195));
    CHECK(balance(p[1]) - before1 == Chips(65));
    CHECK(store->tournament(v)->status == "cancelled");
    conserved();
    ledger_balances(e);

    // A player's tournaments, newest first, as the history lists them.
    const auto mine = store->tournaments_of(p[2], 10);
    REQUIRE(mine.size() == 2); // u and v: the entry left in t is not there
    CHECK(mine[0].tournament == v);
    CHECK(mine[0].status == "cancelled");
    CHECK(mine[0].entrants == 3);
    CHECK(mine[0].place == 3);
    CHECK(mine[0].prize == Chips(40));
    CHECK(mine[1].tournament == u);
    CHECK(mine[1].buy_in == Chips(50));
    CHECK(mine[1].fee == Chips(5));
    CHECK(mine[1].place == 0);
    const auto won = store->tournaments_of(p[0], 10);
    REQUIRE(won.size() == 2);
    CHECK(won[1].tournament == t);
    CHECK(won[1].status == "finished");
    CHECK(won[1].place == 1);
    CHECK(won[1].prize == Chips(210));
    CHECK(won[1].config == R"({"format":"sit-and-go"})");
    CHECK_FALSE(won[1].ended_at.empty());
    CHECK(store->tournaments_of(p[0], 1).size() == 1);

    // A guarantee above the creator's balance: refused, nothing written.
    const Chips host_before = balance(host.id);
    const auto tournaments_before = e.scalar("SELECT COUNT(*) FROM tournaments");
    auto refused = store->create_tournament("{}", host.id, host_before + Chips(1));
    REQUIRE(std::holds_alternative<Refusal>(refused));
    CHECK(std::get<Refusal>(refused).code == "insufficient_chips");
    CHECK(balance(host.id) == host_before);
    CHECK(e.scalar("SELECT COUNT(*) FROM tournaments") == tournaments_before);
    // Cancelled while registering: the guarantee comes back.
    const std::int64_t g1 = create("{}", Chips(150));
    CHECK(balance(host.id) == host_before - Chips(150));
    conserved();
    store->cancel_tournament(g1, {});
    CHECK(balance(host.id) == host_before);
    conserved();
    // Two entries of 100 cover 200 of a 500 guarantee: 200 back to the creator at the start, and
    // the overlay of 300 in the pool; cancelled then, the pool of 500 goes to the two by stacks.
    const std::int64_t g2 = create("{}", Chips(500));
    CHECK_FALSE(store->enter_tournament(g2, p[0], Chips(100), Chips(0), 9));
    CHECK_FALSE(store->enter_tournament(g2, p[1], Chips(100), Chips(0), 9));
    CHECK(store->start_tournament(g2, "{}"));
    CHECK(balance(host.id) == host_before - Chips(300));
    conserved();
    const Chips p0 = balance(p[0]), p1 = balance(p[1]);
    store->cancel_tournament(g2, {{p[0], Chips(3'000)}, {p[1], Chips(2'000)}});
    CHECK(balance(p[0]) - p0 == Chips(300));
    CHECK(balance(p[1]) - p1 == Chips(200));
    CHECK(balance(host.id) == host_before - Chips(300));
    conserved();
    // Entries that cover the guarantee: all of it back at the start.
    const std::int64_t g3 = create("{}", Chips(150));
    CHECK_FALSE(store->enter_tournament(g3, p[0], Chips(100), Chips(0), 9));
    CHECK_FALSE(store->enter_tournament(g3, p[1], Chips(100), Chips(0), 9));
    CHECK(store->start_tournament(g3, "{}"));
    CHECK(balance(host.id) == host_before - Chips(300));
    CHECK(e.scalar("SELECT guarantee_held FROM tournaments WHERE id = " + std::to_string(g3)) == 0);
    conserved();
    ledger_balances(e);

    // The entry period: purchases while it runs, each written with the state after it.
    const std::int64_t w = create(R"({"format":"multi-table"})", Chips(400));
    CHECK_FALSE(store->enter_tournament(w, p[0], Chips(100), Chips(10), 9));
    CHECK(store->start_tournament(w, "{}")); // 100 of the 400 back: 300 held
    conserved();
    using Kind = TournamentPurchase::Kind;
    const auto purchase = [&](std::int64_t account, Kind kind, int entry, long seq) {
        TournamentPurchase x{account, kind, entry, Chips(100), Chips(10), {}};
        x.change = {w, {}, "{\"seq\":" + std::to_string(seq) + "}", false, seq};
        return store->buy_in_tournament(w, x);
    };
    const auto held_back = [&] {
        return e.scalar("SELECT guarantee_held FROM tournaments WHERE id = " + std::to_string(w));
    };
    const Chips host_w = balance(host.id);
    // A late entry: the buy-in to the pool (the guarantee held gives as much back), the fee to
    // the creator.
    const Chips p1_before = balance(p[1]);
    CHECK_FALSE(purchase(p[1], Kind::entry, 1, 2));
    CHECK(balance(p[1]) == p1_before - Chips(110));
    CHECK(balance(host.id) == host_w + Chips(110));
    CHECK(held_back() == 200);
    CHECK(purchase(p[1], Kind::entry, 1, 3)->code == "already_registered");
    // A re-entry is the account's next entry; a rebuy and an add-on count on their entry.
    CHECK_FALSE(purchase(p[0], Kind::entry, 2, 4));
    CHECK_FALSE(purchase(p[0], Kind::rebuy, 2, 5));
    CHECK_FALSE(purchase(p[0], Kind::add_on, 2, 6));
    CHECK(held_back() == 0); // 400 paid in: the guarantee is covered
    CHECK(balance(host.id) == host_w + Chips(110 + 110 + 100));
    conserved();
    // Refused, nothing written: more than the balance, a rebuy of an entry that is none, a
    // tournament not running.
    const Chips p2_before = balance(p[2]);
    CHECK(store
              ->buy_in_tournament(
                  w, {p[2], Kind::entry, 1, Chips(100'000), Chips(), {w, {}, "{}", false, 0}})
              ->code == "insufficient_chips");
    CHECK(balance(p[2]) == p2_before);
    CHECK_THROWS(purchase(p[2], Kind::rebuy, 1, 7));
    CHECK(balance(p[2]) == p2_before);
    CHECK(store
              ->buy_in_tournament(
                  t, {p[2], Kind::entry, 1, Chips(1), Chips(), {t, {}, "{}", false, 0}})
              ->code == "not_running");
    row = store->tournament(w);
    REQUIRE(row->entries.size() == 3);
    const auto entry = [&](std::int64_t account, int n) {
        const auto& all = row->entries;
        const auto it = std::find_if(all.begin(), all.end(), [&](const TournamentEntry& x) {
            return x.account == account && x.entry == n;
        });
        REQUIRE(it != all.end());
        return *it;
    };
    CHECK(entry(p[1], 1).status == "playing");
    CHECK(entry(p[0], 2).rebuys == 1);
    CHECK(entry(p[0], 2).add_ons == 1);
    CHECK(entry(p[0], 1).rebuys == 0);
    // A state is not replaced by an earlier change's (written late).
    CHECK(row->state == R"({"seq":6})");
    store->change_tournament({w, {}, R"({"seq":5})", false, 5});
    CHECK(store->tournament(w)->state == R"({"seq":6})");
    store->change_tournament({w, {}, R"({"seq":8})", false, 8});
    CHECK(store->tournament(w)->state == R"({"seq":8})");
    // Entry 1 of p[0] out, entry 2 on: each finish names its entry.
    store->change_tournament({w, {{p[0], 3, Chips(), false, 1}}, R"({"seq":9})", false, 9});
    row = store->tournament(w);
    CHECK(entry(p[0], 1).status == "out");
    CHECK(entry(p[0], 2).status == "playing");
    conserved();
    // The history: one line a tournament, what every entry paid.
    const auto entered = store->tournaments_of(p[0], 10);
    REQUIRE_FALSE(entered.empty());
    CHECK(entered[0].tournament == w);
    CHECK(entered[0].buy_in == Chips(400));
    CHECK(entered[0].fee == Chips(20));
    CHECK(entered[0].place == 0); // the last entry plays on
    // Cancelled: the pool (every buy-in, rebuy and add-on) to the entries still in.
    store->cancel_tournament(w, {{p[0], Chips(1)}, {p[1], Chips(1)}});
    conserved();
    ledger_balances(e);

    if (e.label == "PostgreSQL") {
        // Fencing: once another node took the tournament over, this node writes nothing of it.
        const std::int64_t f = create("{}");
        CHECK_FALSE(store->enter_tournament(f, p[0], Chips(100), Chips(0), 9));
        CHECK_FALSE(store->enter_tournament(f, p[1], Chips(100), Chips(0), 9));
        CHECK(store->start_tournament(f, "{}"));
        e.exec("UPDATE tournaments SET node_id = 'elsewhere' WHERE id = " + std::to_string(f));
        const Chips before = balance(p[0]);
        CHECK_THROWS(store->change_tournament(
            {f, {{p[1], 2, Chips(), false}, {p[0], 1, Chips(200), false}}, "{}", true}));
        CHECK(balance(p[0]) == before);
        CHECK(store->tournament(f)->status == "running");
        conserved();
    }
}

// The statistics tables: a hand's rows added with its end, summed by any selection; a hand
// finished before, counted once however often it is asked.
void statistics(const Engine& e) {
    auto store = e.open(true);
    const auto ann = *store->create_account("ann", hash_password("correct horse")).value;
    const auto bob = *store->create_guest().value;
    const std::int64_t table = store->create_table(R"({"game":"holdem"})", ann.id);
    auto row = [&](std::int64_t account, const char* variant, int position, std::int64_t net) {
        StatsRow r;
        r.account = account;
        r.game = "poker";
        r.variant = variant;
        r.structure = "no-limit";
        r.stake = Chips(2);
        r.position = position;
        r.table_size = 2;
        r.line.net = Chips(net);
        r.line.showdown = net > 0;
        r.line.tallies[static_cast<std::size_t>(stats::Stat::vpip)] = {1, 1};
        r.line.tallies[static_cast<std::size_t>(stats::Stat::af_flop)] = {3, 2};
        return r;
    };
    store->start_hand({1, table, 1, "{}", "c0"});
    HandEnd one{1, table, "", "", "", {}, {"{}"}};
    one.stats = {row(ann.id, "holdem", stats::kBigBlind, 6), row(bob.id, "holdem", 0, -6)};
    one.stats[0].hole = "AKs";
    one.stats[0].pot = Chips(12);
    one.stats[0].all_in = true;
    one.stats[1].hole = "QQ";
    one.stats[1].pot = Chips(12);
    store->finish_hand(one);
    store->start_hand({2, table, 2, "{}", "c1"});
    HandEnd two{2, table, "", "", "", {}, {"{}"}};
    two.stats = {row(ann.id, "holdem", stats::kBigBlind, -2), row(ann.id, "omaha", 0, 10)};
    store->finish_hand(two);
    auto reader = e.open(false);
    const stats::Totals all = reader->stats_of(ann.id, {});
    CHECK(all.hands == 3);
    CHECK(all.net == Chips(14));
    CHECK(all.showdown_net == Chips(16));
    CHECK(all.units == 6);
    CHECK(all.tallies[static_cast<std::size_t>(stats::Stat::vpip)] == stats::Tally{3, 3});
    CHECK(all.tallies[static_cast<std::size_t>(stats::Stat::af_flop)] == stats::Tally{9, 6});
    CHECK(all.sum_bb == doctest::Approx(7.0));          // 3 - 1 + 5
    CHECK(all.sum_bb_squared == doctest::Approx(35.0)); // 9 + 1 + 25
    StatsFilter f;
    f.variant = "holdem";
    CHECK(reader->stats_of(ann.id, f).hands == 2);
    f.position = stats::kBigBlind;
    CHECK(reader->stats_of(ann.id, f).net == Chips(4));
    f = {};
    f.position = 0;
    CHECK(reader->stats_of(ann.id, f).net == Chips(10));
    f = {};
    f.stake = Chips(4);
    CHECK(reader->stats_of(ann.id, f).hands == 0);
    f = {};
    f.tournament = true;
    CHECK(reader->stats_of(ann.id, f).hands == 0);
    f = {};
    f.to = "2000-01-01";
    CHECK(reader->stats_of(ann.id, f).hands == 0);
    CHECK(reader->stats_of(bob.id, {}).net == Chips(-6));
    // Hands finished as they were (counted at their end) are not to count again.
    CHECK(store->hands_to_count(0, 10).empty());
    // One finished before statistics were counted: counted once, under its own day.
    e.exec("UPDATE hands SET stats_counted = 0 WHERE id = 2");
    CHECK(store->hands_to_count(0, 10) == std::vector<std::int64_t>{2});
    CHECK(store->hands_to_count(2, 10).empty());
    CHECK(store->count_hand_stats(2, {row(bob.id, "stud", stats::kSmallBlind, 5)}, "2001-02-03"));
    CHECK_FALSE(store->count_hand_stats(2, {row(bob.id, "stud", 1, 5)}, "2001-02-03"));
    CHECK(store->hands_to_count(0, 10).empty());
    f = {};
    f.from = "2001-02-03";
    f.to = "2001-02-03";
    CHECK(reader->stats_of(bob.id, f).hands == 1);
    CHECK(reader->stats_of(bob.id, f).net == Chips(5));
    CHECK(reader->stats_of(bob.id, {}).hands == 2);
    // The search over one's hands: hand one (AKs, won, all in, a pot of 12) and two (lost).
    auto found = [&](std::int64_t account, HandSearch q) {
        std::vector<std::int64_t> ids;
        for (const SearchHit& h : reader->search_hands(account, q)) ids.push_back(h.hand);
        return ids;
    };
    using Ids = std::vector<std::int64_t>;
    CHECK(found(ann.id, {}) == Ids{2, 1});
    const auto hits = reader->search_hands(ann.id, {});
    CHECK(hits[1].hole == "AKs");
    CHECK(hits[1].net == Chips(6));
    CHECK(hits[1].pot == Chips(12));
    CHECK(hits[1].all_in);
    CHECK(hits[1].showdown);
    CHECK(hits[1].table == table);
    CHECK(hits[1].position == stats::kBigBlind);
    CHECK_FALSE(hits[1].ended_at.empty());
    HandSearch q;
    q.hole = "AK_";
    CHECK(found(ann.id, q) == Ids{1});
    q.hole = "AKo";
    CHECK(found(ann.id, q).empty());
    q = {};
    q.pairs = true;
    CHECK(found(ann.id, q).empty());
    CHECK(found(bob.id, q) == Ids{1});
    q = {};
    q.result = 1;
    CHECK(found(ann.id, q) == Ids{1});
    q.result = -1;
    CHECK(found(ann.id, q) == Ids{2});
    q = {};
    q.min_pot = Chips(12);
    CHECK(found(ann.id, q) == Ids{1});
    q = {};
    q.all_in = false;
    CHECK(found(ann.id, q) == Ids{2});
    q = {};
    q.showdown = true;
    CHECK(found(ann.id, q) == Ids{1});
    q = {};
    q.position = 0;
    CHECK(found(bob.id, q) == Ids{1});
    q.position = stats::kSmallBlind;
    CHECK(found(bob.id, q) == Ids{2}); // hand two, counted again above as Bob's
    q = {};
    q.before = 2;
    CHECK(found(ann.id, q) == Ids{1});
    q = {};
    q.limit = 1;
    CHECK(found(ann.id, q) == Ids{2});
    q = {};
    q.to = "2000-01-01";
    CHECK(found(ann.id, q).empty());
    q = {};
    q.table = table + 1;
    CHECK(found(ann.id, q).empty());
    // By day, oldest first: the profit graph's points, the all-in EV where one was known.
    const std::vector<StatsDay> days = reader->stats_days(bob.id, {});
    REQUIRE(days.size() == 2);
    CHECK(days[0].day == "2001-02-03");
    CHECK(days[0].hands == 1);
    CHECK(days[0].net == Chips(5));
    CHECK(days[0].showdown_net == Chips(5));
    CHECK(days[0].ev_net == doctest::Approx(5.0)); // no all-in: the net
    CHECK(days[1].net == Chips(-6));
    CHECK(reader->stats_days(bob.id, f).size() == 1);
    f.game = "leap";
    CHECK(reader->stats_days(bob.id, f).empty());
    // Chinese poker's and leap rummy's own figures, and an all-in valued at its equity.
    store->start_hand({3, table, 3, "{}", "c2"});
    HandEnd three{3, table, "", "", "", {}, {"{}"}};
    StatsRow deal = row(ann.id, "scoop", 0, -3);
    deal.game = "chinese";
    deal.deal.units = -3;
    deal.deal.scoops = {0, 2};
    deal.deal.specials = {0, 1};
    deal.deal.surrenders = {1, 1};
    StatsRow game = row(ann.id, "", 0, 4);
    game.game = "leap";
    game.deal.wins = {1, 1};
    game.deal.score = 17;
    game.deal.melds = 3;
    StatsRow all_in = row(bob.id, "holdem", 0, 40);
    all_in.line.ev_net = 12.5;
    three.stats = {deal, game, game, all_in};
    store->finish_hand(three);
    f = {};
    f.game = "chinese";
    const stats::Totals chinese = reader->stats_of(ann.id, f);
    CHECK(chinese.hands == 1);
    CHECK(chinese.net == Chips(-3));
    CHECK(chinese.deal.units == -3);
    CHECK(chinese.deal.scoops == stats::Tally{0, 2});
    CHECK(chinese.deal.surrenders == stats::Tally{1, 1});
    f.game = "leap";
    const stats::Totals leap = reader->stats_of(ann.id, f);
    CHECK(leap.hands == 2);
    CHECK(leap.deal.wins == stats::Tally{2, 2});
    CHECK(leap.deal.score == 34);
    CHECK(leap.deal.melds == 6);
    f.game = "poker";
    CHECK(reader->stats_of(ann.id, f).hands == 3);
    CHECK(reader->stats_of(ann.id, f).deal == stats::DealLine{});
    CHECK(reader->stats_of(bob.id, f).ev_net == doctest::Approx(5.0 - 6.0 + 12.5));
    CHECK(reader->stats_of(bob.id, f).net == Chips(5 - 6 + 40));
    // The table overlay: Ann saw Bob in hand one only (hand two was hers alone; hand three's poker
    // row was Bob's alone, and Chinese poker and leap rummy have no overlay).
    const auto seen = reader->opponent_stats(ann.id, {bob.name, "ANN", "nobody"});
    REQUIRE(seen.size() == 3);
    CHECK(seen[0].name == bob.name);
    CHECK(seen[0].hands == 1);
    CHECK(seen[0].vpip == stats::Tally{1, 1});
    CHECK(seen[0].pfr == stats::Tally{0, 0});
    CHECK(seen[1].hands == 0); // herself
    CHECK(seen[2].hands == 0);
    CHECK(reader->opponent_stats(bob.id, {"Ann"})[0].hands == 1); // any case
}

} // namespace

TEST_CASE("store on SQLite: accounts, sessions, the ledger, tables, hands, history, recovery") {
    SqliteFile file;
    const Engine e = sqlite_engine(file.path, Chips(1000));
    SUBCASE("accounts and sessions") {
        accounts_and_sessions(e);
    }
    SUBCASE("tables and hands") {
        tables_and_hands(e);
    }
    SUBCASE("tournaments") {
        tournaments(e);
    }
    SUBCASE("statistics") {
        statistics(e);
    }
}

TEST_CASE("store on PostgreSQL: accounts, sessions, the ledger, tables, hands, history, "
          "recovery") {
    FELT_NEED_PG();
    PgDatabase db;
    const Engine e = pg_engine(db.url, Chips(1000));
    SUBCASE("accounts and sessions") {
        accounts_and_sessions(e);
    }
    SUBCASE("tables and hands") {
        tables_and_hands(e);
    }
    SUBCASE("tournaments") {
        tournaments(e);
    }
    SUBCASE("statistics") {
        statistics(e);
    }
}
