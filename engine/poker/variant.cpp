#include "poker/variant.h"

#include <array>
#include <utility>

namespace felt::poker {

namespace {

using K = Step::Kind;

Step down(int n) {
    return {K::deal_down, n};
}
Step up(int n) {
    return {K::deal_up, n};
}
Step board(int n) {
    return {K::deal_board, n};
}
Step rollover() {
    return {K::rollover, 1};
}

// Seven-card stud's streets: two down and one up, three up, one down.
std::vector<Street> stud_streets(bool open_pair) {
    return {Street{{Step{K::deal_down, 3, 0, -1, -1, 0b100}}},
            Street{{up(1)}, true, false, open_pair}, Street{{up(1)}, true, true},
            Street{{up(1)}, true, true}, Street{{down(1)}, true, true}};
}

// A draw game: `cards` each, then `draws` draws of any number of them (standing pat allowed);
// fixed limit bets the small bet before and after the first draw, the big bet after the others.
std::vector<Street> draw_streets(int cards, int draws) {
    std::vector<Street> out = {Street{{down(cards)}}};
    for (int d = 1; d <= draws; ++d)
        out.push_back(
            Street{{Step{K::draw, 0, 0, cards, -1, 0, true}}, true, d >= 2 || draws == 1});
    return out;
}

// Hold'em's streets after `hole` cards each.
std::vector<Street> board_streets(int hole) {
    return {Street{{down(hole)}}, Street{{board(3)}}, Street{{board(1)}, true, true},
            Street{{board(1)}, true, true}};
}

Variant variant(std::string name, std::vector<Street> streets, Opener opener, int max_seats,
                std::string ranking = "standard", int hole_cards_used = 0, bool split_low = false) {
    return Variant{std::move(name),    std::move(streets), opener,   max_seats,
                   std::move(ranking), hole_cards_used,    split_low};
}

const std::array<Variant, 15>& variants() {
    static const std::array<Variant, 15> all = {
        Variant{"straight", {Street{{down(5)}}}, Opener::position, 9},
        Variant{"draw",
                {Street{{down(5)}}, Street{{Step{K::draw, 0, 0, -1, -1}}, true, true}},
                Opener::position,
                9},
        Variant{"stud", stud_streets(true), Opener::showing, 8},
        Variant{"holdem", board_streets(2), Opener::position, 9},
        // Like stud, every card face down, and a rollover before each betting round.
        Variant{"mexican",
                {Street{{down(3), rollover()}}, Street{{down(1), rollover()}, true, false, true},
                 Street{{down(1), rollover()}, true, true},
                 Street{{down(1), rollover()}, true, true},
                 Street{{down(1), rollover()}, true, true}},
                Opener::showing,
                8},
        // Nine each; four draws, each optional: a player who draws discards exactly two and
        // receives one (HandConfig::draws plays fewer).
        Variant{"shrinking",
                {Street{{down(9)}}, Street{{Step{K::draw, 0, 2, 2, 1, 0, true}}},
                 Street{{Step{K::draw, 0, 2, 2, 1, 0, true}}, true, true},
                 Street{{Step{K::draw, 0, 2, 2, 1, 0, true}}, true, true},
                 Street{{Step{K::draw, 0, 2, 2, 1, 0, true}}, true, true}},
                Opener::position,
                5},
        // Shrinking draw as Felt played it to its rules' edition 2: three draws, each of exactly
        // two discarded for one received. Not offered to tables; its stored hands replay under it.
        Variant{"shrinking-3",
                {Street{{down(9)}}, Street{{Step{K::draw, 0, 2, 2, 1}}},
                 Street{{Step{K::draw, 0, 2, 2, 1}}, true, true},
                 Street{{Step{K::draw, 0, 2, 2, 1}}, true, true}},
                Opener::position,
                5},
        // The mixed games (issue 48), as PokerKit plays them.
        variant("omaha", board_streets(4), Opener::position, 9, "standard", 2),
        variant("omaha-hilo", board_streets(4), Opener::position, 9, "standard", 2, true),
        variant("razz", stud_streets(false), Opener::showing_low, 8, "ace-to-five"),
        variant("stud-hilo", stud_streets(false), Opener::showing, 8, "standard", 0, true),
        variant("deuce-single-draw", draw_streets(5, 1), Opener::position, 6, "deuce-to-seven"),
        variant("deuce-triple-draw", draw_streets(5, 3), Opener::position, 6, "deuce-to-seven"),
        variant("badugi", draw_streets(4, 3), Opener::position, 6, "badugi"),
        variant("short-deck", board_streets(2), Opener::position, 9, "short-deck"),
    };
    return all;
}

} // namespace

const Variant* builtin_variant(std::string_view name) {
    for (const Variant& v : variants())
        if (v.name == name) return &v;
    return nullptr;
}

std::vector<std::string_view> builtin_variant_names() {
    std::vector<std::string_view> out;
    for (const Variant& v : variants())
        if (v.name != "shrinking-3") out.push_back(v.name);
    return out;
}

} // namespace felt::poker
