#include "tables/run_out_odds.h"

#include "odds/equity.h"
#include "poker/all_in.h"
#include "rankings/ranking.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace felt::server {

namespace {

double tenth(double x) {
    return std::round(x * 10) / 10;
}

} // namespace

json odds_json(const poker::StreetOdds& o) {
    json list = json::array();
    const odds::Equity& e = o.equity;
    for (std::size_t k = 0; k < o.seats.size(); ++k) {
        json s = {{"seat", o.seats[k]}, {"equity", tenth(e.equity[k])}, {"ties", tenth(e.ties[k])}};
        if (!e.high.empty()) {
            s["high"] = tenth(e.high[k]);
            s["low"] = tenth(e.low[k]);
            s["scoop"] = tenth(e.scoop[k]);
        }
        list.push_back(std::move(s));
    }
    return {{"street", o.street},
            {"seats", std::move(list)},
            {"method", e.exact ? "exact" : "monte-carlo"}};
}

namespace {

// The chances after events [0, upto): the hands shown at once, with the up cards dealt to them
// since (a card dealt face down since stays unknown: the deck deals it), and the board.
std::optional<poker::StreetOdds>
part_odds(const poker::HandConfig& c, std::span<const poker::Event> events, const odds::Query& q) {
    std::array<std::vector<Card>, poker::kMaxSeats> known;
    std::array<bool, poker::kMaxSeats> shown{};
    for (const poker::Event& e : events) {
        if (e.seat < 0) continue;
        const auto seat = static_cast<std::size_t>(e.seat);
        if (e.type == poker::EventType::show && e.number == 1) {
            shown[seat] = true;
            known[seat].assign(e.cards.begin(), e.cards.begin() + e.count);
        } else if (e.type == poker::EventType::deal_up && shown[seat]) {
            known[seat].insert(known[seat].end(), e.cards.begin(), e.cards.begin() + e.count);
        }
    }
    return poker::street_odds(c, events, known, q);
}

// Deals a street's Monte Carlo may draw: about 15 million hands judged, fewer deals where a
// deal judges more (Omaha's 60 fives a hand, the short deck's 21), at most 300,000.
std::uint64_t deal_budget(const odds::Query& q, int players) {
    double per_hand = 1;
    switch (q.game) {
    case odds::Game::short_deck:
        per_hand = 21;
        break;
    case odds::Game::omaha:
    case odds::Game::omaha_hilo: {
        const int h = q.hole ? q.hole : 4;
        per_hand = h * (h - 1) / 2 * 10 * (q.game == odds::Game::omaha_hilo ? 2 : 1);
        break;
    }
    case odds::Game::stud_hilo:
    case odds::Game::razz:
        per_hand = 4;
        break;
    default:
        break;
    }
    return std::min<std::uint64_t>(
        300'000, static_cast<std::uint64_t>(15e6 / (per_hand * std::max(players, 2))));
}

} // namespace

std::optional<RunOutOdds> run_out_odds(int hand, const poker::HandState& end,
                                       std::vector<poker::Event> events,
                                       std::vector<std::size_t> ends) {
    if (!end.shown || !end.config) return std::nullopt;
    auto base = poker::odds_query(*end.config);
    if (!base) return std::nullopt;
    // To 0.1 % at the table: exact where that is quick, else sampled to that standard error
    // within deal_budget().
    base->target_stderr = 0.1;
    base->max_samples = deal_budget(*base, end.live);
    // Enumerated only where that is quick for everyone's sake (the odds thread serves every
    // table): hold'em's fast enumeration, and at most 200,000 showdowns in the other games.
    if (base->game != odds::Game::holdem) base->exact_limit = 200'000;
    struct Shared {
        int hand;
        poker::HandState end;
        std::vector<poker::Event> events;
        std::vector<std::size_t> ends;
        odds::Query q;
        std::size_t first_show = 0;
        std::optional<poker::StreetOdds> at_show; // part 0's, for the all-in EV
    };
    auto sh = std::make_shared<Shared>(
        Shared{hand, end, std::move(events), std::move(ends), *base, 0, std::nullopt});
    sh->first_show = sh->events.size();
    for (std::size_t i = 0; i < sh->events.size(); ++i)
        if (sh->events[i].type == poker::EventType::show && sh->events[i].number == 1) {
            sh->first_show = i;
            break;
        }
    RunOutOdds out;
    out.parts = sh->ends.size();
    out.part = [sh](std::size_t k) -> json {
        // Nothing before the show, and nothing once the showdown is told.
        if (sh->ends[k] <= sh->first_show || k + 1 == sh->ends.size()) return nullptr;
        auto o = part_odds(*sh->end.config, std::span(sh->events).first(sh->ends[k]), sh->q);
        if (!o) return nullptr;
        json j = odds_json(*o);
        j["kind"] = "odds";
        j["hand"] = sh->hand;
        if (k == 0) sh->at_show = std::move(o);
        return j;
    };
    out.all_in_ev = [sh]() -> std::string {
        // Without the first street's chances to reuse (no run-out told, or side pots), the EV
        // samples less: a standard error of about 0.35 % of a pot at worst.
        odds::Query q = sh->q;
        q.max_samples = std::min<std::uint64_t>(q.max_samples, 20'000);
        const auto ev = poker::all_in_ev(*sh->end.config, sh->events, sh->end, q,
                                         sh->at_show ? &*sh->at_show : nullptr);
        if (!ev) return {};
        json seats = json::array();
        for (const poker::AllInShare& s : ev->seats)
            seats.push_back({{"equity", std::round(s.equity * 1000) / 1000},
                             {"expected", std::round(s.expected * 100) / 100},
                             {"seat", s.seat},
                             {"won", s.won}});
        return json{{"kind", "all_in_ev"},
                    {"method", ev->exact ? "exact" : "monte-carlo"},
                    {"seats", std::move(seats)},
                    {"street", ev->street}}
            .dump();
    };
    return out;
}

} // namespace felt::server
