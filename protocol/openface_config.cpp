#include "protocol/openface_config.h"

namespace felt::protocol {

Chips OpenFaceConfig::stake_needed() const {
    if (options.chip_limit) return Chips(1);
    return kMaxLossPoints * (seats - 1) * options.unit + options.rake;
}

json OpenFaceConfig::to_json() const {
    json j = {{"game", "open-face"},
              {"variant", openface::variant_name(options.variant)},
              {"seats", seats},
              {"progressive", options.progressive},
              {"stay", openface::stay_name(options.stay)},
              {"chip_limit", options.chip_limit},
              {"hints", hints},
              {"unit", options.unit},
              {"rake", options.rake},
              {"min_buy_in", min_buy_in},
              {"max_buy_in", max_buy_in},
              {"decision_ms", decision_ms},
              {"sit_out_after", sit_out_after},
              {"hand_delay_ms", hand_delay_ms}};
    if (bots) j["bots"] = bots->to_json();
    return j;
}

Outcome<OpenFaceConfig> decode_openface_config(const json& body) {
    ConfigReader in(body);
    OpenFaceConfig c;
    c.options.chip_limit = true;
    const std::string variant = in.text("variant", "pineapple");
    if (auto v = openface::parse_variant(variant))
        c.options.variant = *v;
    else
        in.refuse("variant", "no variant \"" + variant + "\" (pineapple, classic)");
    const std::string stay = in.text("stay", "standard");
    if (auto s = openface::parse_stay(stay))
        c.options.stay = *s;
    else
        in.refuse("stay", "no stay rule \"" + stay + "\" (standard, strict)");
    c.options.progressive = in.boolean("progressive", false);
    c.options.chip_limit = in.boolean("chip_limit", c.options.chip_limit);
    c.hints = in.boolean("hints", c.hints);
    const int most = openface::max_players(c.options.variant);
    c.seats = static_cast<int>(in.integer("seats", most, 2, 4));
    if (c.seats > most)
        in.refuse("seats", std::string(openface::variant_name(c.options.variant)) + " seats 2 to " +
                               std::to_string(most) + " players, not " + std::to_string(c.seats));
    if (c.options.progressive && c.seats == 4)
        in.refuse("progressive", "progressive Fantasyland needs at most 3 seats: at 4, every "
                                 "hand is 13 cards and the pack has none to spare");
    c.options.unit = in.chips("unit", Chips(1), 1, 1'000'000);
    c.options.rake = in.chips("rake", 0, 0, 1'000'000);
    const Chips needed = c.stake_needed();
    read_buy_ins(in, c.options.chip_limit, 50 * c.options.unit, needed, "hand", c.min_buy_in,
                 c.max_buy_in);
    read_pace(in, c.decision_ms, c.sit_out_after, c.hand_delay_ms);
    read_table_bots(in, c.seats, c.bots);
    if (auto error = in.finish()) return {std::nullopt, std::move(*error)};
    return {std::move(c), {}};
}

} // namespace felt::protocol
