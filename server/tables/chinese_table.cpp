#include "tables/chinese_table.h"

#include "cards/deck.h"
#include "state.h"

#include <algorithm>
#include <numeric>

namespace felt::server {

using protocol::json;

using protocol::chinese_cards;
using protocol::chinese_pack;
using protocol::chinese_split_json;

ChineseTable::ChineseTable(std::int64_t id, ChineseConfig config, SharedState& state,
                           net::io_context& ioc)
    : TableBase(id,
                {config.seats, config.min_buy_in, config.max_buy_in, config.sit_out_after,
                 config.hand_delay_ms},
                state, ioc),
      config_(std::move(config)) {
    // The odds behind hints and arranging are built once, on first use (a fifth of a second):
    // off the table's strand, before the first deal needs them.
    net::post(state.workers(), [] { chinese::win_tables(); });
}

const ChineseTable::Entry* ChineseTable::dealt(int seat) const {
    if (!deal_) return nullptr;
    const auto& e = deal_->entries[static_cast<std::size_t>(seat)];
    return e ? &*e : nullptr;
}

bool ChineseTable::in_running(int seat) const {
    return dealt(seat) != nullptr;
}

std::string ChineseTable::snapshot(int seat) const {
    json seats = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        const Seat* st = this->seat(i);
        if (!st) continue;
        json j = {{"seat", i},
                  {"name", st->name},
                  {"stack", st->stack},
                  {"sitting_out", st->sitting_out}};
        if (const Entry* e = dealt(i)) {
            j["in_deal"] = true;
            j["submitted"] = e->submitted.has_value();
        }
        seats.push_back(std::move(j));
    }
    json out = snapshot_head(seat, std::move(seats));
    if (deal_) {
        json d = {{"hand", deal_->number},
                  {"hand_id", deal_->hand_id},
                  {"dealer", deal_->dealer},
                  {"seats", deal_->seats},
                  {"commitment", deal_->reveal.hash()}};
        if (const Entry* e = seat >= 0 ? dealt(seat) : nullptr) {
            d["cards"] = chinese_cards(e->cards);
            if (e->submitted) d["your_split"] = chinese_split_json(*e->submitted);
        }
        out["deal"] = std::move(d);
    }
    return out.dump();
}

void ChineseTable::start_hand() {
    const std::vector<int> seats = ready_seats();
    if (seats.size() < 2) return;
    // The deal moves to the next seat dealt in.
    const int dealer = next_dealer();
    std::vector<Card> deck = chinese_pack().cards();
    secure_shuffle(deck);
    Deal d;
    d.number = ++hands_;
    d.dealer = dealer;
    d.seats = seats;
    d.reveal = {chinese_cards(deck), "", random_salt()};
    // One card at a time, clockwise from the dealer's left, as at a real table.
    const auto first =
        static_cast<std::size_t>(std::find(seats.begin(), seats.end(), dealer) - seats.begin() + 1);
    for (std::size_t k = 0, next = 0; k < 13; ++k)
        for (std::size_t j = 0; j < seats.size(); ++j) {
            auto& e = d.entries[static_cast<std::size_t>(seats[(first + j) % seats.size()])];
            if (!e) e.emplace();
            e->cards[k] = deck[next++];
        }
    json stacks = json::array(), names = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        auto& e = d.entries[static_cast<std::size_t>(i)];
        if (e) e->start = seat(i)->stack;
        stacks.push_back(e ? e->start : 0);
        names.push_back(e ? json(seat(i)->name) : json(nullptr));
    }
    const std::string commit = d.reveal.hash();
    // The table's configuration, plus what this deal needs to be read or replayed alone.
    json config = config_.to_json();
    config["dealer"] = dealer;
    config["stacks"] = stacks;
    config["names"] = names;
    for (int s : seats)
        d.log.push_back(json{
            {"kind", "deal"},
            {"seat", s},
            {"cards", chinese_cards(d.entries[static_cast<std::size_t>(s)]->cards)},
            {"visibility",
             "owner"}}.dump());
    const int number = d.number;
    open_hand(
        number, config, commit,
        [self = self<ChineseTable>(), d = std::move(d), stacks, commit](std::int64_t id) mutable {
            d.hand_id = id;
            self->deal(std::move(d), stacks, commit);
        });
}

// The deal, once its row is written: one message, with each player's own 13 cards in their copy
// only, and the clock.
void ChineseTable::deal(Deal d, const json& stacks, const std::string& commit) {
    dealer_ = d.dealer;
    deal_ = std::move(d);
    json m = {{"kind", "deal"},
              {"hand", deal_->number},
              {"hand_id", deal_->hand_id},
              {"dealer", deal_->dealer},
              {"seats", deal_->seats},
              {"stacks", stacks},
              {"commitment", commit},
              {"deadline_ms", config_.decision_ms}};
    broadcast(std::move(m), [&](int seat) {
        const Entry* e = dealt(seat);
        return e ? json{{"cards", chinese_cards(e->cards)}} : json();
    });
    clock_.expires_after(std::chrono::milliseconds(config_.decision_ms));
    clock_.async_wait([self = self<ChineseTable>(), n = deal_->number](beast::error_code ec) {
        if (!ec) self->on_clock(n);
    });
}

void ChineseTable::act(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = self<ChineseTable>(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        if (!self->deal_) return self->refuse(s, r, "no_hand", "no deal is being played");
        if (!self->in_running(*seat))
            return self->refuse(s, r, "not_in_hand", "you were not dealt into this deal");
        Entry& e = self->entry(*seat);
        if (e.submitted)
            return self->refuse(s, r, "already_submitted",
                                "your split is in and cannot be changed");
        auto parsed = protocol::parse_chinese_action(r.body);
        if (!parsed.ok()) return self->refuse(s, r, parsed.refusal);
        chinese::Player p = std::move(*parsed.value);
        p.name = self->seat(*seat)->name;
        p.stack = e.start;
        if (p.surrender) {
            if (!self->config_.surrender)
                return self->refuse(s, r, "no_surrender", "this table does not allow surrender");
            p.split = chinese::baseline_split(e.cards); // never shown: it settles nothing
        } else {
            if (auto err = chinese::check_split(p.split, self->config_.options.rules, e.cards))
                return self->refuse(s, r, protocol::refusal(*err));
            if (p.declare) {
                const std::string name(chinese::special_name(*p.declare));
                const auto& specials = self->config_.rules().specials;
                if (std::none_of(
                        specials.begin(), specials.end(),
                        [&](const chinese::SpecialValue& v) { return v.kind == *p.declare; }))
                    return self->refuse(s, r, "bad_declare",
                                        "the " + self->config_.profile + " profile pays no " +
                                            name);
                if (!chinese::has_special(p.split, *p.declare))
                    return self->refuse(s, r, "bad_declare",
                                        "these cards (as split) do not form " + name);
            }
        }
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->submit(*seat, std::move(p), false);
        self->maybe_settle();
    });
}

void ChineseTable::hint(std::shared_ptr<Recipient> s, Account a, protocol::Request r) {
    net::post(strand_, [self = self<ChineseTable>(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        if (!self->config_.hints)
            return self->refuse(s, r, "no_hints", "this table gives no hints");
        if (!self->in_running(*seat))
            return self->refuse(s, r, "not_in_hand", "you hold no cards in a running deal");
        const auto count = protocol::integer_field(r, "count", 3, 1, 10);
        if (!count.ok()) return self->refuse(s, r, count.refusal);
        auto best = chinese::arrange(self->entry(*seat).cards, self->config_.rules(),
                                     self->config_.options.rules, static_cast<int>(*count.value));
        if (!best) return self->refuse(s, r, "internal", best.error().message);
        json list = json::array();
        for (const chinese::Arrangement& a : best.value()) {
            chinese::Player p;
            p.split = a.split;
            p.declare = a.declare;
            json j = chinese_split_json(p);
            j.erase("surrender");
            j["expected_units"] = a.expected_units;
            list.push_back(std::move(j));
        }
        self->send(s, protocol::reply(r, {{"table", self->id_}, {"arrangements", list}}));
    });
}

void ChineseTable::submit(int seat, chinese::Player p, bool by_server) {
    Entry& e = entry(seat);
    e.submitted = std::move(p);
    e.by_server = by_server;
    const char* by = by_server ? "server" : "player";
    deal_->log.push_back(
        json{{"kind", "submitted"}, {"seat", seat}, {"by", by}, {"visibility", "everyone"}}.dump());
    broadcast({{"kind", "submitted"}, {"hand", deal_->number}, {"seat", seat}, {"by", by}});
}

void ChineseTable::arrange_for(int seat) {
    Entry& e = entry(seat);
    chinese::Player p;
    p.name = this->seat(seat)->name;
    p.stack = e.start;
    auto best = chinese::arrange(e.cards, config_.rules(), config_.options.rules, 1);
    if (best) {
        p.split = best.value().front().split;
        p.declare = best.value().front().declare;
    } else { // cannot happen with 13 cards of one pack; the baseline is always legal
        spdlog::error("table {}: arranging seat {} failed: {}", id_, seat, best.error().message);
        p.split = chinese::baseline_split(e.cards);
    }
    submit(seat, std::move(p), true);
}

void ChineseTable::leaving_in_hand(int seat) {
    if (entry(seat).submitted) return;
    arrange_for(seat);
    maybe_settle();
}

void ChineseTable::on_clock(int number) {
    if (!deal_ || deal_->number != number) return;
    for (int seat : deal_->seats)
        if (!entry(seat).submitted) {
            spdlog::info("table {}: seat {} timed out; the engine arranges", id_, seat);
            note_missed(seat, number);
            arrange_for(seat);
        }
    maybe_settle();
}

void ChineseTable::maybe_settle() {
    for (int seat : deal_->seats)
        if (!entry(seat).submitted) return;
    settle();
}

void ChineseTable::settle() {
    clock_.cancel();
    Deal& d = *deal_;
    std::vector<chinese::Player> players;
    for (int seat : d.seats) players.push_back(*entry(seat).submitted);
    const int dealer =
        static_cast<int>(std::find(d.seats.begin(), d.seats.end(), d.dealer) - d.seats.begin());
    chinese::Options o = config_.options;
    if (config_.banker) o.banker = dealer;
    auto settled = chinese::settle(config_.rules(), o, players, dealer);
    if (!settled) { // every split was checked on the way in: a bug, but nobody loses a chip
        spdlog::error("table {}: deal {} cannot settle: {}", id_, d.number,
                      settled.error().message);
        void_hand(d.hand_id, d.number, "unsettled");
        deal_.reset();
        return after_hand();
    }
    const chinese::Settlement& st = settled.value();
    json arrangements = json::array(), payments = json::array();
    json net = json::array(), rake = json::array();
    for (int i = 0; i < limits_.seats; ++i) {
        net.push_back(0);
        rake.push_back(0);
    }
    std::vector<SeatResult> results;
    Chips before = 0, after = 0;
    for (std::size_t k = 0; k < d.seats.size(); ++k) {
        const int seat = d.seats[k];
        const Entry& e = entry(seat);
        json a = chinese_split_json(*e.submitted);
        a["seat"] = seat;
        a["by"] = e.by_server ? "server" : "player";
        arrangements.push_back(a);
        a["kind"] = "reveal";
        a["visibility"] = "everyone";
        d.log.push_back(a.dump());
        net[static_cast<std::size_t>(seat)] = st.net[k];
        rake[static_cast<std::size_t>(seat)] = st.rake[k];
        results.push_back({seat, e.start, st.final_stacks[k]});
        before += e.start;
        after += st.final_stacks[k] + st.rake[k];
    }
    assert(before == after && "chips are conserved through a deal");
    (void)before;
    (void)after;
    for (const chinese::Payment& p : st.payments) {
        json j = {{"from", d.seats[static_cast<std::size_t>(p.from)]},
                  {"to", d.seats[static_cast<std::size_t>(p.to)]},
                  {"units", p.units},
                  {"chips", p.chips},
                  {"reason", p.reason}};
        payments.push_back(j);
        j["kind"] = "payment";
        j["visibility"] = "everyone";
        d.log.push_back(j.dump());
    }
    d.log.push_back(
        json{{"kind", "deal_end"}, {"net", net}, {"rake", rake}, {"visibility", "everyone"}}
            .dump());
    end_hand(d.hand_id, d.reveal, results, std::move(d.log),
             {{"kind", "deal_end"},
              {"hand", d.number},
              {"hand_id", d.hand_id},
              {"arrangements", arrangements},
              {"payments", payments},
              {"net", net},
              {"rake", rake}});
    deal_.reset();
}

void ChineseTable::forget_running() {
    deal_.reset();
}

} // namespace felt::server
