// Chips: one type for every amount of chips, in every game, the ledger and the protocol. A strong
// type, so that an amount is never a seat, a count or an id by accident: amounts add, subtract
// and compare with amounts, and scale by a plain count; anything else goes through value(). The
// literal 0 alone stands for no chips (`Chips c = 0`, `c > 0`); any other number must be named
// (`Chips(40)`), and a variable that is not an amount is refused by the compiler.
#pragma once

#include <compare>
#include <concepts>
#include <cstdint>
#include <ostream>
#include <string>

namespace felt {

// Only a null pointer constant, which among numbers is the literal 0, converts to a pointer to
// this type: it lets `Chips c = 0` and `c > 0` compile, and nothing else.
struct NoChips;

class Chips {
  public:
    constexpr Chips() = default;
    constexpr Chips(NoChips*) {}
    // Any integer, named: Chips(40), Chips(row.amount).
    template <std::integral T>
    requires(!std::same_as<T, bool>) constexpr explicit Chips(T n)
        : n_(static_cast<std::int64_t>(n)) {}
    constexpr std::int64_t value() const { return n_; }

    constexpr Chips& operator+=(Chips o) {
        n_ += o.n_;
        return *this;
    }
    constexpr Chips& operator-=(Chips o) {
        n_ -= o.n_;
        return *this;
    }
    friend constexpr Chips operator+(Chips a, Chips b) { return Chips(a.n_ + b.n_); }
    friend constexpr Chips operator-(Chips a, Chips b) { return Chips(a.n_ - b.n_); }
    friend constexpr Chips operator-(Chips a) { return Chips(-a.n_); }
    friend constexpr Chips operator*(Chips a, std::int64_t k) { return Chips(a.n_ * k); }
    friend constexpr Chips operator*(std::int64_t k, Chips a) { return Chips(k * a.n_); }
    // Rounded toward zero, as integers are.
    friend constexpr Chips operator/(Chips a, std::int64_t k) { return Chips(a.n_ / k); }
    friend constexpr Chips operator%(Chips a, std::int64_t k) { return Chips(a.n_ % k); }
    friend constexpr bool operator==(Chips, Chips) = default;
    friend constexpr auto operator<=>(Chips, Chips) = default;
    constexpr Chips& operator++() {
        ++n_;
        return *this;
    }
    constexpr Chips& operator--() {
        --n_;
        return *this;
    }
    // Whether there are any.
    constexpr explicit operator bool() const { return n_ != 0; }

  private:
    std::int64_t n_ = 0;
};

inline std::ostream& operator<<(std::ostream& out, Chips c) {
    return out << c.value();
}

inline std::string to_string(Chips c) {
    return std::to_string(c.value());
}

} // namespace felt
