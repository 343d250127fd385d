// The odds of a betting hand (engine/odds): which calculator game a table plays, and the all-in
// EV of a finished hand.
//
// All-in EV: when no more betting can happen while cards are still to come, every live hand is
// shown at once (a `show` event numbered 1). At that moment each pot is worth, to each player in
// it, the pot (less its rake) times the player's chance to win it against the others in it; the
// EV sets that beside what the player went on to win. Hand trackers draw it as the line a player
// would have had without the luck of the cards to come.
#pragma once

#include "odds/equity.h"
#include "poker/hand.h"

#include <array>
#include <optional>
#include <span>
#include <vector>

namespace felt::poker {

// The calculator's game for a configuration: hold'em, short deck, Omaha, Omaha hi-lo, stud,
// stud hi-lo, razz under their own ranking without wild cards; nullopt for the others (draws,
// Mexican stud, wild cards, vertical melds).
std::optional<odds::Query> odds_query(const HandConfig& c);

struct AllInShare {
    int seat = 0;
    double equity = 0;   // percent: the seat's chance in the main pot when the hands were shown
    double expected = 0; // chips: its share of every pot it is in, by its chance in each
    Chips won{};         // chips it won
};

struct AllInEv {
    int street = 0; // the street whose betting ended it
    std::vector<AllInShare> seats;
    bool exact = true; // every chance enumerated (else Monte Carlo)
};

// The chances at a point of a hand (after `events`, a prefix of its events) of the seats whose
// cards `known` gives (each seat's cards in the order dealt, as a show lists them: of those, the
// first as many as the seat was dealt by then count, and the rest of its hand comes from the
// deck). The board is the board then; the up cards of the other seats are dead. Nullopt for a
// game without odds, fewer than two such seats, or nothing left to come. With
// `against_random`, one such seat plays against a random hand (seat -1), as a replayer shows a
// player's own hand when nobody else's was shown.
struct StreetOdds {
    int street = 0;
    std::vector<int> seats;
    odds::Equity equity;
};
std::optional<StreetOdds> street_odds(const HandConfig& c, std::span<const Event> events,
                                      const std::array<std::vector<Card>, kMaxSeats>& known,
                                      odds::Query q, bool against_random = false);

// The all-in EV of a finished hand from its events, or nullopt when no hands were shown at once
// or the game has no calculator. `q` sets the method (exact, Monte Carlo, seed); its game,
// players and cards are the hand's.
// `at_show`, when given, is street_odds() at the show: a pot whose players are exactly its seats
// takes its chances rather than working them out again.
std::optional<AllInEv> all_in_ev(const HandConfig& c, std::span<const Event> events,
                                 const HandState& end, odds::Query q,
                                 const StreetOdds* at_show = nullptr);

} // namespace felt::poker
