#include "games/games.h"

namespace felt::server {

namespace {

constexpr const GameEntry* kGames[] = {&kPokerGame, &kChineseGame, &kLeapGame, &kOpenFaceGame};

} // namespace

const GameEntry* find_game(std::string_view name) {
    for (const GameEntry* g : kGames)
        if (name == g->name) return g;
    return nullptr;
}

const GameEntry& default_game() {
    return kPokerGame;
}

protocol::Outcome<std::shared_ptr<Table>> reopened(const OpenTable& open, Services& services) {
    using Out = protocol::Outcome<std::shared_ptr<Table>>;
    const protocol::json config = protocol::json::parse(open.config, nullptr, false);
    if (!config.is_object()) return Out{std::nullopt, {"bad_config", "not a JSON object"}};
    if (config.contains("game") && !config["game"].is_string())
        return Out{std::nullopt, {"bad_config", "\"game\" is not a string"}};
    const auto name = config.value("game", std::string(default_game().name));
    const GameEntry* game = find_game(name);
    if (!game) return Out{std::nullopt, {"bad_config", "no game \"" + name + "\""}};
    auto decoded = game->decode(config, services);
    if (!decoded.ok()) return Out{std::nullopt, decoded.refusal};
    auto table = decoded.value->make(open.id);
    table->continue_from(open.hands);
    return Out{std::move(table), {}};
}

std::vector<StatsRow> rows_of(const HandRecord& h, const protocol::json& config,
                              std::vector<std::pair<int, StatsRow>> by_seat) {
    std::vector<StatsRow> out;
    for (auto& [seat, row] : by_seat)
        for (const HandRecord::Seat& s : h.seats)
            if (s.seat == seat && s.account != 0) {
                row.account = s.account;
                row.tournament = config.contains("tournament");
                out.push_back(std::move(row));
            }
    return out;
}

protocol::json record_log(const HandRecord& h) {
    protocol::json log = protocol::json::array();
    for (const std::string& body : h.events) {
        protocol::json e = protocol::json::parse(body, nullptr, false);
        if (!e.is_discarded()) log.push_back(std::move(e));
    }
    return log;
}

std::string game_names() {
    std::string out;
    for (const GameEntry* g : kGames) {
        if (!out.empty()) out += ", ";
        out += g->name;
    }
    return out;
}

} // namespace felt::server
