#include "tables/games.h"

#include "chinese/chinese.h"
#include "tables/chinese_game.h"
#include "tables/leap_game.h"
#include "tables/poker_game.h"

namespace felt::server {

namespace {

using protocol::json;
using protocol::Outcome;

// A table of a decoded configuration: `game(config)` makes its Game.
template <class Config, class MakeGame>
NewTable table_of(Config config, Services& services, MakeGame game) {
    json shown = config.to_json();
    return {std::move(shown), [config = std::move(config), &services, game](std::int64_t id) {
                return std::make_shared<Table>(id, game(config), services);
            }};
}

Outcome<NewTable> poker(const json& request, Services& services) {
    auto d = protocol::decode_poker_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    auto [config, base] = std::move(*d.value);
    return {table_of(std::move(config), services,
                     [base](const protocol::PokerConfig& c) { return poker_game(c, base); }),
            {}};
}

Outcome<NewTable> chinese(const json& request, Services& services) {
    auto d = protocol::decode_chinese_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    return {table_of(std::move(*d.value), services, chinese_game), {}};
}

Outcome<NewTable> leap(const json& request, Services& services) {
    auto d = protocol::decode_leap_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    return {table_of(std::move(*d.value), services, leap_game), {}};
}

constexpr GameEntry kGames[] = {
    {"poker", poker},
    {"chinese", chinese},
    {"leap", leap},
};

} // namespace

const GameEntry* find_game(std::string_view name) {
    for (const GameEntry& g : kGames)
        if (name == g.name) return &g;
    return nullptr;
}

std::string game_names() {
    std::string out;
    for (const GameEntry& g : kGames) {
        if (!out.empty()) out += ", ";
        out += g.name;
    }
    return out;
}

} // namespace felt::server
