// Table configurations of every game (protocol/*_config.*): every field refused, with its name,
// when it has the wrong type, lies just outside its range or past a 32-bit int, and any unknown
// field refused; a written configuration reads back the same.
#include "protocol/chinese_config.h"
#include "protocol/leap_config.h"
#include "protocol/poker_config.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using felt::protocol::json;
using felt::protocol::Refusal;

namespace {

struct Game {
    const char* name;
    // The decoder, reduced to its refusal (nothing when accepted) and its configuration written.
    std::function<std::optional<Refusal>(const json&, json*)> decode;
    // The integer fields and their ranges, as docs/protocol.md gives them.
    std::vector<std::tuple<const char*, std::int64_t, std::int64_t>> integers;
    std::vector<const char*> booleans;
    std::vector<const char*> strings;
};

template <class F>
std::function<std::optional<Refusal>(const json&, json*)> reduce(F decode) {
    return [decode](const json& body, json* written) -> std::optional<Refusal> {
        auto d = decode(body);
        if (!d.ok()) {
            CHECK(d.refusal.code == "bad_config");
            return d.refusal;
        }
        if (written) {
            if constexpr (requires { d.value->first; })
                *written = d.value->first.to_json();
            else
                *written = d.value->to_json();
        }
        return std::nullopt;
    };
}

std::vector<Game> games() {
    constexpr std::int64_t kStake = 1'000'000'000, kBuyIn = 1'000'000'000'000;
    return {
        {"poker",
         reduce(felt::protocol::decode_poker_config),
         {{"seats", 2, 9},
          {"ante", 0, kStake},
          {"small_blind", 0, kStake},
          {"big_blind", 0, kStake},
          {"bring_in", 0, kStake},
          {"small_bet", 1, kStake},
          {"big_bet", 1, kStake},
          {"min_buy_in", 1, kBuyIn},
          {"max_buy_in", 1, kBuyIn},
          {"decision_ms", 100, 3'600'000},
          {"time_bank_ms", 0, 3'600'000},
          {"sit_out_after", 1, 1000},
          {"hand_delay_ms", 0, 60'000},
          {"showdown_delay_ms", 0, 60'000},
          {"runout_ms", 0, 10'000}},
         {},
         {"variant", "structure", "ranking", "wild"}},
        {"chinese",
         reduce(felt::protocol::decode_chinese_config),
         {{"seats", 2, 4},
          {"unit", 1, 1'000'000},
          {"rake", 0, 1'000'000},
          {"min_buy_in", 1, kBuyIn},
          {"max_buy_in", 1, kBuyIn},
          {"decision_ms", 100, 3'600'000},
          {"sit_out_after", 1, 1000},
          {"hand_delay_ms", 0, 60'000}},
         {"strict_order", "short_kickers_lowest", "chip_limit", "aces", "banker", "surrender",
          "hints"},
         {"profile"}},
        {"leap",
         reduce(felt::protocol::decode_leap_config),
         {{"seats", 2, 6},
          {"ranks", 5, 17},
          {"packs", 0, 4},
          {"jokers", 0, 8},
          {"hand_size", 1, 20},
          {"chips_per_point", 0, 1'000'000},
          {"turn_ms", 100, 3'600'000},
          {"time_bank_ms", 0, 3'600'000},
          {"retire_after", 1, 100},
          {"sit_out_after", 1, 1000},
          {"hand_delay_ms", 0, 60'000}},
         {},
         {"suits", "leap_rule"}},
    };
}

void refused_naming(const Game& g, const json& body, const std::string& field) {
    const std::string game = g.name, text = body.dump();
    CAPTURE(game);
    CAPTURE(text);
    const auto error = g.decode(body, nullptr);
    REQUIRE(error.has_value());
    CHECK(error->field == field);
    CHECK(error->message.find(field) != std::string::npos);
}

} // namespace

TEST_CASE("table configurations: every field of every game is refused, by name, when wrong") {
    for (const Game& g : games()) {
        // The defaults are accepted, and so is a request's envelope.
        CHECK_FALSE(g.decode(json::object(), nullptr).has_value());
        CHECK_FALSE(
            g.decode({{"type", "create_table"}, {"id", 3}, {"game", g.name}}, nullptr).has_value());
        for (const auto& [key, lo, hi] : g.integers) {
            // chips_per_point 0 takes no buy-in: the buy-in fields are judged with chips at stake.
            json base = json::object();
            if (std::string(g.name) == "leap" && std::string(key).ends_with("buy_in"))
                base["chips_per_point"] = 1;
            auto with = [&](json v) {
                json b = base;
                b[key] = std::move(v);
                return b;
            };
            refused_naming(g, with("7"), key);
            refused_naming(g, with(7.5), key);
            refused_naming(g, with(true), key);
            refused_naming(g, with(nullptr), key);
            refused_naming(g, with(json::array({7})), key);
            refused_naming(g, with(lo - 1), key);
            refused_naming(g, with(hi + 1), key);
            // Past a 32-bit int: 2^32 + 100 is not 100 (chips may be that many).
            if (hi < 4'294'967'396) refused_naming(g, with(std::int64_t{4'294'967'396}), key);
            refused_naming(g, with(std::int64_t{-4'294'967'196}), key);
            refused_naming(g, with(std::numeric_limits<std::uint64_t>::max()), key);
            refused_naming(g, with(std::numeric_limits<std::int64_t>::min()), key);
        }
        for (const char* key : g.booleans) {
            refused_naming(g, {{key, 1}}, key);
            refused_naming(g, {{key, "true"}}, key);
            refused_naming(g, {{key, nullptr}}, key);
        }
        for (const char* key : g.strings) {
            refused_naming(g, {{key, 5}}, key);
            refused_naming(g, {{key, json::array({"a"})}}, key);
            refused_naming(g, {{key, "no-such-thing"}}, key);
        }
        refused_naming(g, {{"nonsense", 1}}, "nonsense");
        refused_naming(g, {{"decison_ms", 1000}}, "decison_ms"); // misspelt
        refused_naming(g, {{"Seats", 3}}, "Seats");
    }
}

TEST_CASE("table configurations: what a table writes reads back the same") {
    const std::vector<std::pair<const char*, json>> cases = {
        {"poker", json::object()},
        {"poker", {{"variant", "stud"}, {"structure", "fixed-limit"}, {"seats", 7}}},
        {"poker", {{"variant", "mexican"}, {"structure", "fixed-limit"}, {"open_pair", "choice"}}},
        {"poker", {{"variant", "omaha"}, {"structure", "pot-limit"}, {"hole_cards", 6}}},
        {"poker", {{"variant", "razz"}, {"structure", "fixed-limit"}, {"seats", 8}}},
        {"poker", {{"variant", "short-deck"}, {"trips_beat_straight", true}}},
        {"poker",
         {{"variant", "draw"},
          {"wild", "joker"},
          {"small_blind", 5},
          {"big_blind", 10},
          {"min_buy_in", 100},
          {"max_buy_in", 5000},
          {"time_bank_ms", 20000}}},
        {"chinese", json::object()},
        {"chinese", {{"profile", "scoop"}, {"surrender", true}, {"seats", 3}, {"hints", false}}},
        {"chinese", {{"chip_limit", false}, {"unit", 2}, {"rake", 1}}},
        {"leap", json::object()},
        {"leap", {{"ranks", 17}, {"packs", 2}, {"jokers", 2}, {"suits", "any"}}},
        {"leap", {{"chips_per_point", 3}, {"leap_rule", "distinct"}, {"seats", 6}}},
    };
    for (const auto& [name, body] : cases) {
        const std::string game = name, text = body.dump();
        CAPTURE(game);
        CAPTURE(text);
        for (const Game& g : games()) {
            if (std::string(g.name) != name) continue;
            json written, again;
            REQUIRE_FALSE(g.decode(body, &written).has_value());
            const auto error = g.decode(written, &again);
            REQUIRE_MESSAGE(!error.has_value(), (error ? error->message : "") << " " << written);
            CHECK(again == written);
        }
    }
}

TEST_CASE("table configurations: refusals across fields name the field to change") {
    using felt::protocol::decode_chinese_config;
    using felt::protocol::decode_leap_config;
    using felt::protocol::decode_poker_config;
    CHECK(decode_poker_config({{"small_blind", 5}, {"big_blind", 2}}).refusal.field ==
          "small_blind");
    // A stake the game does not have: blinds at a stud table, a bring-in at a blinds table.
    CHECK(decode_poker_config({{"variant", "stud"}, {"big_blind", 2}}).refusal.field ==
          "big_blind");
    CHECK(decode_poker_config({{"variant", "mexican"}, {"small_blind", 1}}).refusal.field ==
          "small_blind");
    CHECK(decode_poker_config({{"variant", "holdem"}, {"bring_in", 1}}).refusal.field ==
          "bring_in");
    CHECK(decode_poker_config({{"variant", "stud"}, {"small_blind", 0}, {"bring_in", 3}}).ok());
    CHECK(decode_poker_config({{"min_buy_in", 500}, {"max_buy_in", 400}}).refusal.field ==
          "max_buy_in");
    CHECK(decode_poker_config({{"variant", "shrinking"}, {"seats", 7}}).refusal.field == "seats");
    // The stakes as one object (a written configuration): a key given twice, or stakes that are
    // not an object, is a bad_config naming the field, even the empty key.
    for (const char* key : {"big_blind", ""}) {
        const auto twice = decode_poker_config({{key, 2}, {"stakes", {{key, 2}}}});
        CHECK(twice.refusal.code == "bad_config");
        CHECK(twice.refusal.field == key);
    }
    const auto flat = decode_poker_config({{"stakes", 2}});
    CHECK(flat.refusal.code == "bad_config");
    CHECK(flat.refusal.field == "stakes");
    CHECK(decode_poker_config({{"ranking", "vertical"}, {"wild", "joker"}}).ok() ==
          decode_poker_config({{"ranking", "vertical"}}).ok()); // wild is the standard's only
    CHECK(decode_chinese_config({{"surrender", true}}).refusal.field == "surrender");
    CHECK(decode_chinese_config({{"chip_limit", false}, {"min_buy_in", 5}}).refusal.field ==
          "min_buy_in");
    // The open pair: a rule of fixed-limit stud and Mexican stud, big_bet unless told.
    const auto stud = decode_poker_config({{"variant", "stud"}, {"structure", "fixed-limit"}});
    CHECK(stud.value->second.open_pair == felt::poker::OpenPair::big_bet);
    CHECK(stud.value->first.to_json()["open_pair"] == "big_bet");
    CHECK(decode_poker_config(
              {{"variant", "stud"}, {"structure", "fixed-limit"}, {"open_pair", "off"}})
              .value->second.open_pair == felt::poker::OpenPair::off);
    CHECK(decode_poker_config(
              {{"variant", "stud"}, {"structure", "fixed-limit"}, {"open_pair", "sometimes"}})
              .refusal.field == "open_pair");
    // The big bet from fifth street unless told seventh; stud's and Mexican stud's only.
    CHECK(stud.value->second.big_bet_from == felt::poker::BigBetFrom::marked);
    CHECK(stud.value->first.to_json()["big_bet_from"] == "fifth");
    const auto seventh = decode_poker_config(
        {{"variant", "mexican"}, {"structure", "fixed-limit"}, {"big_bet_from", "seventh"}});
    REQUIRE(seventh.ok());
    CHECK(seventh.value->second.big_bet_from == felt::poker::BigBetFrom::last);
    CHECK(seventh.value->first.to_json()["big_bet_from"] == "seventh");
    CHECK(decode_poker_config(
              {{"variant", "stud"}, {"structure", "fixed-limit"}, {"big_bet_from", "sixth"}})
              .refusal.field == "big_bet_from");
    CHECK(decode_poker_config({{"variant", "stud"}, {"big_bet_from", "seventh"}}).refusal.field ==
          "big_bet_from"); // no limit: no big bet
    CHECK_FALSE(decode_poker_config({{"variant", "holdem"}})
                    .value->first.to_json()
                    .contains("big_bet_from"));
    const auto holdem = decode_poker_config({{"structure", "fixed-limit"}, {"open_pair", "off"}});
    CHECK(holdem.refusal.field == "open_pair");
    CHECK(holdem.refusal.message ==
          "\"open_pair\" is a rule of fixed-limit stud and Mexican stud only");
    CHECK_FALSE(decode_poker_config({{"variant", "stud"}})
                    .value->first.to_json()
                    .contains("open_pair")); // no limit: no such rule
    // The mixed games: Omaha's hole cards, the short deck's order, each game's own ranking.
    const auto omaha =
        decode_poker_config({{"variant", "omaha"}, {"structure", "pot-limit"}, {"hole_cards", 5}});
    REQUIRE(omaha.ok());
    CHECK(omaha.value->second.hole_cards == 5);
    CHECK(omaha.value->first.to_json()["hole_cards"] == 5);
    CHECK(decode_poker_config({{"hole_cards", 5}}).refusal.field == "hole_cards"); // hold'em
    CHECK(decode_poker_config({{"variant", "omaha"}, {"hole_cards", 7}}).refusal.field ==
          "hole_cards");
    const auto six = decode_poker_config({{"variant", "omaha"}, {"hole_cards", 6}, {"seats", 7}});
    CHECK(six.refusal.field == "hole_cards");
    CHECK(six.refusal.message == "six hole cards seat 6 players at most, not 7");
    const auto short_deck =
        decode_poker_config({{"variant", "short-deck"}, {"trips_beat_straight", true}});
    REQUIRE(short_deck.ok());
    CHECK(short_deck.value->second.ranking->trips_beat_straight());
    CHECK(short_deck.value->second.deck.size() == 36);
    CHECK(decode_poker_config({{"trips_beat_straight", true}}).refusal.field ==
          "trips_beat_straight");
    const auto razz = decode_poker_config({{"variant", "razz"}, {"structure", "fixed-limit"}});
    REQUIRE(razz.ok());
    CHECK(razz.value->first.to_json()["ranking"] == "ace-to-five");
    CHECK(razz.value->first.stakes.bring_in == felt::Chips(2)); // a stud game's defaults
    CHECK(decode_poker_config({{"variant", "razz"}, {"ranking", "vertical"}}).refusal.field ==
          "ranking");
    CHECK(decode_poker_config({{"variant", "badugi"}, {"seats", 7}}).refusal.field == "seats");
    CHECK(decode_leap_config({{"ranks", 9}}).refusal.field == "ranks");
    CHECK(decode_leap_config({{"min_buy_in", 10}}).refusal.field == "min_buy_in");
    // Under leaptokens, no more seats than leaps; by default as many as the deck has, up to 4.
    const auto seven = decode_leap_config({{"ranks", 7}, {"seats", 4}});
    CHECK(seven.refusal.field == "seats");
    CHECK(seven.refusal.message.find("at most 3 players, not 4") != std::string::npos);
    CHECK(decode_leap_config({{"ranks", 7}}).value->seats == 3);
    CHECK(decode_leap_config({{"ranks", 5}}).value->seats == 2);
    CHECK(decode_leap_config({{"ranks", 17}}).value->seats == 4);
    CHECK(decode_leap_config({{"ranks", 7}, {"leap_rule", "distinct"}}).value->seats == 4);
    CHECK(decode_leap_config({{"ranks", 7}, {"seats", 6}, {"leap_rule", "distinct"}}).ok());
    // A game stored before the limit (edition 1) still decodes, to be replayed.
    using felt::protocol::decode_stored_leap_config;
    CHECK(decode_stored_leap_config({{"ranks", 7}, {"seats", 4}}, 1).ok());
    CHECK_FALSE(decode_stored_leap_config({{"ranks", 7}, {"seats", 4}}, 2).ok());
}

TEST_CASE("poker: the pauses after a showdown and between an all-in's streets follow the pause "
          "between hands unless set") {
    const auto decoded = [](json body) {
        auto d = felt::protocol::decode_poker_config(body);
        REQUIRE(d.ok());
        return d.value->first;
    };
    const auto plain = decoded(json::object());
    CHECK(plain.hand_delay_ms == 1'000);
    CHECK(plain.showdown_delay_ms == 4'000);
    CHECK(plain.runout_ms == 1'000);
    const auto quick = decoded({{"hand_delay_ms", 0}});
    CHECK(quick.showdown_delay_ms == 0);
    CHECK(quick.runout_ms == 0);
    const auto slow = decoded({{"hand_delay_ms", 20'000}});
    CHECK(slow.showdown_delay_ms == 60'000); // four times, within the range
    CHECK(slow.runout_ms == 10'000);
    const auto set =
        decoded({{"hand_delay_ms", 0}, {"showdown_delay_ms", 2'500}, {"runout_ms", 700}});
    CHECK(set.showdown_delay_ms == 2'500);
    CHECK(set.runout_ms == 700);
    // As written for the lobby and the database, and read back.
    const json written = set.to_json();
    CHECK(written["showdown_delay_ms"] == 2'500);
    CHECK(decoded(written).runout_ms == 700);
}
