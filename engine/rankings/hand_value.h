// The value of a hand under the standard ranking: one integer, greater is stronger.
#pragma once

#include "rankings/hand_class.h"
#include "standard_tables.h"

#include <compare>
#include <cstdint>

namespace felt {

// Values number the hand classes of hand_class.h in order, 1 .. tables::kClassCount (12,506):
// every five-card class of one pack (7,462 of them), every three-card front, and the classes only
// wild cards reach. So any two values compare, whatever the hand sizes; 0 means "no hand".
class HandValue {
  public:
    constexpr HandValue() = default;
    constexpr explicit HandValue(std::uint16_t v) : v_(v) {}

    constexpr std::uint16_t raw() const { return v_; }

    constexpr Category category() const {
        int c = kCategoryCount - 1;
        while (c > 0 && v_ < tables::kCategoryFirst[c]) --c;
        return static_cast<Category>(c);
    }

    // The hand written out: category, defining ranks, kickers (see hand_class.h).
    std::uint32_t hand_class() const { return tables::kClassKey[v_]; }

    constexpr auto operator<=>(const HandValue&) const = default;

  private:
    std::uint16_t v_ = 0;
};

// The value of a written-out class; HandValue() when the class does not exist.
HandValue value_of_class(std::uint32_t hand_class);

} // namespace felt
