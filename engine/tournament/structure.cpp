#include "tournament/structure.h"

#include <algorithm>
#include <array>
#include <string>

namespace felt::tournament {

namespace {

Error bad(std::string what) {
    return Error{Errc::bad_config, std::move(what)};
}

// Amounts past this are not raised further (a structure run far past its end).
constexpr Chips kMost(std::int64_t{1} << 50);

std::vector<Level> playing(const Structure& s) {
    std::vector<Level> out;
    for (const Level& l : s.levels)
        if (!l.is_break()) out.push_back(l);
    return out;
}

bool has_stakes(const Level& l) {
    return l.small_blind || l.big_blind || l.ante || l.big_blind_ante || l.small_bet || l.big_bet ||
           l.bring_in || l.minutes || l.hands;
}

// Every amount of a level, for the checks and the raises that treat them alike.
std::array<Chips*, 7> amounts(Level& l) {
    return {&l.small_blind, &l.big_blind, &l.ante,    &l.big_blind_ante,
            &l.small_bet,   &l.big_bet,   &l.bring_in};
}

std::int64_t length(const Level& l) {
    if (l.is_break()) return std::int64_t{l.break_minutes} * 60'000;
    return l.hands > 0 ? l.hands : std::int64_t{l.minutes} * 60'000;
}

} // namespace

std::string_view beyond_name(Beyond b) {
    switch (b) {
    case Beyond::doubling:
        return "double";
    case Beyond::step:
        return "step";
    case Beyond::stay:
        return "stay";
    }
    return "?";
}

std::optional<Beyond> parse_beyond(std::string_view name) {
    for (Beyond b : {Beyond::doubling, Beyond::step, Beyond::stay})
        if (beyond_name(b) == name) return b;
    return std::nullopt;
}

std::optional<Error> check(const Structure& s) {
    const std::vector<Level> levels = playing(s);
    if (levels.empty()) return bad("a structure needs at least one level");
    const bool hands = levels.front().hands > 0;
    int number = 0; // of the last playing level seen
    const Level* before = nullptr;
    for (std::size_t i = 0; i < s.levels.size(); ++i) {
        Level l = s.levels[i];
        if (l.break_minutes < 0) return bad("a break's length cannot be negative");
        if (l.is_break()) {
            const std::string where = "the break after level " + std::to_string(number);
            if (number == 0) return bad("a break comes between levels, not before the first");
            if (i + 1 == s.levels.size() || s.levels[i + 1].is_break())
                return bad(where + " must be followed by a level");
            if (has_stakes(l)) return bad(where + " has blinds, antes or a length of play");
            if (hands) return bad("breaks are in minutes; this structure's levels count hands");
            if (l.break_minutes > 24 * 60) return bad(where + " is longer than a day");
            continue;
        }
        ++number;
        const std::string where = "level " + std::to_string(number);
        for (Chips* a : amounts(l))
            if (*a < 0) return bad(where + " has a negative amount");
        if (l.small_blind > l.big_blind)
            return bad(where + ": the small blind exceeds the big blind");
        if (!l.big_blind && !l.small_bet) return bad(where + " needs a big blind or a small bet");
        if (l.small_bet > 0 && l.big_bet > 0 && l.big_bet < l.small_bet)
            return bad(where + ": the big bet is smaller than the small bet");
        if (l.minutes < 0 || l.hands < 0) return bad(where + " has a negative length");
        if ((l.minutes > 0) == (l.hands > 0))
            return bad(where + " needs a length: minutes or hands, one of them");
        if ((l.hands > 0) != hands)
            return bad(where + ": every level counts minutes, or every level counts hands");
        if (l.minutes > 24 * 60 || l.hands > 10'000) return bad(where + " is too long");
        if (before && (l.small_blind < before->small_blind || l.big_blind < before->big_blind ||
                       l.small_bet < before->small_bet || l.big_bet < before->big_bet))
            return bad(where + ": blinds and bets cannot fall from one level to the next");
        before = &s.levels[i];
    }
    if (s.beyond == Beyond::step && s.step <= 0)
        return bad("blinds that rise by a step need a positive step");
    if (s.step < 0) return bad("the step cannot be negative");
    return std::nullopt;
}

Level level(const Structure& s, int n) {
    const std::vector<Level> levels = playing(s);
    if (n < 1) n = 1;
    if (n <= static_cast<int>(levels.size())) return levels[static_cast<std::size_t>(n - 1)];
    Level out = levels.back();
    const std::int64_t past = n - static_cast<std::int64_t>(levels.size());
    switch (s.beyond) {
    case Beyond::stay:
        break;
    case Beyond::doubling:
        for (std::int64_t k = 0; k < past; ++k)
            for (Chips* a : amounts(out))
                if (*a < kMost) *a = *a * 2;
        break;
    case Beyond::step: {
        // The big blind (the small bet, in a game without blinds) rises by the step; the rest
        // keep their proportion to it.
        Chips& base = out.big_blind ? out.big_blind : out.small_bet;
        const Chips from = base;
        const std::int64_t steps = std::min<std::int64_t>(past, kMost.value() / s.step.value());
        const Chips to = std::min(kMost, from + s.step * steps);
        const Level last = out;
        for (Chips* a : amounts(out)) {
            const Chips was = *a;
            *a = was ? Chips(static_cast<std::int64_t>(static_cast<long double>(was.value()) *
                                                       static_cast<long double>(to.value()) /
                                                       static_cast<long double>(from.value())))
                     : Chips();
        }
        base = to;
        if (last.small_blind && !out.small_blind) out.small_blind = Chips(1);
        break;
    }
    }
    return out;
}

bool in_hands(const Structure& s) {
    for (const Level& l : s.levels)
        if (!l.is_break()) return l.hands > 0;
    return false;
}

Position position(const Structure& s, std::int64_t elapsed) {
    if (elapsed < 0) elapsed = 0;
    int number = 0;
    std::int64_t last = 1;
    for (const Level& l : s.levels) {
        const std::int64_t len = length(l);
        if (!l.is_break()) {
            ++number;
            last = std::max<std::int64_t>(1, len);
        }
        if (elapsed < len) return {std::max(1, number), l.is_break(), len - elapsed};
        elapsed -= len;
    }
    // Past the structure: levels as long as its last, one after another.
    return {number + static_cast<int>(std::min<std::int64_t>(elapsed / last, 1'000'000)) + 1, false,
            last - elapsed % last};
}

Stakes stakes_of(const Level& l, bool fixed_limit, bool bring_in_game) {
    Stakes st;
    st.ante = l.ante;
    st.big_blind_ante = l.big_blind_ante;
    if (bring_in_game) {
        st.small_bet = l.small_bet ? l.small_bet : l.big_blind;
        st.big_bet = l.big_bet ? l.big_bet : st.small_bet * 2;
        st.bring_in = l.bring_in ? l.bring_in : std::max(Chips(1), st.small_bet / 4);
        // A stud tournament always has an ante: without one, a field that folds to the bring-in
        // (players away are folded at once) never moves a chip, and never ends.
        if (!st.ante && !st.big_blind_ante) st.ante = std::max(Chips(1), st.small_bet / 10);
        return st;
    }
    st.small_blind = l.small_blind;
    st.big_blind = l.big_blind;
    if (fixed_limit) {
        st.small_bet = l.small_bet ? l.small_bet : l.big_blind;
        st.big_bet = l.big_bet ? l.big_bet : st.small_bet * 2;
    }
    return st;
}

std::optional<Preset> preset(std::string_view name) {
    auto blinds = [](std::int64_t sb, std::int64_t bb, std::int64_t ante, int minutes) {
        Level l;
        l.small_blind = Chips(sb);
        l.big_blind = Chips(bb);
        l.ante = Chips(ante);
        l.minutes = minutes;
        return l;
    };
    auto pause = [](int minutes) {
        Level l;
        l.break_minutes = minutes;
        return l;
    };
    Preset p;
    p.starting_stack = Chips(1'500);
    if (name == "turbo" || name == "regular") {
        const int minutes = name == "turbo" ? 2 : 6;
        p.structure.levels = {blinds(10, 20, 0, minutes), blinds(15, 30, 0, minutes),
                              blinds(25, 50, 0, minutes), blinds(50, 100, 0, minutes)};
        if (name == "turbo") p.hand_delay_ms = 500;
        return p;
    }
    if (name == "multi-table") {
        // Six 10-minute levels an hour, a 5-minute break after each hour, antes from the fourth.
        static constexpr std::array<std::array<std::int64_t, 3>, 24> kLevels = {{
            {10, 20, 0},          {15, 30, 0},          {25, 50, 0},          {50, 100, 10},
            {75, 150, 15},        {100, 200, 25},       {150, 300, 25},       {200, 400, 50},
            {300, 600, 75},       {400, 800, 100},      {500, 1000, 100},     {600, 1200, 200},
            {800, 1600, 200},     {1000, 2000, 300},    {1500, 3000, 400},    {2000, 4000, 500},
            {3000, 6000, 1000},   {4000, 8000, 1000},   {6000, 12000, 2000},  {8000, 16000, 2000},
            {10000, 20000, 3000}, {15000, 30000, 4000}, {20000, 40000, 5000}, {30000, 60000, 10000},
        }};
        for (std::size_t i = 0; i < kLevels.size(); ++i) {
            if (i > 0 && i % 6 == 0) p.structure.levels.push_back(pause(5));
            p.structure.levels.push_back(blinds(kLevels[i][0], kLevels[i][1], kLevels[i][2], 10));
        }
        return p;
    }
    return std::nullopt;
}

} // namespace felt::tournament
