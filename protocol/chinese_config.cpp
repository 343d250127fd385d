#include "protocol/chinese_config.h"

namespace felt::protocol {

Chips ChineseConfig::stake_needed() const {
    if (options.chip_limit) return Chips(1);
    return chinese::max_loss_units(rules(), options.aces, seats - 1) * options.unit + options.rake;
}

json ChineseConfig::to_json() const {
    json j = {{"game", "chinese"},
              {"profile", profile},
              {"seats", seats},
              {"strict_order", options.rules.strict_order},
              {"short_kickers_lowest", options.rules.short_kickers_lowest},
              {"chip_limit", options.chip_limit},
              {"aces", options.aces},
              {"banker", banker},
              {"surrender", surrender},
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

Outcome<ChineseConfig> decode_chinese_config(const json& body) {
    ConfigReader in(body);
    ChineseConfig c;
    c.options.chip_limit = true;
    c.profile = in.text("profile", c.profile);
    const chinese::Profile* profile = chinese::find_profile(c.profile);
    if (!profile) {
        std::string known;
        for (auto n : chinese::profile_names())
            known += (known.empty() ? "" : ", ") + std::string(n);
        in.refuse("profile", "no profile \"" + c.profile + "\" (" + known + ")");
        c.profile = "classic";
        profile = chinese::find_profile(c.profile);
    }
    c.options.rules.strict_order = in.boolean("strict_order", c.options.rules.strict_order);
    c.options.rules.short_kickers_lowest =
        in.boolean("short_kickers_lowest", c.options.rules.short_kickers_lowest);
    c.options.chip_limit = in.boolean("chip_limit", c.options.chip_limit);
    c.options.aces = in.boolean("aces", c.options.aces);
    c.banker = in.boolean("banker", c.banker);
    c.surrender = in.boolean("surrender", c.surrender);
    c.hints = in.boolean("hints", c.hints);
    if (c.surrender && profile->scoring != chinese::Scoring::scoop)
        in.refuse("surrender", "surrender belongs to the scoop profile");
    c.seats = static_cast<int>(in.integer("seats", c.seats, 2, 4));
    c.options.unit = in.chips("unit", Chips(1), 1, 1'000'000);
    c.options.rake = in.chips("rake", 0, 0, 1'000'000);
    const Chips needed = c.stake_needed();
    read_buy_ins(in, c.options.chip_limit, 20 * c.options.unit, needed, "deal", c.min_buy_in,
                 c.max_buy_in);
    read_pace(in, c.decision_ms, c.sit_out_after, c.hand_delay_ms);
    read_table_bots(in, c.seats, c.bots);
    if (auto error = in.finish()) return {std::nullopt, std::move(*error)};
    return {std::move(c), {}};
}

} // namespace felt::protocol
