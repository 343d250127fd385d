// Random legal play through the betting engine, checking its properties as it goes.
//
// Each hand: random stacks (1 to 200 big bets, so that all-ins and side pots are common), the
// button moving one seat a hand, a deck shuffled by splitmix64 from the seed, then random
// legal actions until the hand ends. Checked: the engine accepts every action it offered; every
// pot goes to a seat that did not fold; after every hand, chips are conserved (stacks plus rake
// as before) and no stack is negative. The signature hashes every event, so two
// runs with the same options agree exactly or the engine's behaviour changed.
#pragma once

#include "poker/hand.h"
#include "random.h"

#include <cstdint>
#include <string>

namespace felt::sim {

struct Options {
    std::string variant = "holdem";
    std::string structure = "no-limit"; // no-limit, pot-limit, fixed-limit
    std::string ranking = "standard";   // standard or vertical
    std::string wild = "none";          // standard ranking only
    int players = 6;
    long hands = 1000;
    std::uint64_t seed = 1;
    int rake_percent = 0;
    std::string open_pair = "big_bet"; // fixed-limit stud: off, big_bet or choice
    bool check = true; // the signature and the properties (the benchmark also times play alone)
};

struct Report {
    long hands = 0;
    long actions = 0;
    long showdowns = 0;
    double seconds = 0;
    std::uint64_t signature = 0;
    bool chips_conserved = true;
    std::string failure; // the first property that failed, with the hand; empty when none did
};

// Refuses an unknown variant, structure, ranking or open-pair rule, or a bad player count.
Result<Report> simulate(const Options& options);

// The configuration of hand number `hand` of a run, before its deck is shuffled.
Result<poker::HandConfig> table_config(const Options& options);

// One hand with random legal actions, from a given configuration: its final state and every
// event (start included). For round trips through hand histories.
struct Played {
    poker::HandState state;
    std::vector<poker::Event> events;
};
Result<Played> play_random_hand(std::shared_ptr<const poker::HandConfig> config,
                                std::uint64_t seed);

} // namespace felt::sim
