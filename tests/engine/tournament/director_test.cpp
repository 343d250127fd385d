// The tournament director (engine/tournament/director.*) driving real hands of the betting engine
// with random play (tools/sim/tournament_sim.h), hands at several tables running at once and
// ending in random order: every chip kept after every hand, every entrant finishing once with
// places 1..N, the prizes adding up to the pool, tables even after their hands, and the same seed
// giving the same tournament.
#include "tournament/deal.h"
#include "tournament/director.h"
#include "tournament_sim.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>

using namespace felt;

TEST_CASE("tournaments played through the engine: every chip kept, every place taken once, the "
          "prizes the pool") {
    struct Game {
        const char* variant;
        const char* structure;
        int most_seats;
    };
    const Game games[] = {{"holdem", "no-limit", 9},
                          {"holdem", "fixed-limit", 9},
                          {"stud", "fixed-limit", 8},
                          {"holdem", "pot-limit", 9},
                          {"draw", "fixed-limit", 6}};
#ifdef FELT_SANITIZE
    constexpr int kTournaments = 10;
#else
    constexpr int kTournaments = 100;
#endif
    std::mt19937 rng(4646);
    long hands = 0, hand_for_hand = 0;
    for (int n = 0; n < kTournaments; ++n) {
        const Game& g = games[n % 5];
        sim::TournamentOptions o;
        o.variant = g.variant;
        o.structure = g.structure;
        o.seats = 2 + static_cast<int>(rng() % static_cast<unsigned>(g.most_seats - 1));
        o.entrants = 2 + static_cast<int>(rng() % 120);
        o.allowed = 1 + static_cast<int>(rng() % 2);
        o.hands_per_level = 3;
        o.seed = rng();
        CAPTURE(n);
        auto r = sim::simulate_tournament(o);
        REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
        CHECK_MESSAGE(r.value().failure.empty(),
                      g.variant << " " << g.structure << ", " << o.entrants << " entrants at "
                                << o.seats << " seats: " << r.value().failure);
        CHECK(static_cast<int>(r.value().finishes.size()) == o.entrants);
        hands += r.value().hands;
        hand_for_hand += r.value().hand_for_hand;
    }
    MESSAGE(hands << " hands in " << kTournaments << " tournaments, " << hand_for_hand
                  << " of them hand-for-hand on the bubble");
#ifndef FELT_SANITIZE
    CHECK(hand_for_hand > 0); // the simulation checks each round's hands
#endif
}

TEST_CASE("a tournament with a seed and the same hands finishes in the same order") {
    sim::TournamentOptions o;
    o.entrants = 40;
    o.seats = 6;
    o.seed = 99;
    const auto a = sim::simulate_tournament(o), b = sim::simulate_tournament(o);
    REQUIRE((a.ok() && b.ok()));
    CHECK(a.value().hands == b.value().hands);
    CHECK(a.value().signature == b.value().signature);
    CHECK(a.value().finishes == b.value().finishes);
    o.seed = 100;
    CHECK(sim::simulate_tournament(o).value().signature != a.value().signature);
    o.entrants = 1;
    CHECK_FALSE(sim::simulate_tournament(o).ok());
}

TEST_CASE("tournaments taken up from their standing after restarts still keep every chip and "
          "finish") {
    std::mt19937 rng(4747);
    for (int n = 0; n < 20; ++n) {
        sim::TournamentOptions o;
        o.seats = 2 + static_cast<int>(rng() % 8);
        o.entrants = 2 + static_cast<int>(rng() % 100);
        o.hands_per_level = 3;
        o.restart_every = 1 + static_cast<int>(rng() % 10);
        o.seed = rng();
        auto r = sim::simulate_tournament(o);
        REQUIRE(r.ok());
        CHECK_MESSAGE(r.value().failure.empty(), r.value().failure);
        CHECK(static_cast<int>(r.value().finishes.size()) == o.entrants);
        CHECK((r.value().hands < o.restart_every || r.value().restarts > 0));
    }
}

namespace {

// Deals the next hand at `table` and ends it with `stacks` (by seat; the sum dealt).
void play_hand(tournament::Director& d, int table, std::vector<Chips> stacks) {
    auto dealt = d.deal(table, tournament::Position{});
    REQUIRE(std::holds_alternative<tournament::Deal>(dealt));
    d.hand_ended(table, stacks);
}

} // namespace

TEST_CASE("a deal at the final table: the split by ICM or by chips of the prizes left, places by "
          "stack, and the tournament over") {
    using tournament::DealMethod;
    tournament::Rules rules;
    rules.structure.levels = {tournament::Level{Chips(10), Chips(20)}};
    rules.starting_stack = Chips(1'000);
    rules.pool = Chips(1'000);
    rules.seats = 6;
    const std::vector<int> players = {0, 1, 2, 3, 4};
    tournament::Director d(rules, players);
    REQUIRE(d.tables().size() == 1);
    const tournament::TableSeats seats = d.tables()[0];
    // One hand leaves player 4 out and the others with 2,000, 1,500, 1,000 and 500.
    const std::map<int, Chips> after = {
        {0, Chips(500)}, {1, Chips(2'000)}, {2, Chips(1'000)}, {3, Chips(1'500)}, {4, Chips()}};
    std::vector<Chips> by_seat(static_cast<std::size_t>(seats.seats));
    for (int k = 0; k < seats.seats; ++k)
        if (const int p = seats.players[static_cast<std::size_t>(k)]; p >= 0)
            by_seat[static_cast<std::size_t>(k)] = after.at(p);
    play_hand(d, seats.id, by_seat);
    REQUIRE(d.remaining() == 4);
    const std::vector<Chips> prizes = tournament::prizes(rules.payouts, 5, rules.pool);

    for (const DealMethod m : {DealMethod::icm, DealMethod::chips}) {
        auto terms = d.deal_terms(m);
        REQUIRE(terms);
        CHECK(terms->players == std::vector<int>{1, 3, 2, 0});
        CHECK(terms->stacks ==
              std::vector<Chips>{Chips(2'000), Chips(1'500), Chips(1'000), Chips(500)});
        // What deal.h gives for these stacks and the prizes of places 1 to 4.
        const std::vector<Chips> left(prizes.begin(),
                                      prizes.begin() + std::min<std::ptrdiff_t>(4, ssize(prizes)));
        const auto expected = m == DealMethod::icm ? tournament::icm_deal(terms->stacks, left)
                                                   : tournament::chip_deal(terms->stacks, left);
        REQUIRE(expected);
        CHECK(terms->prizes == *expected);
        Chips paid{}, owed{};
        for (Chips c : terms->prizes) paid += c;
        for (Chips c : left) owed += c;
        CHECK(paid == owed);
    }

    // Terms from before a hand no longer hold after it.
    auto stale = d.deal_terms(DealMethod::icm);
    REQUIRE(stale);
    auto dealt = d.deal(seats.id, tournament::Position{});
    REQUIRE(std::holds_alternative<tournament::Deal>(dealt));
    CHECK(d.in_hand());
    CHECK(d.deal_terms(DealMethod::icm).error().code == Errc::illegal_action);
    CHECK(d.end_by_deal(*stale).error().code == Errc::illegal_action);
    std::vector<Chips> moved = std::get<tournament::Deal>(dealt).stacks;
    for (std::size_t k = 0, given = 0; k < moved.size(); ++k) // 100 from one player to another
        if (moved[k] > 0 && given < 2) moved[k] += Chips(given++ == 0 ? 100 : -100);
    d.hand_ended(seats.id, moved);
    CHECK_FALSE(d.end_by_deal(*stale));
    CHECK(d.remaining() == 4);

    auto terms = d.deal_terms(DealMethod::icm);
    REQUIRE(terms);
    auto ended = d.end_by_deal(*terms);
    REQUIRE(ended);
    REQUIRE(ended->won);
    CHECK(ended->won->player == terms->players[0]);
    CHECK(ended->won->prize == terms->prizes[0]);
    REQUIRE(ended->out.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(ended->out[i].place == static_cast<int>(i) + 2);
        CHECK(ended->out[i].player == terms->players[i + 1]);
        CHECK(ended->out[i].prize == terms->prizes[i + 1]);
    }
    CHECK(d.finished());
    CHECK(d.remaining() == 0);
    CHECK(d.finishes().size() == 5);
    Chips paid{};
    for (const tournament::Finish& f : d.finishes()) paid += f.prize;
    CHECK(paid == rules.pool);
    CHECK(d.standing().entrants == 5);
    CHECK(d.deal_terms(DealMethod::icm).error().code == Errc::illegal_action);
}

TEST_CASE("a deal is refused among more than ten players") {
    tournament::Rules rules;
    rules.structure.levels = {tournament::Level{Chips(10), Chips(20)}};
    rules.starting_stack = Chips(1'000);
    rules.pool = Chips(1'100);
    std::vector<int> players(11);
    for (int i = 0; i < 11; ++i) players[static_cast<std::size_t>(i)] = i;
    tournament::Director d(rules, players);
    const auto terms = d.deal_terms(tournament::DealMethod::chips);
    REQUIRE_FALSE(terms);
    CHECK(terms.error().code == Errc::bad_config);
    CHECK(terms.error().message == "a deal is made among at most 10 players; 11 are still in");
    CHECK(tournament::parse_deal_method("icm") == tournament::DealMethod::icm);
    CHECK(tournament::parse_deal_method("chip") == std::nullopt);
}

namespace {

// Four players left of eight at two tables of three, three places paid (400, 240, 160): the
// bubble. Players 0 and 1 sit at table 1, players 2 and 3 at table 2.
tournament::Director bubble(Chips stack0, Chips stack2) {
    tournament::Rules rules;
    rules.structure.levels = {tournament::Level{Chips(10), Chips(20)}};
    rules.starting_stack = Chips(1'000);
    rules.pool = Chips(800);
    rules.seats = 3;
    tournament::Standing s;
    s.entrants = 8;
    s.tables = {{1, 3, {0, 1, -1}, {}}, {2, 3, {2, 3, -1}, {}}};
    s.players = {{0, stack0, false},
                 {1, Chips(4'000) - stack0, false},
                 {2, stack2, false},
                 {3, Chips(4'000) - stack2, false}};
    for (int p = 4; p < 8; ++p) s.finishes.push_back({p, 12 - p, Chips(), false});
    return tournament::Director(rules, s);
}

// Ends the hand at `table` with the seats' stacks: the first seat's player out, the second with
// every chip.
tournament::Outcome bust_first(tournament::Director& d, int table) {
    const auto& t = *std::find_if(d.tables().begin(), d.tables().end(),
                                  [&](const tournament::TableSeats& x) { return x.id == table; });
    const Chips all = d.stack(t.players[0]) + d.stack(t.players[1]);
    return d.hand_ended(table, std::vector<Chips>{Chips(), all, Chips()});
}

} // namespace

TEST_CASE("hand-for-hand on the bubble: each table one hand a round, the players out in a round "
          "placed together by their starting stacks, ties sharing") {
    using tournament::Idle;
    const tournament::Position at{};
    {
        tournament::Director d = bubble(Chips(1'000), Chips(1'500));
        REQUIRE(d.at_bubble());
        CHECK(d.hand_for_hand() == 0);
        auto one = d.deal(1, at);
        REQUIRE(std::holds_alternative<tournament::Deal>(one));
        CHECK(std::get<tournament::Deal>(one).hand_for_hand == 1);
        auto two = d.deal(2, at);
        REQUIRE(std::holds_alternative<tournament::Deal>(two));
        CHECK(std::get<tournament::Deal>(two).hand_for_hand == 1);
        // Table 1's player 0 is out first: placed only when table 2's hand ends too.
        const tournament::Outcome first = bust_first(d, 1);
        CHECK(first.out.empty());
        CHECK(d.remaining() == 4);
        CHECK(std::get<Idle>(d.deal(1, at)) == Idle::hand_for_hand);
        const tournament::Outcome second = bust_first(d, 2);
        // Player 2 began the hand with more than player 0: third, in the money; player 0 fourth.
        REQUIRE(second.out.size() == 2);
        CHECK(second.out[0] == tournament::Finish{2, 3, Chips(160), false});
        CHECK(second.out[1] == tournament::Finish{0, 4, Chips(), false});
        CHECK(d.remaining() == 2);
        CHECK(d.hand_for_hand() == 0);    // the bubble burst
        CHECK(second.broken.size() == 1); // two players left fit on one table
        CHECK(d.chips() == Chips(8'000));
    }
    {
        // Equal stacks at the start of their hands: third and fourth tied, sharing 160.
        tournament::Director d = bubble(Chips(1'000), Chips(1'000));
        REQUIRE(std::holds_alternative<tournament::Deal>(d.deal(1, at)));
        REQUIRE(std::holds_alternative<tournament::Deal>(d.deal(2, at)));
        bust_first(d, 2);
        const tournament::Outcome o = bust_first(d, 1);
        REQUIRE(o.out.size() == 2);
        CHECK(o.out[0].tied);
        CHECK(o.out[1].tied);
        CHECK(o.out[0].prize + o.out[1].prize == Chips(160));
        CHECK(o.out[0].prize == Chips(80));
    }
    {
        // Nobody out in round 1: round 2, again one hand a table.
        tournament::Director d = bubble(Chips(1'000), Chips(1'500));
        REQUIRE(std::holds_alternative<tournament::Deal>(d.deal(1, at)));
        const auto& t1 = d.tables()[0];
        std::vector<Chips> same;
        for (int p : t1.players) same.push_back(p >= 0 ? d.stack(p) : Chips());
        d.hand_ended(1, same);
        CHECK(std::get<Idle>(d.deal(1, at)) == Idle::hand_for_hand); // table 2 has yet to play
        REQUIRE(std::holds_alternative<tournament::Deal>(d.deal(2, at)));
        const auto& t2 = d.tables()[1];
        same.clear();
        for (int p : t2.players) same.push_back(p >= 0 ? d.stack(p) : Chips());
        d.hand_ended(2, same);
        CHECK(d.hand_for_hand() == 2);
        auto next = d.deal(1, at);
        REQUIRE(std::holds_alternative<tournament::Deal>(next));
        CHECK(std::get<tournament::Deal>(next).hand_for_hand == 2);
    }
    {
        // A restart in the middle of a round: the hand cut short is void, and the round ends
        // with the players out so far, as the standing keeps them.
        tournament::Director d = bubble(Chips(1'000), Chips(1'500));
        REQUIRE(std::holds_alternative<tournament::Deal>(d.deal(1, at)));
        REQUIRE(std::holds_alternative<tournament::Deal>(d.deal(2, at)));
        bust_first(d, 1);
        const tournament::Standing kept = d.standing();
        CHECK(kept.round == 1);
        REQUIRE(kept.round_outs.size() == 1);
        tournament::Rules rules;
        rules.structure.levels = {tournament::Level{Chips(10), Chips(20)}};
        rules.pool = Chips(800);
        rules.seats = 3;
        tournament::Director again(rules, kept);
        const tournament::Outcome settled = again.settle();
        REQUIRE(settled.out.size() == 1);
        CHECK(settled.out[0] == tournament::Finish{0, 4, Chips(), false});
        CHECK(again.remaining() == 3);
        CHECK(again.hand_for_hand() == 0);
    }
}

TEST_CASE("tournaments with late entries and rebuys played through the engine: every chip bought "
          "in play, every entry placed once, the prizes the whole pool, restarts or not") {
#ifdef FELT_SANITIZE
    constexpr int kTournaments = 6;
#else
    constexpr int kTournaments = 60;
#endif
    std::mt19937 rng(4747);
    int entered = 0, rebuys = 0;
    for (int n = 0; n < kTournaments; ++n) {
        sim::TournamentOptions o;
        o.seats = 2 + static_cast<int>(rng() % 8);
        o.entrants = 2 + static_cast<int>(rng() % 60);
        o.hands_per_level = 3;
        o.late_levels = static_cast<int>(rng() % 4);
        o.late_entries = static_cast<int>(rng() % 30);
        o.rebuy_levels = static_cast<int>(rng() % 4);
        o.restart_every = n % 3 == 0 ? 1 + static_cast<int>(rng() % 10) : 0;
        o.seed = rng();
        CAPTURE(n);
        auto r = sim::simulate_tournament(o);
        REQUIRE(r.ok());
        CHECK_MESSAGE(r.value().failure.empty(),
                      o.entrants << " entrants at " << o.seats << " seats, late entries to level "
                                 << o.late_levels << ", rebuys to level " << o.rebuy_levels << ": "
                                 << r.value().failure);
        entered += r.value().entered;
        rebuys += r.value().rebuys;
    }
    MESSAGE(entered << " late entries and " << rebuys << " rebuys in " << kTournaments
                    << " tournaments");
#ifndef FELT_SANITIZE
    CHECK(entered > 0);
    CHECK(rebuys > 0);
#endif
}

TEST_CASE("the entry period: a late entry, rebuys (at once, or after the hand), the add-on at its "
          "break, each refused outside its window; those out of chips placed at its close") {
    using tournament::Position;
    tournament::Rules rules;
    rules.structure.levels = {{Chips(10), Chips(20), {}, {}, {}, {}, {}, 10},
                              {Chips(20), Chips(40), {}, {}, {}, {}, {}, 10},
                              tournament::Level{.break_minutes = 5},
                              {Chips(40), Chips(80), {}, {}, {}, {}, {}, 10}};
    rules.starting_stack = Chips(1'000);
    rules.pool = Chips(300);
    rules.price = Chips(100);
    rules.seats = 6;
    rules.late_levels = 1;
    rules.rebuy_levels = 2;
    rules.rebuy_stack = Chips(1'000);
    rules.rebuy_limit = Chips(1'000);
    rules.add_on_stack = Chips(2'000);
    const std::vector<int> players = {0, 1, 2};
    tournament::Director d(rules, players);
    const Position one{1, false, 1}, two{2, false, 1}, after_two{2, true, 1}, three{3, false, 1};
    CHECK(d.entry_open());
    CHECK(d.add_on_level() == 2);

    // A late entry in level 1, none after it.
    REQUIRE(d.enter(3, one));
    CHECK(d.remaining() == 4);
    CHECK(d.pool() == Chips(400));
    CHECK_FALSE(d.enter(3, one));
    CHECK(d.enter(4, two).error().message == "entries close at the end of level 1");

    // Player 0 loses every chip: not out, and back in with a rebuy.
    const tournament::TableSeats t = d.tables()[0];
    auto hand = [&](const Position& at, int loser, int winner) {
        auto dealt = d.deal(t.id, at);
        REQUIRE(std::holds_alternative<tournament::Deal>(dealt));
        std::vector<Chips> stacks = std::get<tournament::Deal>(dealt).stacks;
        std::size_t l = 0, w = 0;
        for (std::size_t k = 0; k < t.players.size(); ++k) {
            if (d.tables()[0].players[k] == loser) l = k;
            if (d.tables()[0].players[k] == winner) w = k;
        }
        stacks[w] += stacks[l];
        stacks[l] = Chips();
        return d.hand_ended(t.id, stacks);
    };
    const tournament::Outcome busted = hand(one, 0, 1);
    CHECK(busted.busted == std::vector<int>{0});
    CHECK(busted.out.empty());
    CHECK(d.remaining() == 4);
    CHECK(d.deal_terms(tournament::DealMethod::icm).error().code == Errc::illegal_action);
    REQUIRE(d.rebuy(0, one));
    CHECK(d.stack(0) == Chips(1'000));
    CHECK(d.pool() == Chips(500));
    // Above the limit: refused.
    CHECK(d.rebuy(1, one).error().message ==
          "a rebuy is taken with at most 1000 chips; this stack has 2000");
    // During player 2's hand: added when it ends. They lose every chip of the hand, and play on
    // with the rebuy's (bought back, not busted).
    auto dealt = d.deal(t.id, two);
    REQUIRE(std::holds_alternative<tournament::Deal>(dealt));
    REQUIRE(d.rebuy(2, two));
    CHECK(d.stack(2) == Chips(1'000));
    CHECK(d.chips() == Chips(6'000)); // four starting stacks and two rebuys
    std::vector<Chips> after = std::get<tournament::Deal>(dealt).stacks;
    for (std::size_t k = 0; k < after.size(); ++k)
        if (d.tables()[0].players[k] == 2) {
            const std::size_t other =
                after[(k + 1) % after.size()] > 0 ? (k + 1) % after.size() : (k + 2) % after.size();
            after[other] += after[k];
            after[k] = Chips();
        }
    const tournament::Outcome bought_back = d.hand_ended(t.id, after);
    CHECK(bought_back.bought_back == std::vector<int>{2});
    CHECK(bought_back.busted.empty());
    CHECK(d.stack(2) == Chips(1'000));
    CHECK(d.chips() == Chips(6'000));
    CHECK(d.rebuy(2, after_two).error().message ==
          "rebuys are taken during the first 2 levels only");

    // The add-on at the break after level 2, once.
    CHECK(d.add_on(1, two).error().message == "the add-on is taken at the break after level 2");
    REQUIRE(d.add_on(1, after_two));
    CHECK(d.add_on(1, after_two).error().message == "the add-on is taken once");
    CHECK(d.pool() == Chips(700));
    CHECK(d.chips() == Chips(8'000)); // and the add-on

    // Player 3 loses every chip in level 2 and keeps their seat; the close places them last, the
    // prizes from the pool as it stands then.
    CHECK(hand(two, 3, 1).busted == std::vector<int>{3});
    CHECK(d.advance(after_two).out.empty()); // the add-on's break: still open
    const tournament::Outcome closed = d.advance(three);
    CHECK_FALSE(d.entry_open());
    REQUIRE(closed.out.size() == 1);
    CHECK(closed.out[0].player == 3);
    CHECK(closed.out[0].place == 4);
    CHECK(d.remaining() == 3);
    const auto prizes = tournament::prizes(rules.payouts, 4, Chips(700));
    Chips all{};
    for (Chips p : prizes) all += p;
    CHECK(all == Chips(700));
    CHECK(d.add_on(0, after_two).error().code == Errc::illegal_action);
    // Out of chips now: out at once, as in any tournament.
    CHECK(hand(three, 0, 1).out.size() == 1);
}

TEST_CASE("the entry period: fewer than two with chips and nobody to rebuy closes it at once with "
          "levels in hands; with levels in minutes it waits for late entries while they may come") {
    for (const bool hands : {false, true}) {
        INFO((hands ? "levels in hands" : "levels in minutes"));
        tournament::Rules rules;
        tournament::Level one{.small_blind = Chips(10), .big_blind = Chips(20)};
        tournament::Level two{.small_blind = Chips(20), .big_blind = Chips(40)};
        (hands ? one.hands : one.minutes) = 10;
        (hands ? two.hands : two.minutes) = 10;
        rules.structure.levels = {one, two};
        rules.starting_stack = Chips(1'000);
        rules.pool = Chips(200);
        rules.price = Chips(100);
        rules.late_levels = 1;
        const std::vector<int> players = {0, 1};
        tournament::Director d(rules, players);
        const tournament::Position at{1, false, 5};
        const int table = d.tables()[0].id;
        auto dealt = d.deal(table, at);
        REQUIRE(std::holds_alternative<tournament::Deal>(dealt));
        std::vector<Chips> stacks = std::get<tournament::Deal>(dealt).stacks;
        const auto& seated = d.tables()[0].players;
        const auto k0 = static_cast<std::size_t>(std::find(seated.begin(), seated.end(), 0) -
                                                 seated.begin()),
                   k1 = static_cast<std::size_t>(std::find(seated.begin(), seated.end(), 1) -
                                                 seated.begin());
        stacks[k1] += stacks[k0];
        stacks[k0] = Chips();
        CHECK(d.hand_ended(table, stacks).busted == std::vector<int>{0});
        d.give_up_seat(0);
        const tournament::Outcome o = d.advance(at);
        CHECK(d.entry_open() == !hands);
        CHECK(o.won.has_value() == hands);
        if (!hands) { // a newcomer comes, and the tournament goes on
            REQUIRE(d.enter(2, at));
            CHECK(d.remaining() == 3);
        }
    }
}
