#include "poker/variant.h"

#include <array>

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

const std::array<Variant, 7>& variants() {
    static const std::array<Variant, 7> all = {
        Variant{"straight", {Street{{down(5)}}}, Opener::position, 9},
        Variant{"draw",
                {Street{{down(5)}}, Street{{Step{K::draw, 0, 0, -1, -1}}, true, true}},
                Opener::position,
                9},
        Variant{"stud",
                {Street{{Step{K::deal_down, 3, 0, -1, -1, 0b100}}},
                 Street{{up(1)}, true, false, true}, Street{{up(1)}, true, true},
                 Street{{up(1)}, true, true}, Street{{down(1)}, true, true}},
                Opener::showing,
                8},
        Variant{"holdem",
                {Street{{down(2)}}, Street{{board(3)}}, Street{{board(1)}, true, true},
                 Street{{board(1)}, true, true}},
                Opener::position,
                9},
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
