#include "protocol/poker_config.h"

#include <array>

namespace felt::protocol {

namespace {

constexpr std::int64_t kMaxStake = 1'000'000'000;
constexpr std::int64_t kMaxBuyIn = 1'000'000'000'000;

// Whether a table's variant and structure have a street where an open pair counts.
bool open_pair_applies(const std::string& variant, const std::string& structure) {
    const poker::Variant* v = poker::builtin_variant(variant);
    return v && structure == "fixed-limit" && v->has_open_pair();
}

// Omaha's hole cards: a table's option.
bool picks_hole_cards(const std::string& variant) {
    const poker::Variant* v = poker::builtin_variant(variant);
    return v && v->hole_cards_used > 0;
}

} // namespace

json PokerConfig::to_json() const {
    json j = {{"game", "poker"},
              {"variant", variant},
              {"structure", structure},
              {"ranking", ranking},
              {"wild", wild},
              {"seats", seats},
              {"stakes",
               {{"ante", stakes.ante},
                {"small_blind", stakes.small_blind},
                {"big_blind", stakes.big_blind},
                {"bring_in", stakes.bring_in},
                {"small_bet", stakes.small_bet},
                {"big_bet", stakes.big_bet}}},
              {"min_buy_in", min_buy_in},
              {"max_buy_in", max_buy_in},
              {"decision_ms", decision_ms},
              {"time_bank_ms", time_bank_ms},
              {"sit_out_after", sit_out_after},
              {"hand_delay_ms", hand_delay_ms},
              {"showdown_delay_ms", showdown_delay_ms},
              {"runout_ms", runout_ms}};
    if (open_pair_applies(variant, structure)) {
        j["open_pair"] = open_pair;
        j["big_bet_from"] = big_bet_from;
    }
    if (variant == "draw") j["hints"] = hints;
    if (variant == "shrinking") j["draws"] = draws;
    if (picks_hole_cards(variant)) j["hole_cards"] = hole_cards;
    if (variant == "short-deck") j["trips_beat_straight"] = trips_beat_straight;
    if (bots) j["bots"] = bots->to_json();
    return j;
}

Outcome<std::pair<PokerConfig, poker::HandConfig>> decode_poker_config(const json& request) {
    using D = Outcome<std::pair<PokerConfig, poker::HandConfig>>;
    // The stakes come flat in a request and as one "stakes" object in a written configuration.
    json body = request;
    if (auto stakes = request.find("stakes"); request.is_object() && stakes != request.end()) {
        if (!stakes->is_object())
            return D{std::nullopt,
                     {"bad_config", "\"stakes\" must be an object of chip amounts", "stakes"}};
        body.erase("stakes");
        for (const auto& [key, value] : stakes->items()) {
            if (body.contains(key))
                return D{std::nullopt, {"bad_config", "\"" + key + "\" is given twice", key}};
            body[key] = value;
        }
    }
    ConfigReader in(body);
    PokerConfig c;
    c.variant = in.text("variant", c.variant);
    c.structure = in.text("structure", c.structure);
    c.ranking = in.text("ranking", c.ranking);
    c.wild = in.text("wild", c.wild);
    c.seats = static_cast<int>(in.integer("seats", c.seats, 2, poker::kMaxSeats));
    c.trips_beat_straight = in.boolean("trips_beat_straight", c.trips_beat_straight);
    if (c.variant != "short-deck" && body.is_object() && body.contains("trips_beat_straight"))
        in.refuse("trips_beat_straight", "\"trips_beat_straight\" is an option of short deck only");
    RankingOptions ranking_options;
    ranking_options.trips_beat_straight = c.trips_beat_straight;
    auto named =
        poker::named_config(c.variant, c.structure, c.ranking, c.wild, c.seats, ranking_options);
    if (!in.failed() && !named) {
        // The first of the five, taken in turn with the others at their defaults, that the
        // engine refuses is the field to name.
        const std::array<const char*, 5> keys = {"variant", "structure", "ranking", "wild",
                                                 "seats"};
        for (std::size_t k = 0; k < keys.size() && !in.failed(); ++k) {
            auto alone = poker::named_config(c.variant, k >= 1 ? c.structure : "no-limit",
                                             k >= 2 ? c.ranking : "standard",
                                             k >= 3 ? c.wild : "none", k >= 4 ? c.seats : 2);
            if (!alone) in.refuse(keys[k], alone.error().message);
        }
        in.refuse("", named.error().message);
    }
    const bool stud = named && named.value().variant->bring_in_opens();
    poker::Stakes& s = c.stakes;
    s.ante = in.chips("ante", Chips(stud ? 1 : 0), 0, kMaxStake);
    s.small_blind = in.chips("small_blind", Chips(stud ? 0 : 1), 0, kMaxStake);
    s.big_blind = in.chips("big_blind", Chips(stud ? 0 : 2), 0, kMaxStake);
    s.bring_in = in.chips("bring_in", Chips(stud ? 2 : 0), 0, kMaxStake);
    s.small_bet = in.chips("small_bet", Chips(stud ? 4 : 2), 1, kMaxStake);
    s.big_bet = in.chips("big_bet", Chips(stud ? 8 : 4), 1, kMaxStake);
    // Settings the table's game does not have are refused, not ignored: stud opens with an ante
    // and a bring-in, the others with blinds.
    if (named && stud && s.small_blind > 0)
        in.refuse("small_blind",
                  "a stud table has no blinds: it opens with an ante and a bring-in");
    if (named && stud && s.big_blind > 0)
        in.refuse("big_blind", "a stud table has no blinds: it opens with an ante and a bring-in");
    if (named && !stud && s.bring_in > 0)
        in.refuse("bring_in",
                  "only stud tables (stud, Mexican stud, razz, stud hi-lo) have a bring-in");
    if (s.small_blind > s.big_blind)
        in.refuse("small_blind", "the small blind is above the big blind");
    if (s.big_bet < s.small_bet) in.refuse("big_bet", "the big bet is below the small bet");
    const poker::Chips unit = stud || c.structure == "fixed-limit" ? s.big_bet : s.big_blind;
    c.min_buy_in = in.chips("min_buy_in", 40 * unit, 1, kMaxBuyIn);
    c.max_buy_in = in.chips("max_buy_in", 200 * unit, 1, kMaxBuyIn);
    if (c.min_buy_in <= 0)
        in.refuse("min_buy_in", "min_buy_in must be at least 1 (by default it is 40 big blinds, "
                                "or big bets)");
    if (c.max_buy_in < c.min_buy_in) in.refuse("max_buy_in", "max_buy_in is below min_buy_in");
    c.decision_ms = static_cast<int>(in.integer("decision_ms", c.decision_ms, 100, 3'600'000));
    c.time_bank_ms = static_cast<int>(in.integer("time_bank_ms", c.time_bank_ms, 0, 3'600'000));
    c.sit_out_after = static_cast<int>(in.integer("sit_out_after", c.sit_out_after, 1, 1000));
    c.hand_delay_ms = static_cast<int>(in.integer("hand_delay_ms", c.hand_delay_ms, 0, 60'000));
    c.showdown_delay_ms = static_cast<int>(
        in.integer("showdown_delay_ms", std::min(4 * c.hand_delay_ms, 60'000), 0, 60'000));
    c.runout_ms =
        static_cast<int>(in.integer("runout_ms", std::min(c.hand_delay_ms, 10'000), 0, 10'000));
    c.open_pair = in.choice("open_pair", c.open_pair, {"big_bet", "choice", "off"});
    if (!open_pair_applies(c.variant, c.structure) && body.is_object() &&
        body.contains("open_pair"))
        in.refuse("open_pair", "\"open_pair\" is a rule of fixed-limit stud and Mexican stud only");
    c.big_bet_from = in.choice("big_bet_from", c.big_bet_from, {"fifth", "seventh"});
    if (!open_pair_applies(c.variant, c.structure) && body.is_object() &&
        body.contains("big_bet_from"))
        in.refuse("big_bet_from",
                  "\"big_bet_from\" is a rule of fixed-limit stud and Mexican stud only");
    c.draws = static_cast<int>(in.integer("draws", c.draws, 1, 4));
    if (c.variant != "shrinking" && body.is_object() && body.contains("draws"))
        in.refuse("draws", "\"draws\" is an option of shrinking draw only");
    c.hole_cards = static_cast<int>(in.integer("hole_cards", c.hole_cards, 4, 6));
    if (!picks_hole_cards(c.variant) && body.is_object() && body.contains("hole_cards"))
        in.refuse("hole_cards", "\"hole_cards\" is an option of Omaha and Omaha hi-lo only");
    if (picks_hole_cards(c.variant) && c.hole_cards == 6 && c.seats > 6)
        in.refuse("hole_cards",
                  "six hole cards seat 6 players at most, not " + std::to_string(c.seats));
    c.hints = in.boolean("hints", c.hints);
    if (c.variant != "draw" && body.is_object() && body.contains("hints"))
        in.refuse("hints", "\"hints\" is an option of five-card draw only (and of Chinese poker)");
    read_table_bots(in, c.seats, c.bots);
    if (auto error = in.finish()) return D{std::nullopt, std::move(*error)};
    poker::HandConfig h = std::move(named).value();
    h.stakes = s;
    h.open_pair = *poker::parse_open_pair(c.open_pair);
    h.big_bet_from = *poker::parse_big_bet_from(c.big_bet_from);
    if (c.variant == "shrinking") h.draws = c.draws;
    if (picks_hole_cards(c.variant) && c.hole_cards != 4) h.hole_cards = c.hole_cards;
    c.ranking = std::string(h.ranking->name()); // a mixed game's own, where "standard" named it
    return D{std::pair{std::move(c), std::move(h)}, {}};
}

} // namespace felt::protocol
