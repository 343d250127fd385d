// Reading a table configuration strictly, field by field, for every game's decoder.
#pragma once

#include "protocol/refusal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace felt::protocol {

using json = nlohmann::json;

// A configuration is refused with `bad_config` naming the field (empty when it is the whole
// request); a decoded one is an Outcome<T> (refusal.h).

// Reads the fields of a create_table request (or a stored configuration). A field present with
// the wrong type, or outside its range, is refused; ranges are judged on the whole 64-bit value
// (or more), before anything is narrowed, so 4294967396 is not 100. A field that no read asked
// for, an unknown or misspelt one, is refused by finish(). The first refusal sticks: later reads
// return their fallbacks.
class ConfigReader {
  public:
    // `envelope`: fields of the request around the configuration, never refused as unknown.
    explicit ConfigReader(const json& body, std::initializer_list<std::string_view> envelope = {
                                                "type", "id", "game"});

    // An integer from lo to hi, or `fallback` when the field is absent.
    std::int64_t integer(const char* key, std::int64_t fallback, std::int64_t lo, std::int64_t hi);
    // An amount of chips from lo to hi, or `fallback` when the field is absent.
    Chips chips(const char* key, Chips fallback, std::int64_t lo, std::int64_t hi) {
        return Chips(integer(key, fallback.value(), lo, hi));
    }
    bool boolean(const char* key, bool fallback);
    // One of `allowed`, or `fallback` when absent.
    std::string choice(const char* key, std::string fallback,
                       std::initializer_list<std::string_view> allowed);
    // A string, unchecked (the caller judges it and may refuse()).
    std::string text(const char* key, std::string fallback);
    // The field as it is (an array, an object), for the caller to read; null when it is absent
    // or a refusal came first.
    const json* raw(const char* key) { return find(key); }

    // Refuses the configuration for a reason found across fields, naming the field to change.
    void refuse(std::string field, std::string message);
    bool failed() const { return error_.has_value(); }

    // After the last read: any field not read is refused as unknown. The refusal, if any.
    std::optional<Refusal> finish();
    // How finish() names an unknown field: `what` before it and `where` after ("no table setting
    // \"x\" for this game", the default).
    void unknown_as(std::string what, std::string where) {
        unknown_what_ = std::move(what);
        unknown_where_ = std::move(where);
    }

  private:
    const json* find(const char* key);

    const json& body_;
    std::set<std::string, std::less<>> known_;
    std::optional<Refusal> error_;
    std::string unknown_what_ = "table setting", unknown_where_ = " for this game";
};

// The buy-ins of a table whose settlement may be chip limited (Chinese poker, open-face):
// min_buy_in by default `least` under the chip limit, else `needed`; max_buy_in by default ten
// times it. Refused: a least buy-in below `needed` (what a player can lose in one `noun`, "deal" or
// "hand", without the chip limit), a most below the least or above 1,000,000,000,000.
void read_buy_ins(ConfigReader& in, bool chip_limit, Chips least, Chips needed, const char* noun,
                  Chips& min_buy_in, Chips& max_buy_in);

// A table's pace, each field's default the value given: decision_ms (100 to 3,600,000),
// sit_out_after (1 to 1000), hand_delay_ms (0 to 60,000).
void read_pace(ConfigReader& in, int& decision_ms, int& sit_out_after, int& hand_delay_ms);

// A hand's stored configuration is its table's plus what the hand needs to be read alone (the
// dealer or button, the players, their stacks and names, the rules, open-face's Fantasyland):
// the table's part, for a decoder.
json table_part(json stored);

// The edition of the rules a hand is played under, stored with it as "rules", so that a hand is
// replayed and settled again under the rules it was played under. A hand stored without it was
// played under edition 1. Edition 2 (2026-11): Chinese poker settles each pair once per pass on
// its net, and a scoop needs two rows won; stud has the open_pair option (edition 1: off).
inline constexpr int kRules = 3;
int rules_of(const json& stored);

} // namespace felt::protocol
