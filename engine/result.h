// A value or a typed error: how the engine reports a rule broken by its caller.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace felt {

// Stable error codes; the text of each is in error_code_name().
enum class Errc {
    bad_card,       // a token that is not a card of the deck
    duplicate_card, // the same card twice in a one-copy deck
    wrong_count,    // too few or too many cards for what was asked
    bad_option,     // an option value the engine does not know
    bad_deck,       // a deck description that cannot exist
    // Betting games (engine/poker/hand.h):
    bad_config,     // a hand that cannot start: seats, stacks, stakes, deck
    hand_over,      // an action after the hand has ended
    not_your_turn,  // an action by a seat that is not to act
    illegal_action, // an action of a kind not allowed now (a bet when only calling is left, ...)
    cannot_check,   // a check when chips are owed
    bad_amount,     // a bet or raise of a size not allowed
    // Chinese poker (engine/chinese/chinese.h):
    wrong_cards,        // a split that is not exactly the dealt cards
    middle_above_back,  // the middle ranks above the back
    front_above_middle, // the front ranks above the middle
    // Open-face Chinese poker (engine/openface/openface.h):
    row_full, // a card placed in a row with no room left
    // Leap rummy (engine/leap/leap.h, engine/leap/leap_game.h):
    too_short,            // a meld of fewer than three cards
    wrong_suit,           // natural cards that break the suit rule
    not_a_sequence,       // cards that do not run along a leap sequence
    no_adjacent_naturals, // a meld without two natural cards side by side
    adjacent_wilds,       // two jokers side by side
    not_abutting,         // a join of melds that do not meet
    leap_taken,           // a first meld in a leap whose leaptoken another player holds
    not_your_leap,        // a later meld outside the player's own leap
    leap_used,            // alternative rule: a second meld of the player in one leap
    no_conjoining,        // alternative rule: joining melds
    must_pursue,          // melding or discarding before pursuing
    must_discard,         // pursuing or retiring again before the turn's discard
    already_melded,       // a second melding action in one turn
    not_in_hand,          // a card the player does not hold
    no_such_meld,         // a meld id that is not on the table
    not_your_meld,        // extending another player's meld
    game_over,            // an action after every player has retired
    // The odds (engine/odds/):
    bad_range, // a hand range the syntax does not allow, or one with no hand left
};

const char* error_code_name(Errc code);

// An error code plus a sentence naming the problem (the bad token, the count, ...).
struct Error {
    Errc code;
    std::string message;
};

// Either a T or an Error. Small on purpose: g++ 12 has no std::expected in C++20.
template <class T>
class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T& value() const& {
        assert(ok());
        return std::get<0>(v_);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(v_));
    }
    const Error& error() const {
        assert(!ok());
        return std::get<1>(v_);
    }

    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }

  private:
    std::variant<T, Error> v_;
};

inline Error make_error(Errc code, std::string message) {
    return Error{code, std::move(message)};
}

} // namespace felt
