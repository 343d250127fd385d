// `felt open-face settle` and `felt open-face fantasyland` (see openface_cmd.h).
#include "openface_cmd.h"

#include "cli.h"
#include "openface/fantasyland.h"
#include "protocol/chips_json.h"
#include "rankings/wild.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace felt::cli {

using json = nlohmann::ordered_json;

namespace {

const Deck& pack() {
    return deck_for(Wild::none);
}

std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// Rows as "front / middle / back" (or with "|"), or a document's three fields.
openface::Split parse_rows(const std::string& front, const std::string& middle,
                           const std::string& back, const std::string& who) {
    openface::Split s;
    auto row = [&](const char* name, const std::string& text, std::span<Card> out) {
        const auto cards = pack().parse_cards(text);
        if (!cards) throw UsageError{who + ": " + name + ": " + cards.error().message};
        if (cards->size() != out.size())
            throw UsageError{who + ": " + name + ": " + std::to_string(out.size()) +
                             " cards, not " + std::to_string(cards->size())};
        std::copy(cards->begin(), cards->end(), out.begin());
    };
    row("front", front, s.front);
    row("middle", middle, s.middle);
    row("back", back, s.back);
    return s;
}

openface::Split parse_rows(const std::string& text) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == '/' || c == '|')
            parts.emplace_back();
        else
            parts.back() += c;
    }
    if (parts.size() != 3)
        throw UsageError{"--against \"" + text + "\": three rows, front / middle / back"};
    return parse_rows(parts[0], parts[1], parts[2], "--against");
}

json row_royalties(const std::array<int, 3>& r) {
    return {{"front", r[0]}, {"middle", r[1]}, {"back", r[2]}};
}

int run_settle(bool as_json) {
    std::ostringstream text;
    text << std::cin.rdbuf();
    const json out = openface_settle_document(text.str());
    if (as_json) {
        std::cout << out.dump() << "\n";
        return 0;
    }
    for (const auto& p : out["payments"])
        std::printf("%s pays %s %d (%s)\n", p["from"].get<std::string>().c_str(),
                    p["to"].get<std::string>().c_str(), p["units"].get<int>(),
                    p["reason"].get<std::string>().c_str());
    std::string line;
    for (const auto& [name, chips] : out["net"].items())
        line += (line.empty() ? "" : ", ") + name + " " + (chips.get<long long>() > 0 ? "+" : "") +
                std::to_string(chips.get<long long>());
    std::printf("net: %s\n", line.c_str());
    line.clear();
    for (const auto& [name, cards] : out["fantasyland"].items())
        line +=
            (line.empty() ? "" : ", ") + name + " " + std::to_string(cards.get<int>()) + " cards";
    std::printf("fantasyland: %s\n", line.empty() ? "nobody" : line.c_str());
    return 0;
}

int run_fantasyland(const std::vector<std::string>& words, const std::vector<std::string>& against,
                    bool progressive, bool strict, int stay_value, bool as_json) {
    const std::vector<Card> cards = unwrap(pack().parse_cards(join(words)));
    const int n = static_cast<int>(cards.size());
    if (progressive ? (n < 14 || n > 17) : (n < 13 || n > 14))
        throw UsageError{std::string("a Fantasyland hand has ") +
                         (progressive ? "14 to 17 cards with --progressive"
                                      : "14 cards (13 at four players; 15 to 17 with "
                                        "--progressive)") +
                         ", not " + std::to_string(n)};
    std::vector<openface::Split> rows;
    for (const auto& a : against) rows.push_back(parse_rows(a));
    const auto stay = strict ? openface::Stay::strict : openface::Stay::standard;
    const auto s = unwrap(openface::solve_fantasyland(
        cards, stay, rows, stay_value < 0 ? openface::kDefaultStayValue : stay_value));
    json out;
    out["front"] = pack().to_string(s.split.front);
    out["middle"] = pack().to_string(s.split.middle);
    out["back"] = pack().to_string(s.split.back);
    out["discards"] = pack().to_string(s.discards);
    out["royalties"] = row_royalties(s.royalties);
    out["stays"] = s.stays;
    out["points"] = s.points;
    if (as_json) {
        std::cout << out.dump() << "\n";
        return 0;
    }
    std::printf("front    %s\nmiddle   %s\nback     %s\ndiscards %s\n",
                out["front"].get<std::string>().c_str(), out["middle"].get<std::string>().c_str(),
                out["back"].get<std::string>().c_str(),
                s.discards.empty() ? "none" : out["discards"].get<std::string>().c_str());
    std::printf("royalties %d (front %d, middle %d, back %d)\nstays %s\npoints %d\n",
                s.royalties[0] + s.royalties[1] + s.royalties[2], s.royalties[0], s.royalties[1],
                s.royalties[2], s.stays ? "yes" : "no", s.points);
    return 0;
}

} // namespace

json openface_settle_document(std::string_view text) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) {
        throw UsageError{std::string("malformed JSON: ") + e.what()};
    }
    auto field = [](const json& j, const char* key, const std::string& where) -> const json& {
        if (!j.is_object() || !j.contains(key))
            throw UsageError{where + ": missing \"" + key + "\""};
        return j.at(key);
    };
    try {
        if (doc.contains("profile"))
            throw UsageError{"open-face has no profiles: its scoring is one (options: unit, "
                             "progressive, stay, chip_limit, rake, variant)"};
        const json& list = field(doc, "players", "document");
        if (!list.is_array()) throw UsageError{"players: an array"};
        std::vector<openface::Player> players;
        for (const json& pj : list) {
            openface::Player p;
            p.name = field(pj, "name", "a player").get<std::string>();
            const std::string who = "player " + p.name;
            if (pj.contains("stack") && !pj.at("stack").is_null())
                p.stack = pj.at("stack").get<Chips>();
            p.split = parse_rows(field(pj, "front", who).get<std::string>(),
                                 field(pj, "middle", who).get<std::string>(),
                                 field(pj, "back", who).get<std::string>(), who);
            p.fantasyland = pj.value("fantasyland", false) ? 14 : 0;
            players.push_back(std::move(p));
        }
        openface::Options o;
        const json opts = doc.value("options", json::object());
        o.unit = opts.value("unit", Chips(1));
        o.rake = opts.value("rake", Chips());
        o.chip_limit = opts.value("chip_limit", false);
        o.progressive = opts.value("progressive", false);
        const std::string stay = opts.value("stay", std::string("standard"));
        const auto parsed_stay = openface::parse_stay(stay);
        if (!parsed_stay) throw UsageError{"unknown stay rule \"" + stay + "\" (standard, strict)"};
        o.stay = *parsed_stay;
        const std::string variant =
            opts.value("variant", std::string(players.size() == 4 ? "classic" : "pineapple"));
        const auto parsed_variant = openface::parse_variant(variant);
        if (!parsed_variant)
            throw UsageError{"unknown variant \"" + variant + "\" (pineapple, classic)"};
        o.variant = *parsed_variant;
        int dealer = 0;
        if (doc.contains("dealer") && !doc.at("dealer").is_null()) {
            const std::string name = doc.at("dealer").get<std::string>();
            dealer = -1;
            for (std::size_t i = 0; i < players.size(); ++i)
                if (players[i].name == name) dealer = static_cast<int>(i);
            if (dealer < 0) throw UsageError{"no player named \"" + name + "\""};
        }
        const auto st = unwrap(openface::settle(o, players, dealer));
        auto name = [&](int i) { return players[static_cast<std::size_t>(i)].name; };
        json out;
        out["payments"] = json::array();
        for (const auto& pay : st.payments)
            out["payments"].push_back({{"from", name(pay.from)},
                                       {"to", name(pay.to)},
                                       {"units", pay.units},
                                       {"chips", pay.chips},
                                       {"reason", pay.reason}});
        out["settled"] = json::array();
        for (const auto& pair : st.pairs)
            out["settled"].push_back({{"from", name(pair.from)},
                                      {"to", name(pair.to)},
                                      {"units", pair.units},
                                      {"chips", pair.chips}});
        for (const char* key :
             {"points", "net", "rake", "final_stacks", "fouled", "royalties", "fantasyland"})
            out[key] = json::object();
        for (std::size_t i = 0; i < players.size(); ++i) {
            const std::string& n = players[i].name;
            out["points"][n] = st.points[i];
            out["net"][n] = st.net[i];
            out["rake"][n] = st.rake[i];
            if (st.final_stacks[i]) out["final_stacks"][n] = *st.final_stacks[i];
            out["fouled"][n] = static_cast<bool>(st.fouled[i]);
            out["royalties"][n] = row_royalties(st.royalties[i]);
            if (st.fantasyland[i] > 0) out["fantasyland"][n] = st.fantasyland[i];
        }
        return out;
    } catch (const json::exception& e) {
        throw UsageError{std::string("malformed document: ") + e.what()};
    }
}

void OpenFaceCommand::add_to(CLI::App& app) {
    auto* cmd = app.add_subcommand("open-face", "Open-face Chinese poker and Pineapple");
    cmd->require_subcommand(1);
    settle_ = cmd->add_subcommand(
        "settle", "Settle a hand: a JSON document on stdin; the payments, nets and Fantasyland");
    settle_->add_flag("--json", settle_json_, "Print the settlement as JSON");
    fantasyland_ = cmd->add_subcommand(
        "fantasyland", "The placement of a Fantasyland hand that scores the most points");
    fantasyland_->add_flag("--progressive", progressive_,
                           "Progressive Fantasyland: 14 to 17 cards (else 14, or 13)");
    fantasyland_
        ->add_option("--against", against_,
                     "An opponent's finished rows, \"front / middle / back\" (repeat "
                     "for each)")
        ->allow_extra_args(false);
    fantasyland_->add_flag("--strict", strict_,
                           "Stay by the strict rule (trips in front, four of a kind in the back)");
    fantasyland_->add_option("--stay-value", stay_value_,
                             "Points that staying in Fantasyland is worth (10)");
    fantasyland_->add_flag("--json", json_, "Print one JSON object");
    fantasyland_->add_option("cards", cards_, "The hand's cards")->required();
}

int OpenFaceCommand::run() const {
    if (settle_ && *settle_) return run_settle(settle_json_);
    if (fantasyland_ && *fantasyland_)
        return run_fantasyland(cards_, against_, progressive_, strict_, stay_value_, json_);
    return -1;
}

} // namespace felt::cli
