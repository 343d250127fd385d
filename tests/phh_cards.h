// The cards a PHH text writes, in the order of its actions, each as two characters ("??" for an
// unknown card): for checking what a hand history shows its reader.
#pragma once

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

inline std::vector<std::string> phh_cards(const std::string& text) {
    std::vector<std::string> out;
    const auto begin = text.find("actions = [");
    REQUIRE(begin != std::string::npos);
    const auto end = text.find(']', begin); // no action holds a ']'
    REQUIRE(end != std::string::npos);
    // Each action is a TOML string, in single or double quotes; cards need no escapes.
    for (auto q = text.find_first_of("'\"", begin); q < end; q = text.find_first_of("'\"", q + 1)) {
        const auto close = text.find(text[q], q + 1);
        REQUIRE(close < end);
        std::istringstream action(text.substr(q + 1, close - q - 1));
        std::vector<std::string> words;
        for (std::string w; action >> w;) words.push_back(w);
        q = close;
        std::string cards;
        if (words.size() == 4 && words[0] == "d" && words[1] == "dh") cards = words[3];
        if (words.size() == 3 && words[0] == "d" && words[1] == "db") cards = words[2];
        if (words.size() == 3 && (words[1] == "sd" || words[1] == "sm")) cards = words[2];
        REQUIRE(cards.size() % 2 == 0);
        for (std::size_t i = 0; i < cards.size(); i += 2) out.push_back(cards.substr(i, 2));
    }
    return out;
}
