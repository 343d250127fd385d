#include "table.h"

#include "state.h"
#include "ws_session.h"

#include <sodium.h>

#include <numeric>

namespace felt::server {

using poker::Chips;
using protocol::json;

namespace {

const char* event_name(poker::EventType t) {
    using E = poker::EventType;
    switch (t) {
    case E::ante:
        return "ante";
    case E::blind:
        return "blind";
    case E::bring_in:
        return "bring_in";
    case E::deal_down:
        return "deal_down";
    case E::deal_up:
        return "deal_up";
    case E::deal_board:
        return "deal_board";
    case E::fold:
        return "fold";
    case E::check:
        return "check";
    case E::call:
        return "call";
    case E::bet:
        return "bet";
    case E::raise:
        return "raise";
    case E::all_in:
        return "all_in";
    case E::discard:
        return "discard";
    case E::receive:
        return "receive";
    case E::rollover:
        return "rollover";
    case E::reshuffle:
        return "reshuffle";
    case E::street:
        return "street";
    case E::uncalled:
        return "uncalled";
    case E::show:
        return "show";
    case E::rake:
        return "rake";
    case E::win:
        return "win";
    case E::hand_end:
        return "hand_end";
    }
    return "unknown";
}

std::optional<poker::ActionType> action_type(const std::string& s) {
    using A = poker::ActionType;
    static const std::pair<const char*, A> names[] = {
        {"fold", A::fold},       {"check", A::check},      {"call", A::call},
        {"bet", A::bet},         {"raise", A::raise},      {"bring_in", A::bring_in},
        {"discard", A::discard}, {"rollover", A::rollover}};
    for (auto& [n, a] : names)
        if (s == n) return a;
    return std::nullopt;
}

std::string hex(const unsigned char* p, std::size_t n) {
    std::string out(n * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), p, n);
    out.pop_back();
    return out;
}

// SHA-256 of the deck text, the reshuffle seed and the salt, joined by '|': the commitment a
// client checks against the reveal (docs/protocol.md).
std::string commitment(const std::string& deck, const std::string& seed, const std::string& salt) {
    const std::string text = deck + "|" + seed + "|" + salt;
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    return hex(h, sizeof h);
}

json event_json(const poker::Event& e, const felt::Ranking& r, bool show_cards) {
    json j = {{"kind", event_name(e.type)}};
    if (e.seat >= 0) j["seat"] = e.seat;
    if (e.amount) j["amount"] = e.amount;
    if (e.pot >= 0) j["pot"] = e.pot;
    if (e.count) {
        j["count"] = e.count;
        if (show_cards) j["cards"] = r.to_string(std::span(e.cards.data(), e.count));
    }
    return j;
}

bool visible_to(const poker::Event& e, int seat) {
    switch (e.visibility) {
    case poker::Visibility::everyone:
        return true;
    case poker::Visibility::owner:
        return seat >= 0 && seat == e.seat;
    case poker::Visibility::nobody:
        return false;
    }
    return false;
}

Chips number(const json& body, const char* key, Chips fallback) {
    auto it = body.find(key);
    return it != body.end() && it->is_number_integer() ? it->get<Chips>() : fallback;
}

} // namespace

json TableConfig::to_json() const {
    return {{"game", "poker"},
            {"variant", variant},
            {"structure", structure},
            {"ranking", ranking},
            {"wild", wild},
            {"seats", seats},
            {"stakes",
             {{"ante", stakes.ante},
              {"small_blind", stakes.small_blind},
              {"big_blind", stakes.big_blind},
              {"bring_in", stakes.bring_in},
              {"small_bet", stakes.small_bet},
              {"big_bet", stakes.big_bet}}},
            {"min_buy_in", min_buy_in},
            {"max_buy_in", max_buy_in},
            {"decision_ms", decision_ms},
            {"sit_out_after", sit_out_after},
            {"hand_delay_ms", hand_delay_ms}};
}

Outcome<std::pair<TableConfig, poker::HandConfig>> parse_table_config(const json& body) {
    auto bad = [](std::string m) {
        return Outcome<std::pair<TableConfig, poker::HandConfig>>{std::nullopt,
                                                                  {"bad_config", std::move(m)}};
    };
    TableConfig c;
    for (auto [key, field] :
         {std::pair{"variant", &c.variant}, std::pair{"structure", &c.structure},
          std::pair{"ranking", &c.ranking}, std::pair{"wild", &c.wild}}) {
        auto it = body.find(key);
        if (it == body.end()) continue;
        if (!it->is_string()) return bad(std::string("\"") + key + "\" must be a string");
        *field = it->get<std::string>();
    }
    if (auto it = body.find("seats"); it != body.end()) {
        if (!it->is_number_integer()) return bad("\"seats\" must be an integer");
        c.seats = it->get<int>();
    }
    auto named = poker::named_config(c.variant, c.structure, c.ranking, c.wild, c.seats);
    if (!named) return bad(named.error().message);
    poker::HandConfig h = std::move(named).value();
    const bool stud = h.variant->opener == poker::Opener::showing;
    poker::Stakes& s = c.stakes;
    s.ante = number(body, "ante", stud ? 1 : 0);
    s.small_blind = number(body, "small_blind", stud ? 0 : 1);
    s.big_blind = number(body, "big_blind", stud ? 0 : 2);
    s.bring_in = number(body, "bring_in", stud ? 2 : 0);
    s.small_bet = number(body, "small_bet", stud ? 4 : 2);
    s.big_bet = number(body, "big_bet", stud ? 8 : 4);
    for (Chips v : {s.ante, s.small_blind, s.big_blind, s.bring_in, s.small_bet, s.big_bet})
        if (v < 0 || v > 1'000'000'000) return bad("stakes must be 0 to 1,000,000,000");
    if (s.small_blind > s.big_blind) return bad("the small blind is above the big blind");
    if (s.small_bet <= 0 || s.big_bet < s.small_bet) return bad("bets must be 0 < small <= big");
    const Chips unit = stud || c.structure == "fixed-limit" ? s.big_bet : s.big_blind;
    c.min_buy_in = number(body, "min_buy_in", 40 * unit);
    c.max_buy_in = number(body, "max_buy_in", 200 * unit);
    if (c.min_buy_in <= 0 || c.max_buy_in < c.min_buy_in)
        return bad("buy-ins must be 0 < min_buy_in <= max_buy_in");
    c.decision_ms = static_cast<int>(number(body, "decision_ms", 30'000));
    c.hand_delay_ms = static_cast<int>(number(body, "hand_delay_ms", 1'000));
    c.sit_out_after = static_cast<int>(number(body, "sit_out_after", 3));
    if (c.sit_out_after < 1 || c.sit_out_after > 1000)
        return bad("sit_out_after must be 1 to 1,000");
    if (c.decision_ms < 100 || c.decision_ms > 3'600'000)
        return bad("decision_ms must be 100 to 3,600,000");
    if (c.hand_delay_ms < 0 || c.hand_delay_ms > 60'000)
        return bad("hand_delay_ms must be 0 to 60,000");
    h.stakes = s;
    return {std::pair{std::move(c), std::move(h)}, {}};
}

Table::Table(std::int64_t id, TableConfig config, poker::HandConfig base, SharedState& state,
             net::io_context& ioc)
    : id_(id), config_(std::move(config)), base_(std::move(base)), state_(state),
      strand_(net::make_strand(ioc)), clock_(strand_), next_hand_(strand_) {}

void Table::send(const std::shared_ptr<WsSession>& s, std::string text) {
    if (s) s->send(std::make_shared<const std::string>(std::move(text)));
}

void Table::refuse(const std::shared_ptr<WsSession>& s, const protocol::Request& r,
                   const std::string& code, const std::string& message) {
    send(s, protocol::error(r.id, {code, message}));
}

// A message that is the same for every player and spectator, serialised once.
void Table::broadcast(json m) {
    ++seq_;
    m["type"] = "table";
    m["table"] = id_;
    m["seq"] = seq_;
    auto text = std::make_shared<const std::string>(m.dump());
    for (auto it = watchers_.begin(); it != watchers_.end();) {
        if (auto s = it->second.lock()) {
            s->send(text);
            ++it;
        } else {
            it = watchers_.erase(it);
        }
    }
}

std::optional<int> Table::seat_of(std::int64_t account) const {
    for (int i = 0; i < base_.seats; ++i)
        if (seats_[static_cast<std::size_t>(i)] &&
            seats_[static_cast<std::size_t>(i)]->account == account)
            return i;
    return std::nullopt;
}

std::string Table::snapshot(int seat) const {
    json seats = json::array();
    for (int i = 0; i < base_.seats; ++i) {
        const auto& st = seats_[static_cast<std::size_t>(i)];
        if (!st) continue;
        json j = {{"seat", i},
                  {"name", st->name},
                  {"stack", st->stack},
                  {"sitting_out", st->sitting_out}};
        if (hand_) {
            const poker::SeatState& p = hand_->state.seats[static_cast<std::size_t>(i)];
            if (p.in_hand) {
                j["stack"] = p.stack;
                j["bet"] = p.bet;
                j["in_hand"] = p.total;
                j["folded"] = p.folded;
                std::vector<Card> shown;
                for (int c = 0; c < p.count; ++c)
                    if (i == seat || (p.up >> c & 1))
                        shown.push_back(p.cards[static_cast<std::size_t>(c)]);
                j["cards"] = base_.ranking->to_string(shown);
                j["card_count"] = p.count;
            }
        }
        seats.push_back(std::move(j));
    }
    json out = {{"type", "table"},
                {"table", id_},
                {"seq", seq_},
                {"kind", "snapshot"},
                {"config", config_.to_json()},
                {"seats", seats},
                {"your_seat", seat >= 0 ? json(seat) : json(nullptr)}};
    if (hand_) {
        out["hand"] = {{"number", hand_->number},
                       {"button", hand_->state.config->button},
                       {"board", base_.ranking->to_string(std::span(
                                     hand_->state.board.data(),
                                     static_cast<std::size_t>(hand_->state.board_count)))},
                       {"to_act", hand_->state.legal.seat}};
        if (seat >= 0 && hand_->state.legal.seat == seat) out["legal"] = legal_json();
    }
    return out.dump();
}

void Table::join(std::shared_ptr<WsSession> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        Chips buy_in = number(r.body, "buy_in", -1);
        if (self->stopping_) return self->refuse(s, r, "stopping", "the server is shutting down");
        if (self->seat_of(a.id))
            return self->refuse(s, r, "already_seated", "you already have a seat here");
        if (buy_in < self->config_.min_buy_in || buy_in > self->config_.max_buy_in)
            return self->refuse(s, r, "bad_amount",
                                "the buy-in is " + std::to_string(self->config_.min_buy_in) +
                                    " to " + std::to_string(self->config_.max_buy_in));
        int seat = -1;
        if (auto it = r.body.find("seat"); it != r.body.end()) {
            if (!it->is_number_integer() || it->get<int>() < 0 ||
                it->get<int>() >= self->base_.seats)
                return self->refuse(s, r, "bad_request", "no such seat");
            seat = it->get<int>();
            if (self->seats_[static_cast<std::size_t>(seat)])
                return self->refuse(s, r, "seat_taken", "that seat is taken");
        } else {
            for (int i = 0; i < self->base_.seats && seat < 0; ++i)
                if (!self->seats_[static_cast<std::size_t>(i)]) seat = i;
            if (seat < 0) return self->refuse(s, r, "table_full", "every seat is taken");
        }
        auto refused = self->state_.with_db(
            [&](Accounts& acc, db::Database& db) -> std::optional<Refusal> {
                db::Transaction t(db);
                if (auto no = acc.move_chips(a.id, -buy_in, "buy_in")) return no;
                db::Statement q(db, "INSERT INTO table_seats (table_id, seat, account_id, stack) "
                                    "VALUES (?, ?, ?, ?)");
                q.bind(1, self->id_).bind(2, seat).bind(3, a.id).bind(4, buy_in).run();
                t.commit();
                return std::nullopt;
            },
            true);
        if (refused) return self->refuse(s, r, refused->code, refused->message);
        self->seats_[static_cast<std::size_t>(seat)] = Seat{a.id, a.name, buy_in, s, false};
        ++self->taken_;
        self->state_.note_seat(a.id, self->id_, true);
        self->watchers_[s.get()] = s;
        spdlog::info("table {}: {} sits in seat {} with {}", self->id_, a.name, seat, buy_in);
        self->send(s,
                   protocol::reply(r, {{"table", self->id_}, {"seat", seat}, {"stack", buy_in}}));
        self->broadcast({{"kind", "seated"}, {"seat", seat}, {"name", a.name}, {"stack", buy_in}});
        self->send(s, self->snapshot(seat));
        self->maybe_start();
    });
}

void Table::spectate(std::shared_ptr<WsSession> s, Account, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, r] {
        self->watchers_[s.get()] = s;
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->send(s, self->snapshot(-1));
    });
}

void Table::leave(std::shared_ptr<WsSession> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) {
            self->watchers_.erase(s.get());
            return self->send(s, protocol::reply(r, {{"table", self->id_}}));
        }
        Seat& st = *self->seats_[static_cast<std::size_t>(*seat)];
        const bool in_hand =
            self->hand_ && self->hand_->state.seats[static_cast<std::size_t>(*seat)].live();
        if (in_hand) {
            st.leaving = true; // folds when asked, cashes out at the hand's end
            self->send(s, protocol::reply(r, {{"table", self->id_}, {"after_hand", true}}));
            if (self->hand_->state.legal.seat == *seat) self->act_for_leaving();
            return;
        }
        const Chips stack = st.stack;
        self->cash_out(*seat, "cash_out");
        self->send(s, protocol::reply(r, {{"table", self->id_}, {"cashed_out", stack}}));
        self->maybe_start();
    });
}

void Table::act(std::shared_ptr<WsSession> s, Account a, protocol::Request r) {
    net::post(strand_, [self = shared_from_this(), s, a, r] {
        auto seat = self->seat_of(a.id);
        if (!seat) return self->refuse(s, r, "not_seated", "you have no seat at this table");
        if (!self->hand_) return self->refuse(s, r, "no_hand", "no hand is being played");
        auto kind = r.body.find("action");
        if (kind == r.body.end() || !kind->is_string())
            return self->refuse(s, r, "bad_request", "\"act\" needs a string \"action\"");
        auto type = action_type(kind->get<std::string>());
        if (!type)
            return self->refuse(
                s, r, "bad_request",
                "no action \"" + kind->get<std::string>() +
                    "\" (fold, check, call, bet, raise, bring_in, discard, rollover)");
        poker::Action act;
        act.type = *type;
        act.seat = *seat;
        if (auto amount = r.body.find("amount"); amount != r.body.end()) {
            if (!amount->is_number_integer())
                return self->refuse(s, r, "bad_request", "\"amount\" must be an integer");
            act.amount = amount->get<Chips>();
        }
        if (auto cards = r.body.find("cards"); cards != r.body.end()) {
            if (!cards->is_string())
                return self->refuse(s, r, "bad_request", "\"cards\" must be a string");
            auto parsed = self->base_.ranking->parse_cards(cards->get<std::string>());
            if (!parsed) return self->refuse(s, r, "bad_card", parsed.error().message);
            act.cards = std::move(parsed).value();
        }
        std::vector<poker::Event> events;
        if (auto err = poker::apply_in_place(self->hand_->state, act, events))
            return self->refuse(s, r, error_code_name(err->code), err->message);
        self->send(s, protocol::reply(r, {{"table", self->id_}}));
        self->log_action(act, "player");
        self->after_events(events, 0);
    });
}

void Table::attach(std::shared_ptr<WsSession> s, Account a) {
    net::post(strand_, [self = shared_from_this(), s, a] {
        auto seat = self->seat_of(a.id);
        if (!seat) return;
        Seat& st = *self->seats_[static_cast<std::size_t>(*seat)];
        st.session = s;
        st.missed = 0;
        if (st.sitting_out) {
            st.sitting_out = false;
            self->broadcast({{"kind", "sitting_in"}, {"seat", *seat}});
            self->maybe_start();
        }
        self->watchers_[s.get()] = s;
        self->send(s, self->snapshot(*seat));
    });
}

void Table::disconnected(WsSession* s) {
    net::post(strand_, [self = shared_from_this(), s] { self->watchers_.erase(s); });
}

void Table::maybe_start() {
    if (hand_ || starting_ || stopping_) return;
    int ready = 0;
    for (const auto& st : seats_)
        if (st && st->stack > 0 && !st->leaving && !st->sitting_out) ++ready;
    if (ready < 2) return;
    starting_ = true;
    next_hand_.expires_after(std::chrono::milliseconds(config_.hand_delay_ms));
    next_hand_.async_wait([self = shared_from_this()](beast::error_code ec) {
        self->starting_ = false;
        if (!ec) self->start_hand();
    });
}

void Table::start_hand() {
    if (hand_ || stopping_) return;
    auto cfg = std::make_shared<poker::HandConfig>(base_);
    int ready = 0;
    for (int i = 0; i < base_.seats; ++i) {
        const auto& st = seats_[static_cast<std::size_t>(i)];
        const Chips stack = st && !st->leaving && !st->sitting_out ? st->stack : 0;
        cfg->stacks[static_cast<std::size_t>(i)] = stack;
        if (stack > 0) ++ready;
    }
    if (ready < 2) return;
    // The button moves to the next seat with chips.
    int b = button_;
    do b = (b + 1) % base_.seats;
    while (cfg->stacks[static_cast<std::size_t>(b)] == 0);
    cfg->button = b;
    // A cryptographically secure shuffle, committed to before the deal.
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
    for (std::size_t i = cfg->deck.size(); i > 1; --i)
        std::swap(cfg->deck[i - 1], cfg->deck[randombytes_uniform(static_cast<std::uint32_t>(i))]);
    randombytes_buf(&cfg->reshuffle_seed, sizeof cfg->reshuffle_seed);
    unsigned char salt[16];
    randombytes_buf(salt, sizeof salt);
    Running run;
    run.deck = base_.ranking->to_string(cfg->deck);
    run.seed = std::to_string(cfg->reshuffle_seed);
    run.salt = hex(salt, sizeof salt);
    run.number = ++hands_;
    run.start = cfg->stacks;
    const std::string commit = commitment(run.deck, run.seed, run.salt);
    auto started = poker::start_hand(cfg);
    if (!started) {
        spdlog::error("table {}: hand cannot start: {}", id_, started.error().message);
        return;
    }
    run.hand_id = state_.with_db(
        [&](Accounts&, db::Database& db) {
            db::Statement q(db, "INSERT INTO hands (table_id, number, config, commitment, status) "
                                "VALUES (?, ?, ?, ?, 'running')");
            // The table's configuration, plus what this hand needs to be read or replayed alone.
            json config = config_.to_json();
            config["button"] = b;
            json stacks = json::array(), names = json::array();
            for (int i = 0; i < base_.seats; ++i) {
                stacks.push_back(run.start[static_cast<std::size_t>(i)]);
                const auto& st = seats_[static_cast<std::size_t>(i)];
                names.push_back(st && run.start[static_cast<std::size_t>(i)] > 0 ? json(st->name)
                                                                                 : json(nullptr));
            }
            config["stacks"] = stacks;
            config["names"] = names;
            q.bind(1, id_).bind(2, run.number).bind(3, config.dump()).bind(4, commit);
            q.run();
            return db.last_insert_rowid();
        },
        true);
    button_ = b;
    run.state = std::move(started.value().state);
    hand_ = std::move(run);
    json stacks = json::array();
    for (int i = 0; i < base_.seats; ++i)
        stacks.push_back(hand_->start[static_cast<std::size_t>(i)]);
    broadcast({{"kind", "hand_start"},
               {"hand", hand_->number},
               {"hand_id", hand_->hand_id},
               {"button", b},
               {"stacks", stacks},
               {"commitment", commit}});
    after_events(started.value().events, 0);
}

void Table::after_events(const std::vector<poker::Event>& events, std::size_t from) {
    const felt::Ranking& r = *base_.ranking;
    for (std::size_t i = from; i < events.size(); ++i) {
        const poker::Event& e = events[i];
        json full = event_json(e, r, true);
        full["visibility"] = e.visibility == poker::Visibility::everyone ? "everyone"
                             : e.visibility == poker::Visibility::owner  ? "owner"
                                                                         : "nobody";
        hand_->log.push_back(full.dump());
    }
    const std::span<const poker::Event> batch(events.data() + from, events.size() - from);
    if (hand_->state.phase == poker::Phase::done) {
        publish(batch, nullptr);
        return finish_hand();
    }
    const poker::Legal& l = hand_->state.legal;
    const auto& st = seats_[static_cast<std::size_t>(l.seat)];
    if (st && st->leaving) { // a leaving player folds (or checks, or stands pat) at once
        publish(batch, nullptr);
        return act_for_leaving();
    }
    publish(batch, &l);
    start_clock();
}

// One message per recipient for everything an action caused: its events and whose turn is next.
// Recipients who see nothing of their own share one serialised copy.
void Table::publish(std::span<const poker::Event> batch, const poker::Legal* turn) {
    const felt::Ranking& r = *base_.ranking;
    ++seq_;
    auto make = [&](int seat) {
        json events = json::array();
        for (const poker::Event& e : batch) events.push_back(event_json(e, r, visible_to(e, seat)));
        json m = {{"type", "table"},
                  {"table", id_},
                  {"seq", seq_},
                  {"kind", "update"},
                  {"events", events}};
        if (turn) {
            m["turn"] = {{"seat", turn->seat}, {"deadline_ms", config_.decision_ms}};
            if (seat == turn->seat) m["turn"]["legal"] = legal_json();
        }
        return m.dump();
    };
    auto own_view = [&](int seat) {
        if (seat < 0) return false;
        if (turn && turn->seat == seat) return true;
        for (const poker::Event& e : batch)
            if (e.visibility == poker::Visibility::owner && e.seat == seat && e.count > 0)
                return true;
        return false;
    };
    std::shared_ptr<const std::string> shared;
    for (auto it = watchers_.begin(); it != watchers_.end();) {
        auto s = it->second.lock();
        if (!s) {
            it = watchers_.erase(it);
            continue;
        }
        const int seat = seat_of_session(s);
        if (own_view(seat)) {
            send(s, make(seat));
        } else {
            if (!shared) shared = std::make_shared<const std::string>(make(-1));
            s->send(shared);
        }
        ++it;
    }
}

int Table::seat_of_session(const std::shared_ptr<WsSession>& s) const {
    for (int i = 0; i < base_.seats; ++i)
        if (seats_[static_cast<std::size_t>(i)] &&
            seats_[static_cast<std::size_t>(i)]->session.lock() == s)
            return i;
    return -1;
}

void Table::act_for_leaving() {
    const poker::Legal& l = hand_->state.legal;
    poker::Action a;
    a.seat = l.seat;
    a.type = l.check ? poker::ActionType::check : poker::ActionType::fold;
    if (l.phase == poker::Phase::drawing) a.type = poker::ActionType::discard;
    apply(a);
}

json Table::legal_json() const {
    const poker::Legal& l = hand_->state.legal;
    return {{"fold", l.fold},
            {"check", l.check},
            {"call", l.call},
            {"bet", l.bet},
            {"raise", l.raise},
            {"bring_in", l.bring_in},
            {"call_amount", l.call_amount},
            {"min_to", l.min_to},
            {"max_to", l.max_to},
            {"bring_in_amount", l.bring_in_amount},
            {"phase", l.phase == poker::Phase::drawing    ? "drawing"
                      : l.phase == poker::Phase::rollover ? "rollover"
                                                          : "betting"},
            {"min_discard", l.min_discard},
            {"max_discard", l.max_discard},
            {"rollover", l.rollover}};
}

// The clock for the decision just published.
void Table::start_clock() {
    const int decision = ++decision_;
    clock_.expires_after(std::chrono::milliseconds(config_.decision_ms));
    clock_.async_wait(
        [self = shared_from_this(), hand = hand_->number, decision](beast::error_code ec) {
            if (!ec) self->on_clock(hand, decision);
        });
}

// Time is up: check if possible, else fold; stand pat in a draw; turn up the first cards.
void Table::on_clock(int hand, int decision) {
    if (!hand_ || hand_->number != hand || decision != decision_) return;
    const poker::Legal& l = hand_->state.legal;
    const poker::SeatState& p = hand_->state.seats[static_cast<std::size_t>(l.seat)];
    poker::Action a;
    a.seat = l.seat;
    if (l.phase == poker::Phase::drawing) {
        a.type = poker::ActionType::discard;
        for (int i = 0; i < l.min_discard; ++i)
            a.cards.push_back(p.cards[static_cast<std::size_t>(i)]);
    } else if (l.phase == poker::Phase::rollover) {
        a.type = poker::ActionType::rollover;
        for (int i = 0, n = 0; i < p.count && n < l.rollover; ++i)
            if (!(p.up >> i & 1)) {
                a.cards.push_back(p.cards[static_cast<std::size_t>(i)]);
                ++n;
            }
    } else if (l.bring_in) {
        a.type = poker::ActionType::bring_in;
    } else {
        a.type = l.check ? poker::ActionType::check : poker::ActionType::fold;
    }
    spdlog::info("table {}: seat {} timed out", id_, l.seat);
    // A disconnected player who keeps missing hands is sat out until they come back.
    if (auto& st = seats_[static_cast<std::size_t>(l.seat)];
        st && st->session.expired() && st->missed_hand != hand) {
        st->missed_hand = hand;
        if (++st->missed >= config_.sit_out_after && !st->sitting_out) {
            st->sitting_out = true;
            spdlog::info("table {}: {} sits out after {} missed hands", id_, st->name, st->missed);
            broadcast({{"kind", "sitting_out"}, {"seat", l.seat}});
        }
    }
    apply(a);
}

void Table::apply(const poker::Action& a) {
    std::vector<poker::Event> events;
    if (auto err = poker::apply_in_place(hand_->state, a, events)) {
        spdlog::error("table {}: the server's own action was refused: {}", id_, err->message);
        return;
    }
    log_action(a, "server");
    after_events(events, 0);
}

// An accepted action in the hand's record, for the history: who, what, and by whose hand (the
// player's, or the server's for a clock or a leaving player). A discard's cards are its owner's.
void Table::log_action(const poker::Action& a, const char* by) {
    static const char* names[] = {"fold",  "check",    "call",    "bet",
                                  "raise", "bring_in", "discard", "rollover"};
    json j = {{"kind", "action"},
              {"seat", a.seat},
              {"action", names[static_cast<int>(a.type)]},
              {"by", by},
              {"visibility", a.type == poker::ActionType::discard ? "owner" : "everyone"}};
    if (a.amount) j["amount"] = a.amount;
    if (!a.cards.empty()) j["cards"] = base_.ranking->to_string(a.cards);
    hand_->log.push_back(j.dump());
}

void Table::finish_hand() {
    clock_.cancel();
    Running& h = *hand_;
    // Seats dealt in end with the engine's stacks; the others keep theirs.
    std::array<Chips, poker::kMaxSeats> end{};
    Chips before = 0, after = h.state.raked;
    for (int i = 0; i < base_.seats; ++i) {
        const auto idx = static_cast<std::size_t>(i);
        const bool dealt = h.state.seats[idx].in_hand;
        end[idx] = dealt ? h.state.seats[idx].stack : seats_[idx] ? seats_[idx]->stack : 0;
        if (dealt) {
            before += h.start[idx];
            after += end[idx];
        }
    }
    assert(before == after && "chips are conserved through a hand");
    (void)before;
    state_.with_db(
        [&](Accounts&, db::Database& db) {
            db::Transaction t(db);
            db::Statement hand(db, "UPDATE hands SET status = 'finished', deck = ?, seed = ?, "
                                   "salt = ?, ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                                   "WHERE id = ?");
            hand.bind(1, h.deck).bind(2, h.seed).bind(3, h.salt).bind(4, h.hand_id).run();
            for (int i = 0; i < base_.seats; ++i) {
                const auto idx = static_cast<std::size_t>(i);
                if (!seats_[idx] || !h.state.seats[idx].in_hand) continue;
                db::Statement seat(db, "INSERT INTO hand_seats (hand_id, seat, account_id, "
                                       "stack_start, stack_end) VALUES (?, ?, ?, ?, ?)");
                seat.bind(1, h.hand_id).bind(2, i).bind(3, seats_[idx]->account);
                seat.bind(4, h.start[idx]).bind(5, end[idx]).run();
                db::Statement stack(db, "UPDATE table_seats SET stack = ? WHERE table_id = ? AND "
                                        "seat = ?");
                stack.bind(1, end[idx]).bind(2, id_).bind(3, i).run();
            }
            for (std::size_t i = 0; i < h.log.size(); ++i) {
                db::Statement ev(db,
                                 "INSERT INTO hand_events (hand_id, seq, body) VALUES (?, ?, ?)");
                ev.bind(1, h.hand_id).bind(2, static_cast<std::int64_t>(i)).bind(3, h.log[i]).run();
            }
            t.commit();
        },
        true);
    ++state_.metrics().hands_played;
    json stacks = json::array(), net = json::array();
    for (int i = 0; i < base_.seats; ++i) {
        const auto idx = static_cast<std::size_t>(i);
        if (seats_[idx]) seats_[idx]->stack = end[idx];
        stacks.push_back(end[idx]);
        net.push_back(h.state.seats[idx].in_hand ? end[idx] - h.start[idx] : 0);
    }
    broadcast({{"kind", "hand_end"},
               {"hand", h.number},
               {"hand_id", h.hand_id},
               {"stacks", stacks},
               {"net", net},
               {"deck", h.deck},
               {"seed", h.seed},
               {"salt", h.salt}});
    hand_.reset();
    for (int i = 0; i < base_.seats; ++i) {
        const auto& st = seats_[static_cast<std::size_t>(i)];
        if (st && (st->leaving || st->stack == 0 || stopping_)) cash_out(i, "cash_out");
    }
    maybe_start();
}

void Table::cash_out(int seat, const char* reason) {
    Seat st = *seats_[static_cast<std::size_t>(seat)];
    state_.with_db(
        [&](Accounts& acc, db::Database& db) {
            db::Transaction t(db);
            db::Statement del(db, "DELETE FROM table_seats WHERE table_id = ? AND seat = ?");
            del.bind(1, id_).bind(2, seat).run();
            if (st.stack > 0) acc.move_chips(st.account, st.stack, reason);
            t.commit();
        },
        true);
    seats_[static_cast<std::size_t>(seat)].reset();
    --taken_;
    state_.note_seat(st.account, id_, false);
    spdlog::info("table {}: {} leaves seat {} with {} ({})", id_, st.name, seat, st.stack, reason);
    broadcast({{"kind", "left"}, {"seat", seat}, {"name", st.name}, {"stack", st.stack}});
}

void Table::stop() {
    net::post(strand_, [self = shared_from_this()] {
        self->stopping_ = true;
        self->next_hand_.cancel();
        if (self->hand_) return; // cashed out when it ends
        for (int i = 0; i < self->base_.seats; ++i)
            if (self->seats_[static_cast<std::size_t>(i)]) self->cash_out(i, "shutdown");
    });
}

void Table::void_and_close() {
    net::post(strand_, [self = shared_from_this()] {
        self->stopping_ = true;
        self->clock_.cancel();
        if (self->hand_) {
            // Stacks here and in table_seats are still those from before the hand: it never
            // happened.
            const std::int64_t id = self->hand_->hand_id;
            self->state_.with_db(
                [&](Accounts&, db::Database& db) {
                    db::Statement q(db, "UPDATE hands SET status = 'void', ended_at = "
                                        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?");
                    q.bind(1, id).run();
                },
                true);
            spdlog::info("table {}: hand {} void at shutdown", self->id_, self->hand_->number);
            self->hand_.reset();
        }
        for (int i = 0; i < self->base_.seats; ++i)
            if (self->seats_[static_cast<std::size_t>(i)]) self->cash_out(i, "shutdown");
    });
}

} // namespace felt::server
