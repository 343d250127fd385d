// The counts behind win_tables() (chinese.h), generated at build time by
// tablegen/gen_chinese_odds.cpp into the build tree (chinese_odds.cpp): for each row (front,
// middle, back) and each value of the standard scale, how many of kSamples hands arranged by the
// baseline put that value in that row.
#pragma once

#include "standard_tables.h"

#include <cstddef>
#include <cstdint>

namespace felt::chinese::odds {

inline constexpr std::size_t kValues = tables::kClassCount + 2; // indexed by HandValue::raw()
extern const std::uint32_t kSamples;
extern const std::uint32_t kRowCounts[3][kValues];

} // namespace felt::chinese::odds
