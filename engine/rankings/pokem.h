// Poke'm (cards-and-rankings.md): cards with three attributes, five-card hands.
//
// The deck: number 1-5, colour, shape, five values each, one card of every combination (125).
// A card is written n<number><colour><shape>, e.g. "n3rc"; the leading n may be left out.
//   colours, values 1..5:  r red, y yellow, g green, b blue, p purple
//   shapes,  values 1..5:  c circle, t triangle, s square, d diamond, h hexagon
// Card code: (number - 1) * 25 + (colour - 1) * 5 + (shape - 1), 0..124 (Card::from_code).
//
// Per attribute the five cards show a pattern: five of a kind (5k), one of each (oe), four of a
// kind (4k), full house (fh), three of a kind (3k), two pair (2p), one pair (1p). 5k and oe are
// perfect. Comparison, first difference decides: more perfect attributes; more 5k attributes,
// then their values, highest first; then the other attributes' patterns, best first, each by
// pattern, group values, kickers. With `quads_over_one_of_each`, a hand whose only perfect
// attribute is a one of each ranks below every hand holding four of a kind (itself included
// among those it ranks below: such hands then order among themselves by the rest of the rules).
//
// Category: the tier, then the three patterns in comparison order: "single_perfect:oe+4k+2p".
#pragma once

#include "rankings/ranking.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace felt {

inline constexpr int kPokemValues = 5;
inline constexpr int kPokemCards = 125;

Result<std::unique_ptr<const Ranking>> make_pokem_ranking(bool quads_over_one_of_each);

// Five Poke'm cards (codes 0..124, all different: unchecked) to strength and category.
Judgement judge_pokem(const std::array<Card, 5>& hand, bool quads_over_one_of_each);

// Every 5-card hand of the 125-card deck, counted by category, strongest category first.
struct PokemDistribution {
    std::uint64_t total = 0;
    std::vector<std::pair<std::string, std::uint64_t>> categories;
};
PokemDistribution pokem_distribution(bool quads_over_one_of_each);

} // namespace felt
