// Wild cards for the standard ranking, and the checked entry point for hands from outside.
#pragma once

#include "cards/deck.h"
#include "rankings/hand_value.h"
#include "result.h"

#include <span>
#include <string_view>

namespace felt {

// What a table declares wild (cards-and-rankings.md):
//   joker     a 53rd card, fully wild
//   bug       a 53rd card that counts only as an ace, or to complete a straight, flush or
//             straight flush
//   deuces    all four 2s
//   one_eyes  K of diamonds, J of spades, J of hearts
// A wild card may duplicate a card already in the hand: two A of spades make five aces possible,
// and a flush may hold the same rank twice ("A A K Q 9" of spades beats "A K Q J 9").
enum class Wild : std::uint8_t { none, joker, bug, deuces, one_eyes };

// "none", "joker", "bug", "deuces", "one-eyes" (also "one_eyes").
Result<Wild> parse_wild(std::string_view name);
std::string_view wild_name(Wild w);

// The pack a table with this option deals from: 53 cards with joker or bug, else 52.
const Deck& deck_for(Wild w);

bool is_wild(Card c, Wild w);

// Checked evaluation of cards from outside: 3, 5, 6 or 7 cards of deck_for(wild), no card twice.
// Wild cards count in hands of 5 to 7 cards; a three-card front knows no wild cards.
Result<HandValue> evaluate_hand(std::span<const Card> cards, Wild wild = Wild::none);

// The same for cards known to be such a hand (dealt cards, enumerations): no checks. A
// three-card hand must hold no wild card.
HandValue evaluate_wild(std::span<const Card> cards, Wild wild);

} // namespace felt
