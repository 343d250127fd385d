#include "protocol/leap_config.h"

#include <algorithm>

namespace felt::protocol {

namespace {

const char* suits_name(leap::SuitRule r) {
    switch (r) {
    case leap::SuitRule::same_suit:
        return "same_suit";
    case leap::SuitRule::same_colour:
        return "same_colour";
    case leap::SuitRule::any:
        return "any";
    }
    return "any";
}

} // namespace

json LeapConfig::to_json() const {
    json j = {{"game", "leap"},
              {"seats", seats},
              {"ranks", rules.ranks},
              {"packs", rules.packs},
              {"suits", suits_name(rules.suits)},
              {"jokers", rules.jokers},
              {"leap_rule", rules.distinct_leaps ? "distinct" : "leaptokens"},
              {"hand_size", rules.hand_size},
              {"chips_per_point", chips_per_point},
              {"min_buy_in", min_buy_in},
              {"max_buy_in", max_buy_in},
              {"turn_ms", turn_ms},
              {"time_bank_ms", time_bank_ms},
              {"retire_after", retire_after},
              {"sit_out_after", sit_out_after},
              {"hand_delay_ms", hand_delay_ms}};
    if (bots) j["bots"] = bots->to_json();
    return j;
}

Outcome<LeapConfig> decode_leap_config(const json& body) {
    return decode_stored_leap_config(body, kRules);
}

Outcome<LeapConfig> decode_stored_leap_config(const json& body, int rules) {
    ConfigReader in(body);
    LeapConfig c;
    c.rules.edition = std::min(rules, 2);
    c.rules.ranks = static_cast<int>(in.integer("ranks", 13, 5, 17));
    if (c.rules.ranks != 5 && c.rules.ranks != 7 && (c.rules.ranks < 11 || c.rules.ranks > 13) &&
        c.rules.ranks != 17)
        in.refuse("ranks",
                  "\"ranks\" is 5, 7, 11, 12, 13 or 17, not " + std::to_string(c.rules.ranks));
    c.rules.packs = static_cast<int>(in.integer("packs", 0, 0, 4));
    c.rules.jokers = static_cast<int>(in.integer("jokers", 0, 0, 8));
    c.rules.hand_size = static_cast<int>(in.integer("hand_size", 5, 1, 20));
    c.chips_per_point = in.chips("chips_per_point", 0, 0, 1'000'000);
    c.turn_ms = static_cast<int>(in.integer("turn_ms", c.turn_ms, 100, 3'600'000));
    c.time_bank_ms = static_cast<int>(in.integer("time_bank_ms", c.time_bank_ms, 0, 3'600'000));
    c.retire_after = static_cast<int>(in.integer("retire_after", c.retire_after, 1, 100));
    c.sit_out_after = static_cast<int>(in.integer("sit_out_after", c.sit_out_after, 1, 1000));
    c.hand_delay_ms = static_cast<int>(in.integer("hand_delay_ms", c.hand_delay_ms, 0, 60'000));
    const std::string suits = in.choice("suits", "same_suit", {"same_suit", "same_colour", "any"});
    c.rules.suits = suits == "same_colour" ? leap::SuitRule::same_colour
                    : suits == "any"       ? leap::SuitRule::any
                                           : leap::SuitRule::same_suit;
    c.rules.distinct_leaps =
        in.choice("leap_rule", "leaptokens", {"leaptokens", "distinct"}) == "distinct";
    // Under leaptokens each player needs a leap of their own: by default as many seats as the
    // deck has leaps, up to four (7 ranks: 3 seats; 5 ranks: 2).
    const bool one_leap_each = !c.rules.distinct_leaps && c.rules.edition >= 2;
    c.seats = static_cast<int>(
        in.integer("seats", one_leap_each ? std::clamp(c.rules.ranks / 2, 2, 4) : 4, 2, 6));
    // Every number of players the table may deal to must make a game. More seats than leaps
    // under leaptokens is the seats' fault; a deck too small, the deck's.
    for (int players = 2; players <= c.seats && !in.failed(); ++players)
        if (auto t = leap::Table::make(c.rules, players); !t)
            in.refuse(one_leap_each && players > c.rules.ranks / 2 ? "seats" : "",
                      t.error().message + " (with " + std::to_string(players) + " players)");
    if (c.chips_per_point == 0) {
        // A game for points alone: a buy-in of 0 (as written back by to_json) or none.
        if (in.integer("min_buy_in", 0, 0, 0) != 0 || in.integer("max_buy_in", 0, 0, 0) != 0)
            in.refuse("min_buy_in", "a game for points alone takes no buy-in");
    } else {
        c.min_buy_in = in.chips("min_buy_in", 100 * c.chips_per_point, 1, 1'000'000'000'000);
        c.max_buy_in = in.chips("max_buy_in", 10 * c.min_buy_in, 1, 1'000'000'000'000);
        if (c.max_buy_in < c.min_buy_in) in.refuse("max_buy_in", "max_buy_in is below min_buy_in");
        if (c.max_buy_in > Chips(1'000'000'000'000))
            in.refuse("max_buy_in", "max_buy_in (by default ten times min_buy_in) is above "
                                    "1000000000000");
    }
    read_table_bots(in, c.seats, c.bots);
    if (auto error = in.finish()) return {std::nullopt, std::move(*error)};
    return {std::move(c), {}};
}

} // namespace felt::protocol
