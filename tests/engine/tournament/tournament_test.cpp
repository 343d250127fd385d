// Tournaments' pure rules (engine/tournament/): the structure and its clock, the presets, the
// payouts against pokerengine's published table, places shared by players knocked out together,
// and the dead button over random eliminations.
#include "tournament/payouts.h"
#include "tournament/seating.h"
#include "tournament/structure.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>

using namespace felt;
using namespace felt::tournament;

namespace {

Level blinds(std::int64_t sb, std::int64_t bb, int minutes, std::int64_t ante = 0) {
    Level l;
    l.small_blind = Chips(sb);
    l.big_blind = Chips(bb);
    l.ante = Chips(ante);
    l.minutes = minutes;
    return l;
}

Level pause(int minutes) {
    Level l;
    l.break_minutes = minutes;
    return l;
}

std::string why(const Structure& s) {
    auto e = check(s);
    return e ? e->message : "";
}

} // namespace

TEST_CASE("tournament structure: what a host may set, and what is refused in words") {
    Structure s;
    CHECK(why(s) == "a structure needs at least one level");
    s.levels = {blinds(10, 20, 5), pause(5), blinds(15, 30, 5)};
    CHECK(why(s).empty());
    s.levels = {blinds(10, 20, 5), blinds(-5, 30, 5)};
    CHECK(why(s) == "level 2 has a negative amount");
    s.levels = {blinds(30, 20, 5)};
    CHECK(why(s) == "level 1: the small blind exceeds the big blind");
    s.levels = {blinds(10, 20, 5), blinds(5, 10, 5)};
    CHECK(why(s) == "level 2: blinds and bets cannot fall from one level to the next");
    s.levels = {blinds(10, 20, 0)};
    CHECK(why(s) == "level 1 needs a length: minutes or hands, one of them");
    Level by_hands = blinds(15, 30, 0);
    by_hands.hands = 10;
    s.levels = {blinds(10, 20, 5), by_hands};
    CHECK(why(s) == "level 2: every level counts minutes, or every level counts hands");
    s.levels = {pause(5), blinds(10, 20, 5)};
    CHECK(why(s) == "a break comes between levels, not before the first");
    s.levels = {blinds(10, 20, 5), pause(5)};
    CHECK(why(s) == "the break after level 1 must be followed by a level");
    s.levels = {blinds(0, 0, 5, 10)};
    CHECK(why(s) == "level 1 needs a big blind or a small bet");
    s.levels = {blinds(10, 20, 5)};
    s.beyond = Beyond::step;
    CHECK(why(s) == "blinds that rise by a step need a positive step");
    s.step = Chips(20);
    CHECK(why(s).empty());
    // Antes may start later; blinds that stay are fine.
    s.levels = {blinds(10, 20, 5), blinds(10, 20, 5, 5)};
    CHECK(why(s).empty());
    CHECK(parse_beyond("double") == Beyond::doubling);
    CHECK_FALSE(parse_beyond("triple"));
}

TEST_CASE("tournament structure: the clock's level and break, and the levels past the last") {
    Structure s;
    s.levels = {blinds(10, 20, 2), blinds(15, 30, 2), pause(5), blinds(25, 50, 2)};
    CHECK(position(s, 0) == Position{1, false, 120'000});
    CHECK(position(s, 119'999) == Position{1, false, 1});
    CHECK(position(s, 120'000) == Position{2, false, 120'000});
    CHECK(position(s, 240'000) == Position{2, true, 300'000}); // the break after level 2
    CHECK(position(s, 540'000) == Position{3, false, 120'000});
    // Past the last level: levels as long as the last, numbered on.
    CHECK(position(s, 660'000) == Position{4, false, 120'000});
    CHECK(position(s, 660'000 + 250'000) == Position{6, false, 110'000});
    CHECK(level(s, 3) == blinds(25, 50, 2));
    CHECK(level(s, 4) == blinds(50, 100, 2));
    CHECK(level(s, 6) == blinds(200, 400, 2));
    s.beyond = Beyond::stay;
    CHECK(level(s, 9) == blinds(25, 50, 2));
    s.beyond = Beyond::step;
    s.step = Chips(50);
    CHECK(level(s, 4) == blinds(50, 100, 2)); // the big blind up 50, the rest in proportion
    CHECK(level(s, 5) == blinds(75, 150, 2));
    // Far past its end a structure stops raising before its amounts overflow.
    s.beyond = Beyond::doubling;
    CHECK(level(s, 200).big_blind > level(s, 60).big_blind - Chips(1));
    CHECK(level(s, 200).big_blind > 0);
    // In hands.
    Structure h;
    Level a = blinds(10, 20, 0), b = blinds(20, 40, 0);
    a.hands = 10;
    b.hands = 5;
    h.levels = {a, b};
    CHECK(in_hands(h));
    CHECK_FALSE(in_hands(s));
    CHECK(position(h, 9) == Position{1, false, 1});
    CHECK(position(h, 10) == Position{2, false, 5});
    CHECK(position(h, 16) == Position{3, false, 4});
}

TEST_CASE("tournament structure: the stakes a hand is dealt at, limit bets and bring-ins derived") {
    Level l = blinds(50, 100, 10, 10);
    CHECK(stakes_of(l, false, false) == Stakes{Chips(50), Chips(100), Chips(10), {}, {}, {}, {}});
    // Fixed limit: the small bet is the big blind, the big bet twice that.
    CHECK(stakes_of(l, true, false) ==
          Stakes{Chips(50), Chips(100), Chips(10), {}, Chips(100), Chips(200), {}});
    // Stud: no blinds; the bring-in a quarter of the small bet.
    CHECK(stakes_of(l, true, true) ==
          Stakes{{}, {}, Chips(10), {}, Chips(100), Chips(200), Chips(25)});
    l.small_bet = Chips(120);
    l.big_bet = Chips(240);
    l.bring_in = Chips(40);
    CHECK(stakes_of(l, true, true) ==
          Stakes{{}, {}, Chips(10), {}, Chips(120), Chips(240), Chips(40)});
    CHECK(stakes_of(blinds(1, 2, 10), true, true).bring_in == Chips(1)); // at least 1
    // Stud's ante, when the level gives none: a tenth of the small bet, at least 1 (a field that
    // folds to the bring-in would move no chip without it).
    CHECK(stakes_of(blinds(50, 100, 0), true, true).ante == Chips(10));
    CHECK(stakes_of(blinds(1, 2, 0), false, true).ante == Chips(1));
    CHECK(stakes_of(blinds(50, 100, 0), false, false).ante == Chips());
}

TEST_CASE("tournament presets: each a structure that runs, as the docs give them") {
    for (const char* name : {"turbo", "regular", "multi-table"}) {
        auto p = preset(name);
        REQUIRE(p);
        CHECK_MESSAGE(why(p->structure).empty(), name);
        CHECK(p->starting_stack == Chips(1'500));
        CHECK(level(p->structure, 1) == blinds(10, 20, level(p->structure, 1).minutes));
    }
    CHECK(preset("turbo")->hand_delay_ms == 500);
    CHECK(level(preset("turbo")->structure, 5).big_blind == Chips(200)); // then doubling
    CHECK(level(preset("regular")->structure, 2).minutes == 6);
    const Structure mt = preset("multi-table")->structure;
    CHECK(level(mt, 3).ante == 0);
    CHECK(level(mt, 4).ante > 0); // antes from the fourth level
    CHECK(position(mt, 60 * 60'000) == Position{6, true, 5 * 60'000}); // a break after an hour
    CHECK(position(mt, 125 * 60'000 + 1) == Position{12, true, 5 * 60'000 - 1});
    CHECK_FALSE(preset("hyper"));
}

TEST_CASE("tournament payouts: pokerengine's table, and prizes in whole chips that add up") {
    // pokerengine's poker.payouts.xml (poker-network, version 1.0.11), as published: each tier's
    // entrants and its percentages, run-length written as "share x count".
    const std::map<int, std::string> published = {
        {3, "100"},
        {6, "70 30"},
        {30, "50 30 20"},
        {50, "40 24 16 12 8"},
        {200, "30 20 12.5 9 8 6.5 5 4 3 2"},
        {300, "30 19.5 12 8 6.5 5 3.5 2.5 1.75 1.25 1x10"},
        {500, "25 15 10 8 5 4 3 2 1.75 1.25 1x10 0.75x20"},
        {700, "20 12.5 9 7 5 4 3 1.75 1.5 1.25 1x10 0.75x20 0.5x20"},
        {1000, "20 12 9 7 5 4 3 1.75 1.5 1.25 0.95x10 0.7x20 0.4x20 0.2x20"},
    };
    const PayoutTable& t = default_payouts();
    REQUIRE(t.size() == published.size());
    auto tier = t.begin();
    for (const auto& [max, text] : published) {
        std::vector<int> shares;
        std::istringstream in(text);
        for (std::string word; in >> word;) {
            const auto x = word.find('x');
            const double percent = std::stod(word.substr(0, x));
            const int count = x == std::string::npos ? 1 : std::stoi(word.substr(x + 1));
            shares.insert(shares.end(), static_cast<std::size_t>(count),
                          static_cast<int>(percent * 100 + 0.5));
        }
        CHECK(tier->max_entrants == max);
        CHECK(tier->shares == shares);
        ++tier;
    }
    CHECK_FALSE(check(t));

    // Every field size and random pools: the prizes add up to the pool, fall from first place
    // down, pay no more places than there are entrants, and each is its share rounded down (the
    // odd chips, fewer than the places, to first place).
    std::mt19937_64 rng(46);
    for (int entrants = 1; entrants <= 1'000; ++entrants) {
        const Chips pool(static_cast<std::int64_t>(rng() % 100'000'000) + entrants);
        const std::vector<Chips> p = prizes(t, entrants, pool);
        REQUIRE(!p.empty());
        CHECK(static_cast<int>(p.size()) <= entrants);
        Chips sum{};
        for (std::size_t i = 0; i < p.size(); ++i) {
            sum += p[i];
            if (i > 0) CHECK(p[i] <= p[i - 1]);
        }
        CHECK(sum == pool);
        auto covering = std::find_if(
            t.begin(), t.end(), [&](const PayoutTier& x) { return entrants <= x.max_entrants; });
        for (std::size_t i = 1; i < p.size(); ++i)
            CHECK(p[i].value() == static_cast<std::int64_t>(static_cast<long double>(pool.value()) *
                                                            covering->shares[i] / kWholePool));
        CHECK(p[0] - Chips(static_cast<std::int64_t>(static_cast<long double>(pool.value()) *
                                                     covering->shares[0] / kWholePool)) <
              Chips(static_cast<std::int64_t>(p.size())));
    }
    // The example: 7 entrants of 100 pay 350 / 210 / 140.
    CHECK(prizes(t, 7, Chips(700)) == std::vector<Chips>{Chips(350), Chips(210), Chips(140)});
    CHECK(prizes(t, 1, Chips(5)) == std::vector<Chips>{Chips(5)});
    // Odd chips to first place: 3 × 33.33 % of 100.
    const PayoutTable thirds = {{9, {3'334, 3'333, 3'333}}};
    CHECK_FALSE(check(thirds));
    CHECK(prizes(thirds, 9, Chips(100)) == std::vector<Chips>{Chips(34), Chips(33), Chips(33)});
    // A host's table paying more places than came: the places there are, scaled to the pool.
    CHECK(prizes(thirds, 2, Chips(100)) == std::vector<Chips>{Chips(51), Chips(49)});
}

TEST_CASE("tournament payouts: a host's table that cannot pay is refused in words") {
    auto why_not = [](const PayoutTable& t) {
        auto e = check(t);
        return e ? e->message : "";
    };
    CHECK(why_not({}) == "payouts need at least one place paid");
    CHECK(why_not({{10, {5'000, 3'000, 1'950}}}) ==
          "the payouts for up to 10 entrants add up to 99.50 %, not 100 %");
    CHECK(why_not({{10, {10'500, -500}}}) ==
          "the payouts for up to 10 entrants give a place a share of 0 or less");
    CHECK(why_not({{2, {5'000, 3'000, 2'000}}}) ==
          "the payouts for up to 2 entrants pay more places than there are entrants");
    CHECK(why_not({{10, {10'000}}, {5, {10'000}}}) ==
          "the payouts for up to 5 entrants must come after those for fewer entrants");
}

TEST_CASE("tournament places: players knocked out together finish by their starting stacks; "
          "equal stacks tie and share") {
    const std::vector<Chips> by_place = {Chips(500), Chips(300), Chips(200), Chips(101)};
    // Five were in; two go out: the larger starting stack takes 4th, the other 5th.
    auto f = knocked_out({{7, Chips(300)}, {8, Chips(900)}}, 5, by_place);
    CHECK(f == std::vector<Finish>{{8, 4, Chips(101), false}, {7, 5, Chips(0), false}});
    // Four were in; two with equal stacks go out: 3rd and 4th, tied, sharing 301 (151 to 3rd).
    f = knocked_out({{1, Chips(400)}, {2, Chips(400)}}, 4, by_place);
    CHECK(f == std::vector<Finish>{{1, 3, Chips(151), true}, {2, 4, Chips(150), true}});
    // Three of four out in one hand, two of them tied below the third.
    f = knocked_out({{1, Chips(50)}, {2, Chips(80)}, {3, Chips(50)}}, 4, by_place);
    CHECK(f == std::vector<Finish>{
                   {2, 2, Chips(300), false}, {1, 3, Chips(151), true}, {3, 4, Chips(150), true}});
    // Nothing is created or lost: the prizes of the places taken, shared.
    Chips paid{};
    for (const Finish& x : f) paid += x.prize;
    CHECK(paid == Chips(300 + 200 + 101));
}

TEST_CASE("the dead button: the big blind always moves on to the player due it") {
    // Seats 0..5 hold players; the button on 0: small blind 1, big blind 2.
    std::uint32_t players = 0b111111;
    Blinds b = first_blinds(players, 6, 0);
    CHECK(b == Blinds{0, 1, 2, false});
    b = next_blinds(b, players, 6);
    CHECK(b == Blinds{1, 2, 3, false});
    // The small blind (seat 2) busts: the button stands on its empty seat next hand.
    players &= ~(1u << 2);
    b = next_blinds(b, players, 6);
    CHECK(b == Blinds{2, 3, 4, false});
    // The player due the small blind (seat 4, this hand's big blind) busts: no small blind.
    players &= ~(1u << 4);
    b = next_blinds(b, players, 6);
    CHECK(b == Blinds{3, 4, 5, true});
    CHECK(b.small_poster() == -1);
    b = next_blinds(b, players, 6);
    CHECK(b == Blinds{4, 5, 0, false}); // the button on the empty seat 4
    // Down to two: the big blind moves on, the button posts the small blind.
    players = (1u << 0) | (1u << 3);
    b = next_blinds(b, players, 6);
    CHECK(b == Blinds{0, 0, 3, false});
    b = next_blinds(b, players, 6);
    CHECK(b == Blinds{3, 3, 0, false});
    CHECK(first_blinds(players, 6, 3) == Blinds{3, 3, 0, false});
}

TEST_CASE("the dead button over random eliminations: the big blind is posted by a player, never "
          "twice in a row, and goes round to every player before anyone pays it again") {
    std::mt19937 rng(2026);
#ifdef FELT_SANITIZE
    constexpr int kTables = 2'000;
#else
    constexpr int kTables = 20'000;
#endif
    for (int game = 0; game < kTables; ++game) {
        const int seats = 2 + static_cast<int>(rng() % 8);
        std::uint32_t players = (1u << seats) - 1;
        for (int k = 0; k < seats; ++k)
            if (rng() % 4 == 0 && std::popcount(players) > 2) players &= ~(1u << k);
        int button = 0;
        while (!(players >> button & 1u)) ++button;
        Blinds b = first_blinds(players, seats, button);
        std::vector<int> since(static_cast<std::size_t>(seats), -1); // hand of its last big blind
        for (int hand = 0; std::popcount(players) >= 2 && hand < 200; ++hand) {
            REQUIRE((players >> b.big_blind & 1u));
            if (!b.dead_small) CHECK((players >> b.small_blind & 1u));
            CHECK(b.small_blind != b.big_blind);
            CHECK(b.button != b.big_blind);
            if (std::popcount(players) == 2) CHECK(b.button == b.small_blind);
            // Every other player posted the big blind after this one last did (or never has).
            const int last = since[static_cast<std::size_t>(b.big_blind)];
            if (last >= 0)
                for (int k = 0; k < seats; ++k)
                    if (k != b.big_blind && (players >> k & 1u))
                        CHECK_MESSAGE(since[static_cast<std::size_t>(k)] > last,
                                      "seat " << k << " skipped");
            if (hand > 0) CHECK(last != hand - 1);
            since[static_cast<std::size_t>(b.big_blind)] = hand;
            // Now and then a player busts.
            if (rng() % 5 == 0) {
                const int k = static_cast<int>(rng() % static_cast<unsigned>(seats));
                if (players >> k & 1u) players &= ~(1u << k);
            }
            if (std::popcount(players) < 2) break;
            b = next_blinds(b, players, seats);
        }
    }
}

TEST_CASE("a player moved to a table waits when they land between the button and the big blind") {
    // Next hand: button 3, small blind 4, big blind 5, on eight seats.
    const Blinds next{3, 4, 5, false};
    CHECK(waits(next, 3, 8)); // on the button
    CHECK(waits(next, 4, 8)); // the small blind's empty seat
    CHECK_FALSE(waits(next, 5, 8));
    CHECK_FALSE(waits(next, 6, 8));
    CHECK_FALSE(waits(next, 2, 8));
    const Blinds round{7, 0, 1, false}; // round the end of the table
    CHECK(waits(round, 7, 8));
    CHECK(waits(round, 0, 8));
    CHECK_FALSE(waits(round, 1, 8));
    CHECK_FALSE(waits(round, 6, 8));
}

namespace {

TableSeats table_of(int id, std::vector<int> players, Blinds last = {}) {
    TableSeats t;
    t.id = id;
    t.seats = static_cast<int>(players.size());
    t.players = std::move(players);
    t.last = last;
    return t;
}

} // namespace

TEST_CASE("tournament seating: random seats at the start, tables even, the same seed the same "
          "draw") {
    std::vector<int> players(20);
    for (int i = 0; i < 20; ++i) players[static_cast<std::size_t>(i)] = 100 + i;
    const auto tables = seat_entrants(players, 9, 7);
    REQUIRE(tables.size() == 3);
    std::vector<int> seen;
    for (const TableSeats& t : tables) {
        CHECK((t.count() == 7 || t.count() == 6));
        CHECK(t.players[static_cast<std::size_t>(t.last.button)] >= 0); // the button on a player
        for (int p : t.players)
            if (p >= 0) seen.push_back(p);
    }
    std::sort(seen.begin(), seen.end());
    CHECK(seen == players);
    const auto again = seat_entrants(players, 9, 7), other = seat_entrants(players, 9, 8);
    for (std::size_t i = 0; i < tables.size(); ++i) CHECK(again[i].players == tables[i].players);
    bool differs = false;
    for (std::size_t i = 0; i < tables.size(); ++i)
        differs |= other[i].players != tables[i].players;
    CHECK(differs);
    CHECK(seat_entrants(std::vector<int>{1, 2, 3, 4, 5, 6}, 6, 1).size() == 1); // a sit-and-go
}

TEST_CASE("tournament balancing: the player due the big blind moves to the short table's worst "
          "seat; a table three short halts") {
    // Table 1: nine players, last hand's blinds 0 / 1 / 2, so seat 3 is due the big blind.
    std::vector<TableSeats> tables = {
        table_of(1, {10, 11, 12, 13, 14, 15, 16, 17, 18}, Blinds{0, 1, 2, false}),
        // Table 2: six players; its last blinds 3 / 4 / 5, so its next big blind is seat 6 and
        // the first empty seat after it, seat 8, will post the big blind soonest.
        table_of(2, {20, 21, -1, 23, 24, 25, 26, -1, -1}, Blinds{3, 4, 5, false}),
    };
    CHECK(tables[1].count() == 6);
    CHECK(halted(tables, 1));
    CHECK_FALSE(halted(tables, 0));
    // Nothing moves from the short table.
    CHECK(balance(tables, 1, 1).empty());
    const auto moves = balance(tables, 0, 1);
    REQUIRE(moves.size() == 1);
    CHECK(moves[0] == Move{13, 1, 3, 2, 7});
    CHECK(tables[0].count() == 8);
    CHECK(tables[1].count() == 7);
    // Arriving between the button and the big blind would mean waiting; seat 7 is after the next
    // big blind (6): dealt in at once.
    CHECK_FALSE(waits(coming_blinds(tables[1]), 7, 9));
    // With two allowed, 8 against 7 is fine, and so is 9 against 7.
    tables[0].players[3] = 13;
    CHECK(balance(tables, 0, 2).empty());
}

TEST_CASE("tournament breaking: the smallest table breaks when the players fit on one table "
          "fewer, its players spread evenly") {
    std::vector<TableSeats> tables = {
        table_of(1, {1, 2, 3, -1, 4, 5, 6, 7, -1}),
        table_of(2, {8, -1, 9, 10, -1, -1, 11, -1, 12}),
        table_of(3, {13, 14, 15, 16, 17, 18, 19, -1, -1}),
    };
    CHECK_FALSE(table_to_break(tables)); // 19 players, 18 seats on two: not yet
    CHECK(tables[0].count() + tables[1].count() + tables[2].count() == 19);
    tables[2].players[6] = -1; // now 18
    CHECK(table_to_break(tables) == std::size_t{1});
    const auto moves = break_table(tables, 1, 3);
    CHECK(moves.size() == 5);
    REQUIRE(tables.size() == 2);
    CHECK(tables[0].count() == 9);
    CHECK(tables[1].count() == 9);
    for (const Move& m : moves) CHECK(m.from_table == 2);
    CHECK_FALSE(table_to_break(tables));
    // One table left: nothing to break.
    std::vector<TableSeats> one = {table_of(1, {1, 2, -1})};
    CHECK_FALSE(table_to_break(one));
}

TEST_CASE("tournament seating over random multi-table tournaments: nobody lost or seated twice, "
          "tables broken as soon as they can be, each table even after its hand") {
    std::mt19937 rng(4646);
#ifdef FELT_SANITIZE
    constexpr int kTournaments = 20;
#else
    constexpr int kTournaments = 200;
#endif
    for (int game = 0; game < kTournaments; ++game) {
        const int seats = 2 + static_cast<int>(rng() % 8);
        const int entrants = 2 + static_cast<int>(rng() % 300);
        const int allowed = 1 + static_cast<int>(rng() % 2);
        std::vector<int> players(static_cast<std::size_t>(entrants));
        std::iota(players.begin(), players.end(), 0);
        auto tables = seat_entrants(players, seats, rng());
        std::set<int> in(players.begin(), players.end());
        for (int step = 0; in.size() > 1 && step < 20'000; ++step) {
            // A table ends a hand: now and then a player busts (never the last two together).
            const auto t = static_cast<std::size_t>(rng() % tables.size());
            if (tables[t].count() >= 2) tables[t].last = coming_blinds(tables[t]);
            for (int& p : tables[t].players)
                if (p >= 0 && in.size() > 1 && rng() % 6 == 0) {
                    in.erase(p);
                    p = -1;
                }
            while (auto b = table_to_break(tables)) {
                const std::size_t was = tables.size();
                break_table(tables, *b, rng());
                REQUIRE(tables.size() == was - 1);
            }
            const auto from = static_cast<std::size_t>(
                std::find_if(tables.begin(), tables.end(),
                             [&](const TableSeats& x) {
                                 return x.id == tables[std::min(t, tables.size() - 1)].id;
                             }) -
                tables.begin());
            balance(tables, from, allowed);
            int fewest = seats;
            for (const TableSeats& x : tables) fewest = std::min(fewest, x.count());
            CHECK(tables[from].count() - fewest <= allowed);
            // Every player still in sits once; no table could be broken.
            std::multiset<int> seated;
            int room = 0, least = seats;
            for (const TableSeats& x : tables) {
                for (int p : x.players)
                    if (p >= 0) seated.insert(p);
                room += x.seats;
                least = std::min(least, x.count());
            }
            REQUIRE(seated == std::multiset<int>(in.begin(), in.end()));
            if (tables.size() > 1) CHECK(static_cast<int>(in.size()) > room - seats);
        }
        CHECK(tables.size() == 1);
    }
}
