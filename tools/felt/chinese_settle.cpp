// `felt chinese settle`'s document, read and settled (see chinese_settle.h).
#include "chinese_settle.h"

#include "chinese/chinese.h"
#include "cli.h"
#include "protocol/chips_json.h"
#include "rankings/wild.h"

#include <algorithm>
#include <span>
#include <string>
#include <vector>

namespace felt::cli {

using json = nlohmann::ordered_json;

json settle_document(std::string_view text) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) { // a syntax error, or a number too large (out_of_range)
        throw UsageError{std::string("malformed JSON: ") + e.what()};
    }
    auto field = [](const json& j, const char* key, const std::string& where) -> const json& {
        if (!j.is_object() || !j.contains(key))
            throw UsageError{where + ": missing \"" + key + "\""};
        return j.at(key);
    };
    try {
        const std::string profile_name = field(doc, "profile", "document").get<std::string>();
        const chinese::Profile* profile = chinese::find_profile(profile_name);
        if (!profile) {
            std::string known;
            for (auto n : chinese::profile_names())
                known += (known.empty() ? "" : ", ") + std::string(n);
            throw UsageError{"unknown profile \"" + profile_name + "\" (known: " + known + ")"};
        }
        chinese::Options o;
        const json opts = doc.value("options", json::object());
        o.chip_limit = opts.value("chip_limit", false);
        o.aces = opts.value("aces", false);
        o.unit = opts.value("unit", chinese::Chips(1));
        o.rake = opts.value("rake", chinese::Chips());
        o.rules.strict_order = opts.value("strict_order", false);
        o.rules.short_kickers_lowest = opts.value("short_kickers_lowest", false);
        o.edition = opts.value("edition", 2);
        const json& list = field(doc, "players", "document");
        if (!list.is_array()) throw UsageError{"players: an array"};
        std::vector<chinese::Player> players;
        const Deck& pack = deck_for(Wild::none);
        for (const json& pj : list) {
            chinese::Player p;
            p.name = field(pj, "name", "a player").get<std::string>();
            const std::string who = "player " + p.name;
            p.stack = field(pj, "stack", who).get<chinese::Chips>();
            auto row = [&](const char* key, std::span<Card> out) {
                const auto cards = pack.parse_cards(field(pj, key, who).get<std::string>());
                if (!cards) throw UsageError{who + ": " + key + ": " + cards.error().message};
                if (cards->size() != out.size())
                    throw UsageError{who + ": " + key + ": " + std::to_string(out.size()) +
                                     " cards, not " + std::to_string(cards->size())};
                std::copy(cards->begin(), cards->end(), out.begin());
            };
            row("front", p.split.front);
            row("middle", p.split.middle);
            row("back", p.split.back);
            if (pj.contains("declare") && !pj.at("declare").is_null()) {
                const std::string d = pj.at("declare").get<std::string>();
                p.declare = chinese::parse_special(d);
                if (!p.declare) throw UsageError{who + ": unknown special hand \"" + d + "\""};
            }
            p.surrender = pj.value("surrender", false);
            players.push_back(std::move(p));
        }
        auto seat_of = [&](const std::string& name) {
            for (std::size_t i = 0; i < players.size(); ++i)
                if (players[i].name == name) return static_cast<int>(i);
            throw UsageError{"no player named \"" + name + "\""};
        };
        const int dealer = seat_of(field(doc, "dealer", "document").get<std::string>());
        if (opts.contains("banker") && !opts.at("banker").is_null())
            o.banker = seat_of(opts.at("banker").get<std::string>());
        const chinese::Settlement st = unwrap(chinese::settle(*profile, o, players, dealer));
        json out;
        out["payments"] = json::array();
        for (const auto& pay : st.payments)
            out["payments"].push_back({{"from", players[static_cast<std::size_t>(pay.from)].name},
                                       {"to", players[static_cast<std::size_t>(pay.to)].name},
                                       {"units", pay.units},
                                       {"chips", pay.chips},
                                       {"reason", pay.reason}});
        out["settled"] = json::array();
        for (const auto& pair : st.pairs)
            out["settled"].push_back({{"from", players[static_cast<std::size_t>(pair.from)].name},
                                      {"to", players[static_cast<std::size_t>(pair.to)].name},
                                      {"pass", pair.special ? "special" : "rest"},
                                      {"units", pair.units},
                                      {"chips", pair.chips}});
        out["net"] = json::object();
        out["final_stacks"] = json::object();
        out["rake"] = json::object();
        for (std::size_t i = 0; i < players.size(); ++i) {
            out["net"][players[i].name] = st.net[i];
            out["final_stacks"][players[i].name] = st.final_stacks[i];
            out["rake"][players[i].name] = st.rake[i];
        }
        return out;
    } catch (const json::exception& e) {
        throw UsageError{std::string("malformed document: ") + e.what()};
    }
}

} // namespace felt::cli
