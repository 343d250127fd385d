#include "rankings/distribution.h"

#include "rankings/enumerate.h"

#include <cassert>
#include <vector>

namespace felt {

namespace {

template <int N>
StandardDistribution count_hands() {
    // One counter per value. The counters (50 KiB) share L2 with the tables; per-value rather
    // than per-category counting needs no value-to-category step in the loop.
    std::vector<std::uint32_t> per_value(tables::kClassCount + 1, 0);
    std::uint32_t* counts = per_value.data();
    for_each_hand<N>([counts](const HandKey& h) { ++counts[evaluate(h).raw()]; });

    StandardDistribution d;
    d.cards = N;
    for (int v = 0; v <= tables::kClassCount; ++v) {
        const std::uint64_t n = per_value[static_cast<std::size_t>(v)];
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
