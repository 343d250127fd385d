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
    // Betting games (engine/hand.h):
    bad_config,     // a hand that cannot start: seats, stacks, stakes, deck
    hand_over,      // an action after the hand has ended
    not_your_turn,  // an action by a seat that is not to act
    illegal_action, // an action of a kind not allowed now (a bet when only calling is left, ...)
    cannot_check,   // a check when chips are owed
    bad_amount,     // a bet or raise of a size not allowed
    // Chinese poker (engine/chinese.h):
    wrong_cards,        // a split that is not exactly the dealt cards
    middle_above_back,  // the middle ranks above the back
    front_above_middle, // the front ranks above the middle
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
