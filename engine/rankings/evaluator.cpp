#include "rankings/evaluator.h"

#include <algorithm>

namespace felt {

HandValue evaluate(std::span<const Card> cards) {
    switch (cards.size()) {
    case 3:
        return evaluate<3>(cards.data());
    case 5:
        return evaluate<5>(cards.data());
    case 6:
        return evaluate<6>(cards.data());
    case 7:
        return evaluate<7>(cards.data());
    }
    assert(!"evaluate: a hand has 3, 5, 6 or 7 cards");
    return HandValue();
}

HandValue value_of_class(std::uint32_t hand_class) {
    const std::uint32_t* first = tables::kClassKey + 1;
    const std::uint32_t* last = tables::kClassKey + tables::kClassCount + 1;
    const std::uint32_t* it = std::lower_bound(first, last, hand_class);
    if (it == last || *it != hand_class) return HandValue();
    return HandValue(static_cast<std::uint16_t>(it - tables::kClassKey));
}

} // namespace felt
