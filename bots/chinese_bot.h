// The Chinese poker bot: an arrangement of its thirteen cards (engine/chinese), a special hand
// declared where that pays more, and a surrender where the profile allows one (scoop) and the
// best arrangement is expected to lose more than the surrender costs.
#pragma once

#include "chinese/chinese.h"
#include "poker_bot.h"

#include <optional>
#include <span>

namespace felt::bots {

struct ChineseChoice {
    chinese::Split split;
    std::optional<chinese::Special> declare;
    bool surrender = false;
    double expected_units = 0; // the arrangement's, against one opponent (0: the baseline's)
};

// easy and the fixed kinds: the baseline split (strongest back, then middle, front the rest);
// fair: the arranger's best, declaring as above; strong: that, and surrendering as above. Cards
// that are not thirteen different cards of the pack get the baseline split.
ChineseChoice choose_chinese(std::span<const Card> cards, const chinese::Profile& profile,
                             const chinese::SplitRules& rules, Kind kind);

// The bot's choice for `mine` settled heads-up against the baseline split of `theirs` (at the
// profile's unit of 1, stacks deep enough): the bot's units; settle()'s refusal, which names a
// special hand the cards do not hold, as the error.
Result<int> against_baseline(const ChineseChoice& c, std::span<const Card> theirs,
                             const chinese::Profile& profile, int dealer);

} // namespace felt::bots
