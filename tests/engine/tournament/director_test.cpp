// The tournament director (engine/tournament/director.*) driving real hands of the betting engine
// with random play (tools/sim/tournament_sim.h), hands at several tables running at once and
// ending in random order: every chip kept after every hand, every entrant finishing once with
// places 1..N, the prizes adding up to the pool, tables even after their hands, and the same seed
// giving the same tournament.
#include "tournament_sim.h"

#include <doctest/doctest.h>

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
    long hands = 0;
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
    }
    MESSAGE(hands << " hands in " << kTournaments << " tournaments");
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
