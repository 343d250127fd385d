// create_tournament's configuration (protocol/tournament_config.*): the defaults and presets, each
// refusal naming its field in words, and the written configuration decoding to the same one.
#include "protocol/tournament_config.h"
#include "protocol/tournament_state.h"

#include <doctest/doctest.h>

using namespace felt;
using felt::protocol::json;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;

// The refusal's field and message, or "" for a configuration that decodes.
std::pair<std::string, std::string> refused(const json& request) {
    auto d = protocol::decode_tournament_config(request, kNow);
    if (d.ok()) return {"", ""};
    return {d.refusal.field, d.refusal.message};
}

} // namespace

TEST_CASE("tournament configuration: defaults, presets, and fields beside a preset") {
    auto sng = protocol::decode_tournament_config(json::object(), kNow);
    REQUIRE(sng.ok());
    CHECK(sng.value->format == "sit-and-go");
    CHECK(sng.value->max_entrants == 9);
    CHECK(sng.value->preset == "regular");
    CHECK(sng.value->levels.levels == tournament::preset("regular")->structure.levels);
    CHECK(sng.value->payouts == tournament::default_payouts());
    CHECK(sng.value->starting_stack == Chips(1'500));

    auto turbo = protocol::decode_tournament_config(
        {{"preset", "turbo"}, {"seats", 6}, {"starting_stack", 3'000}, {"buy_in", 50}, {"fee", 5}},
        kNow);
    REQUIRE(turbo.ok());
    CHECK(turbo.value->hand_delay_ms == 500);
    CHECK(turbo.value->starting_stack == Chips(3'000)); // beside the preset, it wins
    CHECK(turbo.value->max_entrants == 6);
    CHECK(turbo.value->fee == Chips(5));
    CHECK(turbo.value->guarantee == Chips());
    auto guaranteed = protocol::decode_tournament_config({{"guarantee", 5'000}}, kNow);
    REQUIRE(guaranteed.ok());
    CHECK(guaranteed.value->guarantee == Chips(5'000));
    CHECK(guaranteed.value->to_json()["guarantee"] == 5'000);
    CHECK(refused({{"guarantee", -1}}).first == "guarantee");

    auto mtt = protocol::decode_tournament_config({{"format", "multi-table"},
                                                   {"variant", "stud"},
                                                   {"structure", "fixed-limit"},
                                                   {"seats", 8}},
                                                  kNow);
    REQUIRE(mtt.ok());
    CHECK(mtt.value->preset == "multi-table");
    CHECK(mtt.value->max_entrants == 1'000);
    CHECK(mtt.value->start_at == kNow + 300);

    // The host's own levels, breaks and payouts.
    const json own = {{"format", "multi-table"},
                      {"start_in_s", 60},
                      {"levels",
                       {{{"small_blind", 25}, {"big_blind", 50}, {"minutes", 15}},
                        {{"break_minutes", 5}},
                        {{"small_blind", 50}, {"big_blind", 100}, {"ante", 10}, {"minutes", 15}}}},
                      {"beyond", "step"},
                      {"step", 100},
                      {"payouts",
                       {{{"max_entrants", 10}, {"percentages", {65, 35}}},
                        {{"max_entrants", 1000}, {"percentages", {50, 30, 12.5, 7.5}}}}}};
    auto d = protocol::decode_tournament_config(own, kNow);
    REQUIRE_MESSAGE(d.ok(), d.refusal.message);
    CHECK(d.value->levels.levels.size() == 3);
    CHECK(d.value->levels.levels[1].is_break());
    CHECK(d.value->levels.step == Chips(100));
    CHECK(d.value->payouts.back().shares == std::vector<int>{5'000, 3'000, 1'250, 750});
    CHECK(d.value->start_at == kNow + 60);
    // Written and read back (a stored configuration: no start time check), it is the same.
    auto again = protocol::decode_tournament_config(d.value->to_json(), 0);
    REQUIRE_MESSAGE(again.ok(), again.refusal.message);
    CHECK(again.value->to_json() == d.value->to_json());
    CHECK(again.value->payouts == d.value->payouts);
    CHECK(again.value->levels.levels == d.value->levels.levels);
    // A plain list of percentages is one table for every field size.
    auto list = protocol::decode_tournament_config({{"payouts", {60, 40}}}, kNow);
    REQUIRE(list.ok());
    CHECK(list.value->payouts == tournament::PayoutTable{{9, {6'000, 4'000}}});
}

TEST_CASE("tournament configuration: what is refused, in words, naming the field") {
    using P = std::pair<std::string, std::string>;
    CHECK(refused({{"levels", json::array()}}) ==
          P{"levels", "\"levels\" is a list of levels (and breaks), at least one"});
    CHECK(refused({{"levels", {{{"small_blind", -5}, {"big_blind", 10}, {"minutes", 5}}}}}) ==
          P{"levels", "levels[0]: \"small_blind\" must be from 0 to 1000000000000, not -5"});
    CHECK(refused({{"levels",
                    {{{"small_blind", 10}, {"big_blind", 20}, {"minutes", 5}},
                     {{"small_blind", 5}, {"big_blind", 10}, {"minutes", 5}}}}}) ==
          P{"levels", "level 2: blinds and bets cannot fall from one level to the next"});
    CHECK(refused({{"levels", {{{"big_blind", 20}, {"minutes", 5}, {"blinds", 3}}}}}) ==
          P{"levels", "levels[0]: no level setting \"blinds\" in levels[0]"});
    CHECK(refused({{"payouts", {50, 30, 19.5}}}) ==
          P{"payouts", "the payouts for up to 9 entrants add up to 99.50 %, not 100 %"});
    CHECK(refused({{"payouts", {50, 30, 19.999}}}).second ==
          "\"payouts\": 19.999 is not a percentage with at most two decimals");
    CHECK(refused({{"format", "multi-table"}, {"start_at", kNow - 10}}) ==
          P{"start_at", "the start time 1799999990 is in the past (now is 1800000000)"});
    CHECK(refused({{"format", "multi-table"}, {"max_entrants", 1'001}}) ==
          P{"max_entrants", "\"max_entrants\" must be from 2 to 1000, not 1001"});
    CHECK(refused({{"format", "multi-table"}, {"min_entrants", 20}, {"max_entrants", 10}}).first ==
          "min_entrants");
    CHECK(refused({{"start_in_s", 60}}) ==
          P{"start_in_s", "a sit-and-go starts when its seats are full: \"start_in_s\" is for "
                          "multi-table tournaments"});
    // A multi-table tournament may count its levels in hands too (those of all its tables).
    CHECK(refused({{"format", "multi-table"}, {"levels", {{{"big_blind", 20}, {"hands", 10}}}}}) ==
          P{"", ""});
    CHECK(refused({{"starting_stack", 10}}) ==
          P{"starting_stack", "the starting stack (10) is below the first level's big blind (20)"});
    CHECK(refused({{"variant", "bridge"}}).first == "variant");
    CHECK(refused({{"variant", "stud"}, {"seats", 9}}).first == "seats");
    CHECK(refused({{"beyond", "step"}}) ==
          P{"step", "blinds that rise by a step need a positive step"});
    CHECK(refused({{"format", "knockout"}}).first == "format");
    CHECK(refused({{"colour", "red"}}) == P{"colour", "no tournament setting \"colour\""});
    CHECK(refused(json::array()).first.empty());
    CHECK_FALSE(protocol::decode_tournament_config(json::array(), kNow).ok());
    // A sit-and-go may count hands.
    CHECK(refused({{"levels", {{{"small_blind", 10}, {"big_blind", 20}, {"hands", 10}}}}}) ==
          P{"", ""});
}

TEST_CASE("tournament configuration: the entry period") {
    const json mtt = {{"format", "multi-table"}};
    auto with = [&](json more) {
        json j = mtt;
        j.update(more);
        return j;
    };
    // The multi-table preset breaks after level 6: rebuys in levels 1-4, the add-on at that break.
    auto all = protocol::decode_tournament_config(with({{"late_registration_levels", 6},
                                                        {"reentries", 2},
                                                        {"rebuy_levels", 4},
                                                        {"add_on_stack", 5'000}}),
                                                  kNow);
    REQUIRE(all.ok());
    CHECK(all.value->reentry_levels == 6); // the late registration's window by default
    CHECK(all.value->rebuy_stack == all.value->starting_stack);
    CHECK(all.value->rebuy_stack_limit == all.value->starting_stack);
    auto again = protocol::decode_tournament_config(all.value->to_json(), 0);
    REQUIRE(again.ok());
    CHECK(again.value->to_json() == all.value->to_json());
    CHECK(again.value->reentries == 2);
    CHECK(again.value->add_on_stack == Chips(5'000));
    // Refused, naming the field.
    CHECK(refused({{"late_registration_levels", 3}}).first == "late_registration_levels"); // SNG
    CHECK(refused({{"reentries", 1}}).first == "reentries");
    CHECK(refused(with({{"reentries", 1}})).first == "reentry_levels"); // no window
    CHECK(refused(with({{"reentry_levels", 3}})).first == "reentries");
    CHECK(refused(with({{"rebuy_stack", 100}})).first == "rebuy_stack");   // no rebuy_levels
    CHECK(refused(with({{"add_on_stack", 100}})).first == "add_on_stack"); // no rebuys
    CHECK(refused(with({{"rebuy_levels", 40}, {"add_on_stack", 100}})).first == "add_on_stack");
    CHECK(refused(with({{"rebuy_levels", -1}})).first == "rebuy_levels");
    CHECK(refused({{"rebuy_levels", 2}, {"rebuy_stack", 0}}).first == "rebuy_stack");
    // A sit-and-go may have rebuys.
    CHECK(refused({{"rebuy_levels", 2}}).first.empty());
}

TEST_CASE("tournament configuration: mixed games, by a mix's name or a list, rotating by level "
          "or every N hands") {
    auto horse = protocol::decode_tournament_config({{"games", "horse"}}, kNow);
    REQUIRE(horse.ok());
    CHECK(horse.value->games.size() == 5);
    CHECK(horse.value->games[2] == protocol::TournamentGame{"razz", "fixed-limit"});
    CHECK(horse.value->variant == "holdem"); // the first game's
    CHECK(horse.value->seats == 8);          // the stud games seat 8
    CHECK(horse.value->rotate_hands == 0);   // by level
    const json written = horse.value->to_json();
    CHECK(written["games"] == "horse");
    CHECK_FALSE(written.contains("variant"));
    auto again = protocol::decode_tournament_config(written, 0);
    REQUIRE(again.ok());
    CHECK(again.value->games == horse.value->games);
    CHECK(again.value->to_json() == written);

    auto eight =
        protocol::decode_tournament_config({{"games", "8-game"}, {"rotate_hands", 8}}, kNow);
    REQUIRE(eight.ok());
    CHECK(eight.value->games.size() == 8);
    CHECK(eight.value->seats == 6); // triple draw seats 6
    CHECK(eight.value->to_json()["rotate_hands"] == 8);

    const json list = {{"games",
                        {{{"variant", "omaha"}, {"structure", "pot-limit"}},
                         {{"variant", "badugi"}, {"structure", "fixed-limit"}},
                         {{"variant", "holdem"}}}},
                       {"rotate_hands", 3}};
    auto mine = protocol::decode_tournament_config(list, kNow);
    REQUIRE(mine.ok());
    CHECK(mine.value->games[2] == protocol::TournamentGame{"holdem", "no-limit"});
    CHECK(mine.value->mix.empty());
    auto mine_again = protocol::decode_tournament_config(mine.value->to_json(), 0);
    REQUIRE(mine_again.ok());
    CHECK(mine_again.value->games == mine.value->games);

    CHECK(refused({{"games", "9-game"}}).first == "games");
    CHECK(refused({{"games", json::array()}}).first == "games");
    CHECK(refused({{"games", {{{"variant", "kuhn"}}}}}).first == "games");
    CHECK(refused({{"games", {{{"variant", "holdem"}, {"seats", 3}}}}}).first == "games");
    // The short deck in a mix: the tables' own game is the first of the whole pack.
    auto with_short = protocol::decode_tournament_config(
        {{"games",
          {{{"variant", "short-deck"}}, {{"variant", "holdem"}, {"structure", "pot-limit"}}}}},
        kNow);
    REQUIRE(with_short.ok());
    CHECK(with_short.value->variant == "holdem");
    CHECK(with_short.value->structure == "pot-limit");
    CHECK(refused({{"games", "horse"}, {"variant", "stud"}}).first == "variant");
    CHECK(refused({{"rotate_hands", 2}}).first == "rotate_hands");
    CHECK(refused({{"games", "8-game"}, {"seats", 8}}).first == "seats");
}

TEST_CASE("a tournament's standing as JSON: read back the same, and a damaged one refused") {
    tournament::Rules r;
    r.structure = tournament::preset("turbo")->structure;
    r.starting_stack = Chips(1'000);
    r.pool = Chips(2'000);
    r.seats = 6;
    r.seed = 9;
    const std::vector<int> players = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
    tournament::Director dir(r, players);
    // A hand at the first table: its first player busts to its second.
    const auto& t = dir.tables().front();
    const auto dealt = dir.deal(t.id, tournament::position(r.structure, 0));
    REQUIRE(std::holds_alternative<tournament::Deal>(dealt));
    std::vector<Chips> stacks = std::get<tournament::Deal>(dealt).stacks;
    std::vector<std::size_t> in;
    for (std::size_t k = 0; k < stacks.size(); ++k)
        if (stacks[k] > 0) in.push_back(k);
    stacks[in[1]] += stacks[in[0]];
    stacks[in[0]] = Chips();
    const auto out = dir.hand_ended(t.id, stacks);
    CHECK(out.out.size() == 1);
    const tournament::Standing s = dir.standing();
    const json j = protocol::standing_json(s);
    const auto back = protocol::read_standing(json::parse(j.dump()));
    REQUIRE(back.has_value());
    CHECK(*back == s);
    CHECK(back->finishes.size() == 1);
    CHECK(back->entrants == 14);
    // Taken up, the tournament holds the same chips.
    tournament::Director again(r, *back);
    CHECK(again.chips() == Chips(14'000));
    CHECK(again.remaining() == 13);
    // Damaged: a field missing, a seat past the table, the wrong type.
    json broken = j;
    broken.erase("players");
    CHECK_FALSE(protocol::read_standing(broken));
    broken = j;
    broken["tables"][0]["last"]["big_blind"] = 12;
    CHECK_FALSE(protocol::read_standing(broken));
    broken = j;
    broken["entrants"] = "many";
    CHECK_FALSE(protocol::read_standing(broken));
    CHECK_FALSE(protocol::read_standing(json::array()));
    // Hand-for-hand's round and its players out so far, read back the same.
    tournament::Standing round = s;
    round.round = 3;
    round.round_outs = {{5, Chips(700)}, {9, Chips(1'300)}};
    const auto round_back = protocol::read_standing(protocol::standing_json(round));
    REQUIRE(round_back.has_value());
    CHECK(*round_back == round);
    broken = protocol::standing_json(round);
    broken["round_outs"][0]["stack_at_start"] = "lots";
    CHECK_FALSE(protocol::read_standing(broken));
    // The entry period: open, its pool, those out of chips in it, the add-ons taken.
    tournament::Standing entries = s;
    entries.entry_open = true;
    entries.pool = Chips(2'600);
    entries.busts = {{4, 17, Chips(900), true}, {6, 19, Chips(300), false}};
    entries.add_ons = {1, 2};
    const auto entries_back = protocol::read_standing(protocol::standing_json(entries));
    REQUIRE(entries_back.has_value());
    CHECK(*entries_back == entries);
}
