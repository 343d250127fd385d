#include "distribution.h"

#include "enumerate.h"

#include <cassert>
#include <vector>

namespace felt {

namespace {

template <int N>
StandardDistribution count_hands() {
    // Four counter banks: consecutive hands of the innermost loop differ in the last card's suit
    // and often share a value, so one bank would make each increment wait for the previous one.
    // (n0 + 2 n1 + 3 n2) mod 4 of the suit counters steps by one from one suit to the next.
    constexpr int kBanks = 4;
    std::vector<std::uint32_t> per_value(kBanks * (tables::kClassCount + 1), 0);
    std::uint32_t* banks = per_value.data();
    for_each_hand<N>([banks](const HandKey& h) {
        const auto k = h.key;
        const int bank = static_cast<int>(k + 2 * (k >> 4) + 3 * (k >> 8)) & (kBanks - 1);
        ++banks[bank * (tables::kClassCount + 1) + evaluate(h).raw()];
    });

    StandardDistribution d;
    d.cards = N;
    for (int v = 0; v <= tables::kClassCount; ++v) {
        std::uint64_t n = 0;
        for (int b = 0; b < kBanks; ++b)
            n += per_value[static_cast<std::size_t>(b * (tables::kClassCount + 1) + v)];
        if (n == 0) continue;
        assert(v != 0); // every hand has a value
        ++d.distinct_values;
        d.total += n;
        d.categories[static_cast<std::size_t>(
            HandValue(static_cast<std::uint16_t>(v)).category())] += n;
    }
    return d;
}

} // namespace

StandardDistribution standard_distribution(int cards) {
    switch (cards) {
    case 3:
        return count_hands<3>();
    case 5:
        return count_hands<5>();
    case 6:
        return count_hands<6>();
    case 7:
        return count_hands<7>();
    }
    assert(!"standard_distribution: 3, 5, 6 or 7 cards");
    return {};
}

} // namespace felt
