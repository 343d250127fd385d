#include "games/games.h"

namespace felt::server {

namespace {

constexpr const GameEntry* kGames[] = {&kPokerGame, &kChineseGame, &kLeapGame};

} // namespace

const GameEntry* find_game(std::string_view name) {
    for (const GameEntry* g : kGames)
        if (name == g->name) return g;
    return nullptr;
}

const GameEntry& default_game() {
    return kPokerGame;
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
