#include "storage/store.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace felt::server {

std::string hand_log_text(const std::vector<std::string>& events) {
    std::size_t size = events.size();
    for (std::size_t i = 0; i < events.size(); ++i) {
        // Named by its place, not its text: an event holds cards, and this goes to the log.
        if (events[i].find('\n') != std::string::npos)
            throw std::invalid_argument("event " + std::to_string(i) +
                                        " of a hand's log holds a line break");
        size += events[i].size();
    }
    std::string text;
    text.reserve(size);
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (i > 0) text += '\n';
        text += events[i];
    }
    return text;
}

std::vector<std::string> hand_log_events(std::string_view text) {
    std::vector<std::string> events;
    if (text.empty()) return events;
    for (;;) {
        const std::size_t end = text.find('\n');
        events.emplace_back(text.substr(0, end));
        if (end == std::string_view::npos) return events;
        text.remove_prefix(end + 1);
    }
}

namespace tournament_rows {

namespace {
__extension__ typedef __int128 Wide; // a pool times a stack, exactly
} // namespace

Refusal not_registering(std::int64_t tournament) {
    return {"not_registering", "tournament " + std::to_string(tournament) +
                                   " is not taking registrations (it started, ended or is none)"};
}

Refusal already_registered(std::int64_t tournament) {
    return {"already_registered",
            "you are registered for tournament " + std::to_string(tournament) + " already"};
}

Refusal not_registered(std::int64_t tournament) {
    return {"not_registered",
            "you are not registered for tournament " + std::to_string(tournament)};
}

Refusal not_running(std::int64_t tournament) {
    return {"not_running", "tournament " + std::to_string(tournament) + " is not being played"};
}

const char* purchase_reason(TournamentPurchase::Kind kind) {
    switch (kind) {
    case TournamentPurchase::Kind::entry:
        return "tournament_entry";
    case TournamentPurchase::Kind::rebuy:
        return "tournament_rebuy";
    case TournamentPurchase::Kind::add_on:
        return "tournament_add_on";
    }
    return "tournament_entry";
}

Refusal full(std::int64_t tournament, int max_entrants) {
    return {"tournament_full", "tournament " + std::to_string(tournament) + " has its " +
                                   std::to_string(max_entrants) + " entrants already"};
}

std::vector<std::pair<std::int64_t, Chips>>
shares(Chips pool, const std::vector<std::int64_t>& playing,
       const std::vector<std::pair<std::int64_t, Chips>>& stacks) {
    std::vector<std::pair<std::int64_t, Chips>> out;
    if (playing.empty() || pool <= 0) return out;
    std::vector<Chips> weight;
    Chips total{};
    for (std::int64_t a : playing) {
        auto it =
            std::find_if(stacks.begin(), stacks.end(), [&](const auto& s) { return s.first == a; });
        weight.push_back(it == stacks.end() ? Chips() : std::max(Chips(), it->second));
        total += weight.back();
    }
    if (total == 0) {
        std::fill(weight.begin(), weight.end(), Chips(1));
        total = Chips(static_cast<std::int64_t>(weight.size()));
    }
    Chips given{};
    for (std::size_t i = 0; i < playing.size(); ++i) {
        const auto w = weight[i].value();
        const Chips share(
            static_cast<std::int64_t>(static_cast<Wide>(pool.value()) * static_cast<Wide>(w) /
                                      static_cast<Wide>(total.value())));
        out.push_back({playing[i], share});
        given += share;
    }
    std::vector<std::size_t> order(playing.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
    for (std::size_t k = 0; given < pool; k = (k + 1) % order.size()) {
        ++out[order[k]].second;
        ++given;
    }
    return out;
}

} // namespace tournament_rows

} // namespace felt::server
