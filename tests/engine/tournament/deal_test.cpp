// Deals: ICM by Malmuth-Harville against the published vector and against every
// finishing order weighed one by one; whole chips by the largest remainder; the chip-count deal.
#include "tournament/deal.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

using namespace felt;
using namespace felt::tournament;

namespace {

std::vector<Chips> chips(std::initializer_list<std::int64_t> xs) {
    std::vector<Chips> out;
    for (std::int64_t x : xs) out.push_back(Chips(x));
    return out;
}

Chips total(const std::vector<Chips>& xs) {
    return std::accumulate(xs.begin(), xs.end(), Chips());
}

// The slow reference: every finishing order, its Harville probability (each place to a player
// left in proportion to their stack among those left), each player's prize in it.
std::vector<double> every_order(const std::vector<Chips>& stacks,
                                const std::vector<Chips>& prizes) {
    std::vector<int> order(stacks.size());
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> equity(stacks.size(), 0.0);
    do {
        double p = 1.0, left = static_cast<double>(total(stacks).value());
        for (int i : order) {
            const double s = static_cast<double>(stacks[static_cast<std::size_t>(i)].value());
            p *= s / left;
            left -= s;
        }
        for (std::size_t place = 0; place < order.size(); ++place)
            if (place < prizes.size())
                equity[static_cast<std::size_t>(order[place])] +=
                    p * static_cast<double>(prizes[place].value());
    } while (std::next_permutation(order.begin(), order.end()));
    return equity;
}

} // namespace

TEST_CASE("ICM: the issue's test vector, to the cent") {
    const auto e = icm_equity(chips({150000, 98750, 45500, 13250}), chips({425, 280, 130, 75}));
    REQUIRE(e.ok());
    const std::vector<double> want = {323.20, 278.12, 195.79, 112.89};
    for (std::size_t i = 0; i < want.size(); ++i) // rounded to the cent, as published
        CHECK(std::abs((*e)[i] - want[i]) < 0.005);
}

TEST_CASE("ICM: the same as weighing every finishing order, for random fields of up to 7") {
    std::mt19937 rng(47);
    for (int round = 0; round < 300; ++round) {
        const int n = 1 + static_cast<int>(rng() % 7);
        std::vector<Chips> stacks, prizes;
        for (int i = 0; i < n; ++i)
            stacks.push_back(Chips(1 + static_cast<std::int64_t>(rng() % 100000)));
        const int paid = 1 + static_cast<int>(rng() % static_cast<unsigned>(n));
        for (int k = 0; k < paid; ++k)
            prizes.push_back(Chips(1 + static_cast<std::int64_t>(rng() % 1000)));
        std::sort(prizes.rbegin(), prizes.rend());
        const auto fast = icm_equity(stacks, prizes);
        REQUIRE(fast.ok());
        const std::vector<double> slow = every_order(stacks, prizes);
        double sum = 0;
        for (int i = 0; i < n; ++i) {
            CHECK((*fast)[static_cast<std::size_t>(i)] ==
                  doctest::Approx(slow[static_cast<std::size_t>(i)]).epsilon(1e-9));
            sum += (*fast)[static_cast<std::size_t>(i)];
        }
        CHECK(sum == doctest::Approx(static_cast<double>(total(prizes).value())).epsilon(1e-9));
        // The deal in whole chips adds up to the prizes, each within a chip of its equity.
        const auto deal = icm_deal(stacks, prizes);
        REQUIRE(deal.ok());
        CHECK(total(*deal) == total(prizes));
        for (int i = 0; i < n; ++i)
            CHECK(std::abs(static_cast<double>((*deal)[static_cast<std::size_t>(i)].value()) -
                           (*fast)[static_cast<std::size_t>(i)]) < 1.0);
    }
}

TEST_CASE("ICM: ten players exactly; equal stacks, equal shares; refused in words") {
    const std::vector<Chips> ten(10, Chips(1000));
    const auto e = icm_equity(ten, chips({500, 300, 200}));
    REQUIRE(e.ok());
    for (double x : *e) CHECK(x == doctest::Approx(100.0));
    // Equal equities in whole chips: one of them has the odd chip.
    std::vector<Chips> even = *icm_deal(chips({10, 10, 10}), chips({50, 30, 20}));
    std::sort(even.begin(), even.end());
    CHECK(even == chips({33, 33, 34}));
    CHECK(icm_equity(std::vector<Chips>(11, Chips(1)), chips({1})).error().message ==
          "a deal is for at most 10 players");
    CHECK(icm_equity({}, chips({1})).error().message == "a deal needs at least one player");
    CHECK(icm_equity(chips({5, 0}), chips({1})).error().message ==
          "every stack in a deal must be positive");
    CHECK(icm_equity(chips({5}), chips({2, 1})).error().message == "more prizes than players");
    CHECK(icm_equity(chips({5, 5}), chips({1, 2})).error().code == Errc::bad_config);
}

TEST_CASE("whole chips by the largest remainder; the chip-count deal") {
    CHECK(whole_chips(std::vector<double>{33.5, 33.3, 33.2}, Chips(100)) == chips({34, 33, 33}));
    CHECK(whole_chips(std::vector<double>{0.6, 0.4}, Chips(1)) == chips({1, 0}));
    // Chip count: the lowest prize to each (75), the rest (910 - 300 = 610) by chips.
    const auto d = chip_deal(chips({150000, 98750, 45500, 13250}), chips({425, 280, 130, 75}));
    REQUIRE(d.ok());
    CHECK(total(*d) == Chips(910));
    // 610 x 150000 / 307500 = 297.56...; 195.89...; 90.26...; 26.28...
    CHECK(*d == chips({75 + 298, 75 + 196, 75 + 90, 75 + 26}));
    // Fewer prizes than players: the lowest prize left is nothing.
    CHECK(*chip_deal(chips({300, 100}), chips({100})) == chips({75, 25}));
}
