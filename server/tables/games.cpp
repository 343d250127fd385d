#include "tables/games.h"

#include "state.h"
#include "tables/chinese_table.h"
#include "tables/leap_table.h"
#include "tables/table.h"

namespace felt::server {

namespace {

using protocol::json;
using protocol::Outcome;

Outcome<NewTable> poker(const json& request, SharedState& state) {
    auto d = protocol::decode_poker_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    auto [config, base] = std::move(*d.value);
    json shown = config.to_json();
    return {NewTable{std::move(shown),
                     [config, base, &state](std::int64_t id) -> std::shared_ptr<TableBase> {
                         return std::make_shared<Table>(id, config, base, state, state.io());
                     }},
            {}};
}

// A game whose table is made from its decoded configuration alone.
template <class TableType, auto decode_config>
Outcome<NewTable> game(const json& request, SharedState& state) {
    auto d = decode_config(request);
    if (!d.ok()) return {std::nullopt, std::move(d.refusal)};
    return {NewTable{d.value->to_json(),
                     [config = *d.value, &state](std::int64_t id) -> std::shared_ptr<TableBase> {
                         return std::make_shared<TableType>(id, config, state, state.io());
                     }},
            {}};
}

constexpr Game kGames[] = {
    {"poker", poker},
    {"chinese", game<ChineseTable, protocol::decode_chinese_config>},
    {"leap", game<LeapTable, protocol::decode_leap_config>},
};

} // namespace

const Game* find_game(std::string_view name) {
    for (const Game& g : kGames)
        if (name == g.name) return &g;
    return nullptr;
}

std::string game_names() {
    std::string out;
    for (const Game& g : kGames) {
        if (!out.empty()) out += ", ";
        out += g.name;
    }
    return out;
}

} // namespace felt::server
