// The best draw (issue 19): which cards of a five-card hand to exchange.
//
// best_exchange: the next cards of the deck are known (the exercise of the source texts, and a
// finished hand in the history): for every choice of cards to throw, the thrown cards are
// replaced in order from the top of `next`; the best resulting hand wins, and a tie goes to the
// exchange that throws fewer cards.
//
// draw_hint: the next cards are unknown. For every choice of cards to throw, the expected result
// over every equally likely draw from the cards the player cannot see, counted exactly, not
// sampled. A final hand's result is its strength as the share of all five-card hands of the
// deck it beats, ties counting half: 0 is the worst hand, 1 beats every other. Every five-card
// hand of the deck is some exchange's final hand exactly once (what is kept is its cards in the
// player's hand), so a hint judges C(52, 5) = 2,598,960 hands under the standard ranking; with no
// wild cards it uses the fast evaluator (bench/bench_draw.cpp has the times).
#pragma once

#include "cards/types.h"
#include "rankings/ranking.h"
#include "result.h"

#include <cstdint>
#include <span>
#include <vector>

namespace felt::poker {

struct Exchange {
    std::uint8_t thrown = 0; // bit i: card i of the hand is thrown
    int count = 0;           // cards thrown
    std::vector<Card> hand;  // the five cards after it: those kept, in order, then those drawn
    Judgement judgement;
};

// Errors: a hand that is not five cards of the ranking's deck, fewer than five next cards (or
// cards twice among both), max_discard outside 0..5.
Result<Exchange> best_exchange(const Ranking& ranking, std::span<const Card> hand,
                               std::span<const Card> next, int max_discard = 5);

struct DrawOption {
    std::uint8_t thrown = 0;
    int count = 0;
    double expected = 0;     // the expected share of five-card hands beaten, 0..1
    std::uint64_t draws = 0; // equally likely draws counted
};

// Every exchange of up to max_discard cards, best expected result first (ties: fewer thrown).
// `unseen` are the cards the player cannot see: by default (empty) the ranking's deck less the
// hand. Errors as best_exchange's, and a deck whose five-card hands are too many to count
// (over 20 million).
Result<std::vector<DrawOption>> draw_hint(const Ranking& ranking, std::span<const Card> hand,
                                          int max_discard = 5, std::span<const Card> unseen = {});

// The share of all five-card hands of the ranking's deck that `five` beats, ties counting half.
double hand_share(const Ranking& ranking, std::span<const Card> five);

} // namespace felt::poker
