#include "tables/chinese_game.h"

#include "chinese/chinese.h"
#include "protocol/chinese_messages.h"
#include "rankings/evaluator.h"
#include "stats/deal_stats.h"

#include <algorithm>
#include <cassert>

namespace felt::server {

namespace {

using protocol::chinese_cards;
using protocol::chinese_pack;
using protocol::chinese_split_json;
using protocol::ChineseConfig;

class ChineseGame final : public Game {
  public:
    explicit ChineseGame(ChineseConfig config) : config_(std::move(config)) {}

    json config() const override { return config_.to_json(); }
    std::string describe() const override { return "chinese " + config_.profile; }
    Limits limits() const override {
        return {config_.seats, config_.min_buy_in, config_.max_buy_in, config_.sit_out_after,
                config_.hand_delay_ms};
    }
    const char* hand_noun() const override { return "deal"; }
    Chips stake_needed() const override { return config_.stake_needed(); }
    std::vector<Card> deck(const Deal&) const override { return chinese_pack().cards(); }
    Outcome<Started> start(const Deal& d, std::vector<Card> deck,
                           std::uint64_t seed) const override;
    Outcome<json> hint(const Hand* hand, Seat seat, const protocol::Request& r) const override;
    Outcome<json> preview(const Hand* hand, Seat seat, const protocol::Request& r) const override;

    const ChineseConfig& settings() const { return config_; }

  private:
    ChineseConfig config_;
};

class ChineseHand final : public Hand {
  public:
    struct Entry { // a seat's part in the deal
        std::array<Card, 13> cards{};
        std::optional<chinese::Player> submitted; // split, declaration, surrender
        bool by_server = false;                   // arranged by the engine (clock or leaving)
        Chips start{};
    };

    ChineseHand(const ChineseGame& game, const Deal& d, std::span<const Card> deck);

    Step deal(std::int64_t hand_id, const std::string& commitment) override;
    bool in(Seat seat) const override { return dealt(seat) != nullptr; }
    Outcome<Step> act(Seat seat, const json& body) override;
    Step time_out() override;
    Step leave(Seat seat) override;
    Clock clock() const override { return {1, game_.settings().decision_ms, std::nullopt}; }
    void seat_view(Seat seat, std::optional<Seat> viewer, json& j) const override;
    void view(std::optional<Seat> viewer, int deadline_ms, json& out) const override;

    // The seat's part in the deal, if it was dealt in.
    const Entry* dealt(Seat seat) const {
        const auto& e = entries_[seat.at()];
        return e ? &*e : nullptr;
    }

  private:
    Entry& entry(Seat seat) { return *entries_[seat.at()]; }
    // Who was dealt the pack's card at `position`: one card at a time, clockwise from the
    // dealer's left, as at a real table.
    Seat dealt_at(std::size_t position) const {
        const std::vector<Seat>& seats = deal_.seats;
        const auto first = static_cast<std::size_t>(
            std::find(seats.begin(), seats.end(), deal_.dealer) - seats.begin() + 1);
        return seats[(first + position % seats.size()) % seats.size()];
    }
    // Records a seat's submission and tells everyone (but not what it is).
    void submit(Seat seat, chinese::Player p, bool by_server, Step& step);
    // The engine's best arrangement for a seat that did not submit in time or left.
    void arrange_for(Seat seat, Step& step);
    // Settles once every seat has submitted.
    void maybe_settle(Step& step);
    End settle();

    const ChineseGame& game_;
    const Deal deal_;
    std::int64_t hand_id_ = 0;
    std::string commitment_;
    std::array<std::optional<Entry>, kMaxTableSeats> entries_;
    std::vector<std::string> log_;
};

Outcome<Started> ChineseGame::start(const Deal& d, std::vector<Card> deck, std::uint64_t) const {
    return {Started{std::make_unique<ChineseHand>(*this, d, deck), chinese_cards(deck), "",
                    json{{"dealer", d.dealer}}},
            {}};
}

Outcome<json> ChineseGame::hint(const Hand* hand, Seat seat, const protocol::Request& r) const {
    auto refuse = [](std::string code, std::string message) {
        return Outcome<json>{std::nullopt, {std::move(code), std::move(message)}};
    };
    if (!config_.hints) return refuse("no_hints", "this table gives no hints");
    const auto* e = hand ? static_cast<const ChineseHand*>(hand)->dealt(seat) : nullptr;
    if (!e) return refuse("not_in_hand", "you hold no cards in a running deal");
    const auto count = protocol::integer_field(r, "count", 3, 1, 10);
    if (!count.ok()) return {std::nullopt, count.refusal};
    auto best = chinese::arrange(e->cards, config_.rules(), config_.options.rules,
                                 static_cast<int>(*count.value));
    if (!best) return refuse("internal", best.error().message);
    return {protocol::chinese_hint_json(best.value()), {}};
}

Outcome<json> ChineseGame::preview(const Hand* hand, Seat seat, const protocol::Request& r) const {
    auto refuse = [](std::string code, std::string message) {
        return Outcome<json>{std::nullopt, {std::move(code), std::move(message)}};
    };
    const auto* e = hand ? static_cast<const ChineseHand*>(hand)->dealt(seat) : nullptr;
    if (!e) return refuse("not_in_hand", "you hold no cards in a running deal");
    auto rows = protocol::parse_chinese_rows(r.body, false);
    if (!rows.ok()) return {std::nullopt, rows.refusal};
    // Every card one of the seat's own, none twice.
    std::vector<Card> used;
    for (const auto* row : {&rows.value->front, &rows.value->middle, &rows.value->back})
        for (Card c : *row) {
            const std::string name = chinese_pack().to_string(c);
            if (std::find(e->cards.begin(), e->cards.end(), c) == e->cards.end())
                return refuse("wrong_cards", name + " is not one of your cards");
            if (std::find(used.begin(), used.end(), c) != used.end())
                return refuse("duplicate_card", name + " is in the rows twice");
            used.push_back(c);
        }
    protocol::ChineseRowValues values;
    if (!rows.value->front.empty()) values.front = evaluate<3>(rows.value->front.data());
    if (!rows.value->middle.empty()) values.middle = evaluate<5>(rows.value->middle.data());
    if (!rows.value->back.empty()) values.back = evaluate<5>(rows.value->back.data());
    const auto foul =
        chinese::check_order(values.front, values.middle, values.back, config_.options.rules);
    auto specials = chinese::declarable(e->cards, config_.rules(), config_.options.rules);
    if (!specials) return refuse("internal", specials.error().message);
    return {protocol::chinese_preview_json(values, foul, specials.value()), {}};
}

ChineseHand::ChineseHand(const ChineseGame& game, const Deal& d, std::span<const Card> deck)
    : game_(game), deal_(d) {
    for (Seat s : d.seats) entries_[s.at()].emplace();
    for (std::size_t pos = 0; pos < 13 * d.seats.size(); ++pos)
        entry(dealt_at(pos)).cards[pos / d.seats.size()] = deck[pos];
    for (Seat s : d.seats) {
        entry(s).start = d.stacks[s.at()];
        log_.push_back(
            protocol::record(protocol::chinese_dealt_json(s.index(), entry(s).cards), "owner"));
    }
}

// The deal: one message, with each player's own 13 cards in their copy only.
Step ChineseHand::deal(std::int64_t hand_id, const std::string& commitment) {
    hand_id_ = hand_id;
    commitment_ = commitment;
    std::vector<Chips> stacks;
    for (Seat s : seats_of(game_.settings().seats))
        stacks.push_back(dealt(s) ? dealt(s)->start : 0);
    auto t = std::make_unique<protocol::JsonTold>(protocol::chinese_deal_json(
        deal_.number, hand_id, deal_.dealer.index(), indices(deal_.seats), stacks, commitment,
        game_.settings().decision_ms));
    for (Seat s : deal_.seats) t->with_own(s.index(), protocol::chinese_cards_json(entry(s).cards));
    Step step;
    step.told.push_back(std::move(t));
    return step;
}

Outcome<Step> ChineseHand::act(Seat seat, const json& body) {
    auto refuse = [](std::string code, std::string message) {
        return Outcome<Step>{std::nullopt, {std::move(code), std::move(message)}};
    };
    if (!in(seat)) return refuse("not_in_hand", "you were not dealt into this deal");
    Entry& e = entry(seat);
    if (e.submitted) return refuse("already_submitted", "your split is in and cannot be changed");
    auto parsed = protocol::parse_chinese_action(body);
    if (!parsed.ok()) return {std::nullopt, parsed.refusal};
    const ChineseConfig& config = game_.settings();
    chinese::Player p = std::move(*parsed.value);
    p.name = deal_.names[seat.at()];
    p.stack = e.start;
    if (p.surrender) {
        if (!config.surrender) return refuse("no_surrender", "this table does not allow surrender");
        p.split = {}; // none: a surrender has no rows, and shows none
    } else {
        if (auto err = chinese::check_split(p.split, config.options.rules, e.cards))
            return {std::nullopt, protocol::refusal(*err)};
        if (p.declare) {
            const std::string name(chinese::special_name(*p.declare));
            const auto& specials = config.rules().specials;
            if (std::none_of(specials.begin(), specials.end(),
                             [&](const chinese::SpecialValue& v) { return v.kind == *p.declare; }))
                return refuse("bad_declare", "the " + config.profile + " profile pays no " + name);
            if (!chinese::has_special(p.split, *p.declare))
                return refuse("bad_declare", "these cards (as split) do not form " + name);
        }
    }
    Step step;
    submit(seat, std::move(p), false, step);
    maybe_settle(step);
    return {std::move(step), {}};
}

void ChineseHand::submit(Seat seat, chinese::Player p, bool by_server, Step& step) {
    Entry& e = entry(seat);
    e.submitted = std::move(p);
    e.by_server = by_server;
    json told = protocol::chinese_submitted_json(deal_.number, seat.index(), by_server);
    json line = told;
    line.erase("hand");
    log_.push_back(protocol::record(std::move(line), "everyone"));
    step.tell(std::move(told));
}

void ChineseHand::arrange_for(Seat seat, Step& step) {
    Entry& e = entry(seat);
    chinese::Player p;
    p.name = deal_.names[seat.at()];
    p.stack = e.start;
    const ChineseConfig& config = game_.settings();
    auto best = chinese::arrange(e.cards, config.rules(), config.options.rules, 1);
    if (best) {
        p.split = best.value().front().split;
        p.declare = best.value().front().declare;
    } else { // cannot happen with 13 cards of one pack; the baseline is always legal
        p.split = chinese::baseline_split(e.cards);
    }
    submit(seat, std::move(p), true, step);
}

Step ChineseHand::leave(Seat seat) {
    Step step;
    if (entry(seat).submitted) return step;
    arrange_for(seat, step);
    maybe_settle(step);
    return step;
}

Step ChineseHand::time_out() {
    Step step;
    for (Seat seat : deal_.seats)
        if (!entry(seat).submitted) {
            step.missed.push_back(seat);
            arrange_for(seat, step);
        }
    maybe_settle(step);
    return step;
}

void ChineseHand::maybe_settle(Step& step) {
    for (Seat seat : deal_.seats)
        if (!entry(seat).submitted) return;
    step.end = settle();
}

End ChineseHand::settle() {
    const std::vector<Seat>& seats = deal_.seats;
    std::vector<chinese::Player> players;
    for (Seat seat : seats) players.push_back(*entry(seat).submitted);
    const int dealer =
        static_cast<int>(std::find(seats.begin(), seats.end(), deal_.dealer) - seats.begin());
    const ChineseConfig& config = game_.settings();
    chinese::Options o = config.options;
    if (config.banker) o.banker = dealer;
    auto settled = chinese::settle(config.rules(), o, players, dealer);
    // Every split was checked on the way in: a bug, but nobody loses a chip.
    if (!settled) return End::voided("unsettled");
    const chinese::Settlement& st = settled.value();
    json arrangements = json::array(), payments = json::array();
    std::vector<Chips> net(static_cast<std::size_t>(config.seats)), rake(net);
    End end;
    Chips before{}, after{};
    for (std::size_t k = 0; k < seats.size(); ++k) {
        const Seat seat = seats[k];
        const Entry& e = entry(seat);
        json a = protocol::chinese_reveal_json(*e.submitted, seat.index(), e.by_server);
        arrangements.push_back(a);
        a["kind"] = "reveal";
        log_.push_back(protocol::record(std::move(a), "everyone"));
        net[seat.at()] = st.net[k];
        rake[seat.at()] = st.rake[k];
        end.results.push_back({seat, e.start, st.final_stacks[k]});
        before += e.start;
        after += st.final_stacks[k] + st.rake[k];
    }
    assert(before == after && "chips are conserved through a deal");
    (void)before;
    (void)after;
    const std::vector<int> at = indices(seats);
    end.stats = chinese_stats_rows(config, o, players, dealer, at, st);
    for (const chinese::Payment& p : st.payments) {
        json j = protocol::chinese_payment_json(p, at);
        payments.push_back(j);
        j["kind"] = "payment";
        log_.push_back(protocol::record(std::move(j), "everyone"));
    }
    json paid = json::array();
    for (const chinese::PairSettlement& p : st.pairs) {
        json j = protocol::chinese_settled_json(p, at);
        paid.push_back(j);
        j["kind"] = "settled";
        log_.push_back(protocol::record(std::move(j), "everyone"));
    }
    log_.push_back(protocol::record(protocol::chinese_totals_json(net, rake), "everyone"));
    end.log = std::move(log_);
    // Every arrangement is shown, so every card dealt is everyone's, but a surrender's: it is a
    // fold, whose cards only their owner saw. The rest of the pack never left it.
    end.seen.resize(13 * seats.size());
    for (std::size_t pos = 0; pos < end.seen.size(); ++pos) {
        const Seat owner = dealt_at(pos);
        if (entry(owner).submitted->surrender)
            end.seen[pos].show(owner.index());
        else
            end.seen[pos].everyone = true;
    }
    end.message = protocol::chinese_deal_end_json(deal_.number, hand_id_, std::move(arrangements),
                                                  std::move(payments), std::move(paid), net, rake);
    return end;
}

void ChineseHand::seat_view(Seat seat, std::optional<Seat>, json& j) const {
    if (const Entry* e = dealt(seat)) {
        j["in_deal"] = true;
        j["submitted"] = e->submitted.has_value();
    }
}

void ChineseHand::view(std::optional<Seat> viewer, int deadline_ms, json& out) const {
    json d = protocol::chinese_deal_view_json(deal_.number, hand_id_, deal_.dealer.index(),
                                              indices(deal_.seats), commitment_);
    d["deadline_ms"] = deadline_ms;
    if (const Entry* e = viewer ? dealt(*viewer) : nullptr)
        protocol::chinese_own_view(e->cards, e->submitted ? &*e->submitted : nullptr, d);
    out["deal"] = std::move(d);
}

} // namespace

std::unique_ptr<Game> chinese_game(ChineseConfig config) {
    return std::make_unique<ChineseGame>(std::move(config));
}

std::vector<std::pair<int, StatsRow>>
chinese_stats_rows(const ChineseConfig& config, const chinese::Options& options,
                   const std::vector<chinese::Player>& players, int dealer,
                   const std::vector<int>& seats, const chinese::Settlement& settled) {
    const std::vector<stats::DealLine> lines =
        stats::count_chinese(config.rules(), options, players, dealer, settled);
    std::vector<std::pair<int, StatsRow>> out;
    for (std::size_t k = 0; k < players.size(); ++k) {
        StatsRow r;
        r.game = "chinese";
        r.variant = config.profile;
        r.stake = options.unit;
        r.table_size = static_cast<int>(players.size());
        r.line.seat = seats[k];
        r.line.net = settled.net[k];
        r.line.rake = settled.rake[k];
        r.deal = lines[k];
        out.emplace_back(seats[k], std::move(r));
    }
    return out;
}

} // namespace felt::server
