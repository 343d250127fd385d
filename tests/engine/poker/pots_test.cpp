// Side pots and splits (engine/poker/pots.*).
#include "poker/pots.h"

#include <doctest/doctest.h>

using namespace felt::poker;

TEST_CASE("pots: three all-ins of different sizes, with a fold in between") {
    // Seat 0 all in for 100, seat 1 folded after putting in 200, seat 2 all in for 300, seat 3
    // covers with 500.
    const std::array<Chips, kMaxSeats> put = {Chips(100), Chips(200), Chips(300), Chips(500)};
    const auto pots = build_pots(put, 0b0010, 4);
    REQUIRE(pots.size() == 3);
    CHECK(pots[0].amount == Chips(400)); // 100 from each
    CHECK(pots[0].eligible == 0b1101);
    CHECK(pots[1].amount == Chips(500)); // 200 from seats 2 and 3, the folded seat's last 100
    CHECK(pots[1].eligible == 0b1100);
    CHECK(pots[2].amount == Chips(200)); // seat 3's last 200
    CHECK(pots[2].eligible == 0b1000);
    Chips sum{};
    for (const Pot& p : pots) sum += p.amount;
    CHECK(sum == Chips(1100));
}

TEST_CASE("pots: no all-in, one pot; everyone equal") {
    const std::array<Chips, kMaxSeats> put = {Chips(50), Chips(50), Chips(50)};
    const auto pots = build_pots(put, 0, 3);
    REQUIRE(pots.size() == 1);
    CHECK(pots[0].amount == Chips(150));
    CHECK(pots[0].eligible == 0b111);
}

TEST_CASE("split: equal shares, odd chips from the button's left") {
    // 101 between seats 1 and 3, button on seat 2: seat 3 is first after the button.
    auto s = split(Chips(101), 0b1010, 4, 2);
    CHECK(s[1] == Chips(50));
    CHECK(s[3] == Chips(51));
    // 100 among three winners, button on seat 0: seat 1, first after the button, gets the odd chip.
    s = split(Chips(100), 0b0111, 3, 0);
    CHECK(s[0] == Chips(33));
    CHECK(s[1] == Chips(34));
    CHECK(s[2] == Chips(33));
    // One winner takes everything.
    s = split(Chips(77), 0b100, 3, 1);
    CHECK(s[2] == Chips(77));
}
