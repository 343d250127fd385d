// What a hold'em bot knows of its cards: the strength of a starting hand among all 1,326, and its
// equity against opponents' ranges by sampling. Pure: the sampling draws from the caller's
// generator.
#pragma once

#include "cards/types.h"
#include "random.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace felt::bots {

using Rng = sim::Rng;

// The 1,326 two-card hands of a 52-card pack, numbered by combo_index.
inline constexpr int kCombos = 1326;
int combo_index(Card a, Card b);
std::array<Card, 2> combo_cards(int index);

// A starting hand's place among all 1,326: the share of hands whose equity against one random
// hand is higher, 0 for aces, near 1 for seven-deuce offsuit. Counted once, on first use, by
// sampling (20,000 boards a hand's class), with a fixed seed.
double preflop_rank(Card a, Card b);
double preflop_rank(int combo);

// The Chen formula (Bill Chen's quick score of a starting hand, -1 to 20): the baseline bot's.
double chen_score(Card a, Card b);

// An opponent's range: a weight 0..1 for each of the 1,326 hands.
struct Range {
    std::array<float, kCombos> weight{};
    // The starting hands ranked in the top `share` (0..1) of all: weight 1, falling off to 0
    // over the next few percent, so that a range is never empty.
    static Range top(double share);
    // Keeps the strongest `share` of the range's weight with the board (three to five cards):
    // what a player who bets or raises there holds, when they bet or raise that often.
    void keep_strongest(std::span<const Card> board, double share);
    // Takes out the hands that hold a card seen elsewhere.
    void remove(std::span<const Card> cards);
    double total() const;
};

// Hold'em (52 cards, five on the board): the share of the pot `hole` wins on average against each
// opponent's range, the board completed at random; ties share. `samples` deals.
double holdem_equity(std::span<const Card> hole, std::span<const Card> board,
                     std::span<const Range> opponents, int samples, Rng& rng);

// How many of the hands an opponent may hold (two cards not in `hole` or `board`) `hole` and the
// board beat now, ties half: the baseline bot's hand strength.
double hand_strength(std::span<const Card> hole, std::span<const Card> board);

} // namespace felt::bots
