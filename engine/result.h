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
