// A deck described as data (ranks and their labels, suits, copies, jokers), and card notation.
#pragma once

#include "cards/types.h"
#include "result.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace felt {

class Deck {
  public:
    // Validates a description: 1..30 ranks with distinct non-empty labels, 1..8 suits with
    // distinct letters, 1..8 copies, 0..8 jokers.
    static Result<Deck> make(std::vector<std::string> rank_labels,
                             std::string suit_letters = "shdc", int copies = 1, int jokers = 0);

    // The 52-card pack, 2 to A in spades, hearts, diamonds, clubs, with optional jokers.
    static Deck standard(int jokers = 0);

    int ranks() const { return static_cast<int>(rank_labels_.size()); }
    int suits() const { return static_cast<int>(suit_letters_.size()); }
    int copies() const { return copies_; }
    int jokers() const { return jokers_; }
    // Physical cards: ranks x suits x copies + jokers.
    int size() const { return ranks() * suits() * copies_ + jokers_; }

    const std::vector<std::string>& rank_labels() const { return rank_labels_; }
    const std::string& suit_letters() const { return suit_letters_; }

    // True when the card's face exists in this deck.
    bool contains(Card c) const;
    // Why these cards cannot be one hand dealt from this deck: a card the deck does not have
    // (bad_card), or a card more often than the deck holds it (duplicate_card). Empty if they can.
    std::optional<Error> check(std::span<const Card> cards) const;

    // Every physical card, jokers last; copies of a face appear `copies()` times.
    std::vector<Card> cards() const;

    // Canonical text: rank label then suit letter ("As", "Td"); a joker is "Xx".
    std::string to_string(Card c) const;
    std::string to_string(std::span<const Card> cards) const; // space-separated
    std::string rank_label(Rank r) const { return rank_labels_.at(r.index()); }

    // One card. Case-insensitive; "10" is accepted for "T".
    Result<Card> parse_card(std::string_view token) const;

    // A list of cards separated by spaces or commas, or written together ("AsKd"). Refuses a
    // token that is not a card, and a card given more often than the deck holds it (a duplicate
    // in a one-copy deck). Jokers are numbered in the order they appear.
    Result<std::vector<Card>> parse_cards(std::string_view text) const;

  private:
    Deck() = default;

    // Length of the card notation at the start of `text` and the card it names; 0 when none.
    std::size_t match_card(std::string_view text, Card& out) const;

    std::vector<std::string> rank_labels_;
    std::string suit_letters_;
    int copies_ = 1;
    int jokers_ = 0;
};

} // namespace felt
