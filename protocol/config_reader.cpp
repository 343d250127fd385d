#include "protocol/config_reader.h"

#include <limits>

namespace felt::protocol {

namespace {

// Joined with += : g++ 12 warns falsely about chains of std::string operator+.
template <class... Parts>
std::string cat(const Parts&... parts) {
    std::string out;
    (out += ... += parts);
    return out;
}

std::string in_quotes(std::string_view key) {
    return cat("\"", key, "\"");
}

} // namespace

ConfigReader::ConfigReader(const json& body, std::initializer_list<std::string_view> envelope)
    : body_(body) {
    for (std::string_view k : envelope) known_.emplace(k);
    if (!body.is_object()) error_ = Refusal{"bad_config", "a table configuration is a JSON object"};
}

const json* ConfigReader::find(const char* key) {
    known_.emplace(key);
    if (error_) return nullptr;
    auto it = body_.find(key);
    return it == body_.end() ? nullptr : &*it;
}

std::int64_t ConfigReader::integer(const char* key, std::int64_t fallback, std::int64_t lo,
                                   std::int64_t hi) {
    const json* v = find(key);
    if (!v) return fallback;
    const std::string range = cat(" from ", std::to_string(lo), " to ", std::to_string(hi));
    if (!v->is_number_integer()) {
        refuse(key, cat(in_quotes(key), " must be an integer", range, ", not ", v->dump()));
        return fallback;
    }
    // An unsigned value above the largest signed one is out of every range here.
    const bool huge = v->is_number_unsigned() &&
                      v->get<std::uint64_t>() >
                          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    const std::int64_t x = huge ? 0 : v->get<std::int64_t>();
    if (huge || x < lo || x > hi) {
        refuse(key, cat(in_quotes(key), " must be", range, ", not ", v->dump()));
        return fallback;
    }
    return x;
}

bool ConfigReader::boolean(const char* key, bool fallback) {
    const json* v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) {
        refuse(key, cat(in_quotes(key), " must be true or false, not ", v->dump()));
        return fallback;
    }
    return v->get<bool>();
}

std::string ConfigReader::choice(const char* key, std::string fallback,
                                 std::initializer_list<std::string_view> allowed) {
    const json* v = find(key);
    if (!v) return fallback;
    std::string names;
    for (std::string_view a : allowed) names += cat(names.empty() ? "" : ", ", in_quotes(a));
    if (v->is_string())
        for (std::string_view a : allowed)
            if (v->get<std::string>() == a) return std::string(a);
    refuse(key, cat(in_quotes(key), " is one of ", names, ", not ", v->dump()));
    return fallback;
}

std::string ConfigReader::text(const char* key, std::string fallback) {
    const json* v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) {
        refuse(key, cat(in_quotes(key), " must be a string, not ", v->dump()));
        return fallback;
    }
    return v->get<std::string>();
}

void ConfigReader::refuse(std::string field, std::string message) {
    if (!error_) error_ = Refusal{"bad_config", std::move(message), std::move(field)};
}

std::optional<Refusal> ConfigReader::finish() {
    if (!error_ && body_.is_object())
        for (const auto& [key, value] : body_.items())
            if (!known_.contains(key)) {
                refuse(key, cat("no ", unknown_what_, " ", in_quotes(key), unknown_where_));
                break;
            }
    return error_;
}

void read_buy_ins(ConfigReader& in, bool chip_limit, Chips least, Chips needed, const char* noun,
                  Chips& min_buy_in, Chips& max_buy_in) {
    min_buy_in = in.chips("min_buy_in", chip_limit ? least : needed, 1, 1'000'000'000'000);
    max_buy_in = in.chips("max_buy_in", 10 * min_buy_in, 1, 1'000'000'000'000);
    if (min_buy_in < needed)
        in.refuse("min_buy_in", std::string("without the chip limit a buy-in must cover the most a "
                                            "player can lose in a ") +
                                    noun + ": min_buy_in at least " + to_string(needed));
    if (max_buy_in < min_buy_in) in.refuse("max_buy_in", "max_buy_in is below min_buy_in");
    if (max_buy_in > Chips(1'000'000'000'000))
        in.refuse("max_buy_in", "max_buy_in (by default ten times min_buy_in) is above "
                                "1000000000000");
}

void read_pace(ConfigReader& in, int& decision_ms, int& sit_out_after, int& hand_delay_ms) {
    decision_ms = static_cast<int>(in.integer("decision_ms", decision_ms, 100, 3'600'000));
    sit_out_after = static_cast<int>(in.integer("sit_out_after", sit_out_after, 1, 1000));
    hand_delay_ms = static_cast<int>(in.integer("hand_delay_ms", hand_delay_ms, 0, 60'000));
}

json table_part(json stored) {
    if (stored.is_object())
        for (const char* key :
             {"dealer", "button", "players", "stacks", "names", "rules", "fantasyland"})
            stored.erase(key);
    return stored;
}

int rules_of(const json& stored) {
    const auto it = stored.is_object() ? stored.find("rules") : stored.end();
    return it != stored.end() && it->is_number_integer() ? it->get<int>() : 1;
}

} // namespace felt::protocol
