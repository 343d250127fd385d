// The shuffle: a cryptographically secure shuffle (libsodium), a seed for a game that may
// reshuffle, and, for tests only (feltd --chosen-decks), the cards a table's next deal starts
// with.
#pragma once

#include "cards/types.h"
#include "protocol/refusal.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace felt::server {

class Game;

// A cryptographically secure shuffle (libsodium), and a seed for a game that may reshuffle.
void secure_shuffle(std::span<Card> deck);
std::uint64_t random_seed();

// Tests only (a tournament's seed): the same shuffle, its stream keyed by `seed` rather than by
// chance, so that the same seed gives the same deck; and a seed drawn from two (SplitMix64).
void seeded_shuffle(std::span<Card> deck, std::uint64_t seed);
std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b);

// Tests only: the next deal's first cards, in the order dealt (choose_deck).
class ChosenCards {
  public:
    // Reads the cards ("Ah Kd ...") against the largest pack `game` deals (for `seats` seats):
    // each must be the pack's, no more often than the pack holds it. Refused, nothing changes.
    std::optional<protocol::Refusal> choose(const Game& game, int seats, const std::string& text);
    int size() const { return static_cast<int>(cards_.size()); }
    // Moves the chosen cards, if any, to the top of the shuffled deck in order, and forgets them.
    void stack(const Game& game, std::int64_t table, std::vector<Card>& deck);

  private:
    std::vector<std::string> cards_;
};

} // namespace felt::server
