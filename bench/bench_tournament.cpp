// A 1,000-entrant multi-table tournament at full speed through the engine alone: the tournament
// director (seating, the dead button, levels, balancing, breaking, places and prizes) and random
// play of every hand through the betting engine, on one thread. Prints figures; asserts nothing
// (tests do that), except that the same seed gives the same finishing order.
//
//   bench_tournament [--hands N] [--runs R]   (N: entrants, default 1,000; R: runs, default 5)
//
// Levels of 10 hands with the turbo preset's blinds, doubling after its last; 9-seat tables.
// The feltd figures (bots over WebSocket, memory) come with the tournament's server side.
#include "bench_common.h"
#include "random.h"
#include "tournament_sim.h"

#include <cstdio>
#include <cstdlib>

namespace {

felt::sim::TournamentReport run(const felt::sim::TournamentOptions& o) {
    auto r = felt::sim::simulate_tournament(o);
    if (!r || !r->failure.empty()) {
        std::printf("failed: %s\n", r ? r->failure.c_str() : r.error().message.c_str());
        std::exit(1);
    }
    return r.value();
}

} // namespace

int main(int argc, char** argv) {
    long entrants = 1'000;
    int runs = 5;
    felt::bench::parse_options(argc, argv, entrants, runs);
    felt::sim::TournamentOptions o;
    o.entrants = static_cast<int>(entrants);
    o.seats = 9;
    o.hands_per_level = 10;
    o.check = false;
    for (const char* game : {"no-limit", "fixed-limit"}) {
        o.structure = game;
        double best = 1e30;
        felt::sim::TournamentReport r;
        for (int i = 0; i < runs; ++i) {
            o.seed = 46;
            r = run(o);
            best = std::min(best, r.seconds);
        }
        o.check = true;
        const felt::sim::TournamentReport checked = run(o);
        o.check = false;
        std::printf(
            "%s hold'em, %d entrants at %d tables of 9: %ld hands, %.3f s (best of %d), "
            "%.0f hands/s; %ld moves, %d tables broken; signature %s%s; with every "
            "check after every hand %.3f s\n",
            game, o.entrants, r.tables, r.hands, best, runs, static_cast<double>(r.hands) / best,
            r.moves, r.broken, felt::sim::hex(r.signature).c_str(),
            checked.signature == r.signature ? " (the same twice)" : " (DIFFERS)", checked.seconds);
    }
}
