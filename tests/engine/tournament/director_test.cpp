// The tournament director (engine/tournament/director.*) driving real hands of the betting engine
// with random play, hands at several tables running at once and ending in random order: every
// chip kept after every hand, every entrant finishing once with places 1..N, the prizes adding up
// to the pool, tables even after their hands, and the same seed giving the same tournament.
#include "tournament/director.h"

#include "poker/hand.h"
#include "rankings/ranking.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>

using namespace felt;
using namespace felt::tournament;

namespace {

struct Game {
    const char* variant;
    poker::Structure structure;
};

poker::HandConfig config_of(const Deal& d, const Game& g, std::mt19937_64& rng) {
    poker::HandConfig c;
    c.variant = poker::builtin_variant(g.variant);
    c.structure = g.structure;
    static const std::shared_ptr<const Ranking> standard(make_ranking("standard").value());
    c.ranking = standard;
    c.seats = static_cast<int>(d.stacks.size());
    for (std::size_t k = 0; k < d.stacks.size(); ++k) c.stacks[k] = d.stacks[k];
    c.button = d.blinds.button;
    c.small_blind_seat = d.blinds.small_poster();
    c.big_blind_seat = d.blinds.big_blind;
    c.stakes.small_blind = d.stakes.small_blind;
    c.stakes.big_blind = d.stakes.big_blind;
    c.stakes.ante = d.stakes.ante;
    c.stakes.bring_in = d.stakes.bring_in;
    c.stakes.small_bet = d.stakes.small_bet;
    c.stakes.big_bet = d.stakes.big_bet;
    if (d.stakes.big_blind_ante > 0) {
        c.stakes.seat_antes.assign(d.stacks.size(), Chips());
        c.stakes.seat_antes[static_cast<std::size_t>(d.blinds.big_blind)] = d.stakes.big_blind_ante;
        c.stakes.dead_antes = true;
    }
    c.cap_heads_up = d.cap_heads_up;
    c.deck = standard->cards();
    std::shuffle(c.deck.begin(), c.deck.end(), rng);
    c.reshuffle_seed = rng();
    return c;
}

// Random play, aggressive enough to end a tournament in a few hundred hands.
poker::Action choose(const poker::HandState& s, std::mt19937_64& rng) {
    const poker::Legal& l = poker::legal_actions(s);
    poker::Action a{poker::ActionType::fold, l.seat, Chips(), {}};
    const int roll = static_cast<int>(rng() % 8);
    if (l.bring_in) {
        a.type = poker::ActionType::bring_in;
    } else if ((l.raise || l.bet) && roll < 2) {
        a.type = l.raise ? poker::ActionType::raise : poker::ActionType::bet;
        a.amount = l.max_to;
    } else if (l.check) {
        a.type = poker::ActionType::check;
    } else if (l.call && roll < 6) {
        a.type = poker::ActionType::call;
    }
    return a;
}

struct Run {
    std::vector<Finish> finishes;
    int hands = 0;
};

Run play(int entrants, int seats, int allowed, const Game& g, std::uint64_t seed, bool check) {
    Rules r;
    Level first;
    first.small_blind = Chips(10);
    first.big_blind = Chips(20);
    first.hands = 6;
    Level second = first;
    second.small_blind = Chips(25);
    second.big_blind = Chips(50);
    second.ante = Chips(5);
    r.structure.levels = {first, second};
    r.starting_stack = Chips(1'000);
    r.pool = Chips(100) * entrants;
    r.seats = seats;
    r.allowed = allowed;
    r.fixed_limit = g.structure == poker::Structure::fixed_limit;
    r.bring_in_game = std::string(g.variant) == "stud";
    r.seed = seed;
    std::vector<int> players(static_cast<std::size_t>(entrants));
    for (int i = 0; i < entrants; ++i) players[static_cast<std::size_t>(i)] = 1'000 + i;
    Director dir(r, players);
    std::mt19937_64 rng(seed);
    const Chips total = Chips(1'000) * entrants;
    std::map<int, poker::HandState> running; // by table
    Run run;
    for (int round = 0; !dir.finished() && round < 200'000; ++round) {
        // Every table that can deal does, at the level the hands so far have reached.
        for (const TableSeats& t : std::vector<TableSeats>(dir.tables())) {
            auto d =
                dir.deal(t.id, position(r.structure,
                                        run.hands / std::max<std::size_t>(1, dir.tables().size())));
            if (!std::holds_alternative<Deal>(d)) continue;
            auto started = poker::start_hand(
                std::make_shared<poker::HandConfig>(config_of(std::get<Deal>(d), g, rng)));
            REQUIRE_MESSAGE(started.ok(), started.error().message);
            running[t.id] = std::move(started).value().state;
            ++run.hands;
        }
        REQUIRE_MESSAGE(!running.empty(), "no table can deal and the tournament is not over");
        // One running hand, chosen at random, is played to its end.
        auto it = std::next(running.begin(), static_cast<long>(rng() % running.size()));
        poker::HandState& s = it->second;
        std::vector<poker::Event> events;
        while (s.phase != poker::Phase::done) {
            const poker::Action a = choose(s, rng);
            if (auto err = poker::apply_in_place(s, a, events)) {
                // A random draw or a refused size: fold instead.
                poker::Action f{poker::ActionType::fold, a.seat, Chips(), {}};
                const poker::Legal& l = poker::legal_actions(s);
                if (l.check) f.type = poker::ActionType::check;
                if (l.phase == poker::Phase::drawing)
                    f = {poker::ActionType::discard, l.seat, {}, {}};
                REQUIRE_FALSE(poker::apply_in_place(s, f, events));
            }
        }
        std::vector<Chips> stacks;
        for (int k = 0; k < s.config->seats; ++k)
            stacks.push_back(s.seats[static_cast<std::size_t>(k)].stack);
        const int table = it->first;
        running.erase(it);
        const Outcome o = dir.hand_ended(table, stacks);
        if (!check) continue;
        // Every chip kept: the stacks of those still in add up to what the entrants began with.
        CHECK(dir.chips() == total);
        // The table that ended its hand is within `allowed` of the shortest, unless a table is
        // waiting to be broken or it was broken itself.
        int fewest = seats;
        for (const TableSeats& t : dir.tables()) fewest = std::min(fewest, t.count());
        for (const TableSeats& t : dir.tables())
            if (t.id == table && o.broken.empty())
                CHECK((dir.breaking() || t.count() - fewest <= allowed));
        for (const Move& m : o.moves) CHECK(m.from_table != m.to_table);
    }
    REQUIRE(dir.finished());
    run.finishes = dir.finishes();
    return run;
}

} // namespace

TEST_CASE("tournaments played through the engine: every chip kept, every place taken once, the "
          "prizes the pool") {
    const Game games[] = {{"holdem", poker::Structure::no_limit},
                          {"holdem", poker::Structure::fixed_limit},
                          {"stud", poker::Structure::fixed_limit},
                          {"holdem", poker::Structure::pot_limit}};
#ifdef FELT_SANITIZE
    constexpr int kTournaments = 40;
#else
    constexpr int kTournaments = 400;
#endif
    std::mt19937 rng(4646);
    for (int n = 0; n < kTournaments; ++n) {
        const Game& g = games[n % 4];
        const int seats = g.variant == std::string("stud") ? 2 + static_cast<int>(rng() % 7)
                                                           : 2 + static_cast<int>(rng() % 8);
        const int entrants = 2 + static_cast<int>(rng() % 150);
        const int allowed = 1 + static_cast<int>(rng() % 2);
        CAPTURE(n);
        CAPTURE(entrants);
        CAPTURE(seats);
        const Run run = play(entrants, seats, allowed, g, rng(), true);
        REQUIRE(static_cast<int>(run.finishes.size()) == entrants);
        std::set<int> who, places;
        Chips paid{};
        for (const Finish& f : run.finishes) {
            who.insert(f.player);
            places.insert(f.place);
            paid += f.prize;
        }
        CHECK(static_cast<int>(who.size()) == entrants);
        CHECK(static_cast<int>(places.size()) == entrants);
        CHECK(*places.begin() == 1);
        CHECK(*places.rbegin() == entrants);
        CHECK(paid == Chips(100) * entrants);
        // The winner is the last finish, and took first place's prize or more than any other.
        CHECK(run.finishes.back().place == 1);
        for (const Finish& f : run.finishes) CHECK(f.prize <= run.finishes.back().prize);
    }
}

TEST_CASE("a tournament with a seed and the same hands finishes in the same order") {
    const Game g{"holdem", poker::Structure::no_limit};
    const Run a = play(30, 6, 1, g, 99, false), b = play(30, 6, 1, g, 99, false);
    CHECK(a.hands == b.hands);
    CHECK(a.finishes == b.finishes);
}
