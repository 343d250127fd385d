// Chips (engine/chips.h): what the type lets through and what it refuses, checked by the compiler,
// and its arithmetic checked against plain integers.
#include "chips.h"

#include <doctest/doctest.h>

#include <concepts>
#include <cstdint>
#include <sstream>
#include <type_traits>

using felt::Chips;

namespace {

// What the compiler accepts, asked without compiling it for real.
template <class A, class B>
concept addable = requires(A a, B b) {
    a + b;
};
template <class A, class B>
concept multipliable = requires(A a, B b) {
    a* b;
};
template <class A, class B>
concept comparable = requires(A a, B b) {
    a < b;
};

// Only the literal 0 converts without a name.
constexpr Chips none = 0;
static_assert(none.value() == 0);
static_assert(Chips(40) > 0);

// An integer variable is never an amount by accident, nor an amount an integer.
static_assert(!std::is_convertible_v<int, Chips>);
static_assert(!std::is_convertible_v<std::int64_t, Chips>);
static_assert(!std::is_convertible_v<Chips, std::int64_t>);
static_assert(!std::is_convertible_v<Chips, int>);
static_assert(std::is_constructible_v<Chips, int>);
static_assert(std::is_constructible_v<Chips, std::uint64_t>);
static_assert(!std::is_constructible_v<Chips, bool>);
static_assert(!std::is_constructible_v<Chips, double>);
// Amounts add to amounts and scale by counts; an amount times an amount means nothing.
static_assert(addable<Chips, Chips>);
static_assert(!addable<Chips, int>);
static_assert(!addable<int, Chips>);
static_assert(multipliable<Chips, int>);
static_assert(multipliable<int, Chips>);
static_assert(!multipliable<Chips, Chips>);
static_assert(comparable<Chips, Chips>);
static_assert(!comparable<Chips, std::int64_t>);
static_assert(sizeof(Chips) == sizeof(std::int64_t));
static_assert(std::is_trivially_copyable_v<Chips>);

} // namespace

TEST_CASE("chips: arithmetic agrees with plain integers") {
    const std::int64_t values[] = {-1'000'000'007, -13, -1, 0, 1, 7, 100, 4'000'000'000'000};
    const std::int64_t counts[] = {-3, -1, 1, 2, 9};
    for (std::int64_t a : values) {
        for (std::int64_t b : values) {
            CHECK((Chips(a) + Chips(b)).value() == a + b);
            CHECK((Chips(a) - Chips(b)).value() == a - b);
            CHECK((Chips(a) < Chips(b)) == (a < b));
            CHECK((Chips(a) == Chips(b)) == (a == b));
            Chips c(a);
            c += Chips(b);
            CHECK(c.value() == a + b);
            c -= Chips(b);
            CHECK(c.value() == a);
        }
        for (std::int64_t k : counts) {
            CHECK((Chips(a) * k).value() == a * k);
            CHECK((k * Chips(a)).value() == k * a);
            CHECK((Chips(a) / k).value() == a / k);
            CHECK((Chips(a) % k).value() == a % k);
        }
        CHECK((-Chips(a)).value() == -a);
        CHECK(static_cast<bool>(Chips(a)) == (a != 0));
        CHECK((Chips(a) > 0) == (a > 0));
        std::ostringstream out;
        out << Chips(a);
        CHECK(out.str() == std::to_string(a));
        CHECK(to_string(Chips(a)) == std::to_string(a));
    }
}
