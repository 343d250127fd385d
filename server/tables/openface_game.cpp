#include "tables/openface_game.h"

#include "openface/fantasyland.h"
#include "openface_bot.h"
#include "protocol/openface_messages.h"

#include <algorithm>
#include <cassert>

namespace felt::server {

namespace {

using protocol::openface_cards;
using protocol::OpenFaceConfig;

constexpr std::array<openface::Row, 3> kRows = {openface::Row::front, openface::Row::middle,
                                                openface::Row::back};

Outcome<Step> refused(std::string code, std::string message) {
    return {std::nullopt, {std::move(code), std::move(message)}};
}

class OpenFaceGame final : public Game {
  public:
    explicit OpenFaceGame(OpenFaceConfig config) : config_(std::move(config)) {}

    json config() const override { return config_.to_json(); }
    std::string describe() const override {
        return "open-face " + std::string(openface::variant_name(config_.options.variant));
    }
    Limits limits() const override {
        return {config_.seats, config_.min_buy_in, config_.max_buy_in, config_.sit_out_after,
                config_.hand_delay_ms};
    }
    Chips stake_needed() const override { return config_.stake_needed(); }
    std::vector<Card> deck(const Deal&) const override { return protocol::openface_pack().cards(); }
    Outcome<Started> start(const Deal& d, std::vector<Card> deck,
                           std::uint64_t seed) const override;
    Outcome<json> hint(const Hand* hand, Seat seat, const protocol::Request& r) const override;
    Outcome<json> preview(const Hand* hand, Seat seat, const protocol::Request& r) const override;

    const OpenFaceConfig& settings() const { return config_; }

  private:
    OpenFaceConfig config_;
};

class OpenFaceHand final : public Hand {
  public:
    OpenFaceHand(const OpenFaceGame& game, const Deal& d, std::vector<Seat> order,
                 openface::Hand engine, std::vector<Card> deck, std::uint64_t seed)
        : game_(game), deal_(d), order_(std::move(order)), engine_(std::move(engine)),
          deck_(std::move(deck)), seed_(seed) {}

    Step deal(std::int64_t hand_id, const std::string& commitment) override;
    bool in(Seat seat) const override { return player_of(seat) >= 0; }
    Outcome<Step> act(Seat seat, const json& body) override;
    Step time_out() override;
    Step leave(Seat seat) override;
    Clock clock() const override;
    void seat_view(Seat seat, std::optional<Seat> viewer, json& j) const override;
    void view(std::optional<Seat> viewer, int deadline_ms, json& out) const override;

    // The engine's player of a table seat (turn order from the dealer's left), or -1.
    int player_of(Seat seat) const {
        const auto it = std::find(order_.begin(), order_.end(), seat);
        return it == order_.end() ? -1 : static_cast<int>(it - order_.begin());
    }
    Seat seat_of(int player) const { return order_[static_cast<std::size_t>(player)]; }
    const openface::Hand& engine() const { return engine_; }
    // What the player knows, as the bot reads it.
    bots::OpenFaceView bot_view(int player) const;

  private:
    // Applies a checked placement and tells everyone; then the next turn, or the end.
    void placed(int player, const openface::Placement& p, bool by_server, Step& step);
    // The bot's placement for a player who timed out or left.
    void place_for(int player, Step& step);
    // Tells the next turn (and plays it for a player who left), or ends the hand.
    void next(Step& step);
    End settle();
    // Whether the player's rows are face down to `viewer`: a Fantasyland hand until the end.
    bool hidden(int player, std::optional<Seat> viewer) const {
        return engine_.fantasyland(player) > 0 && !engine_.finished() &&
               !(viewer && player_of(*viewer) == player);
    }

    const OpenFaceGame& game_;
    const Deal deal_;
    const std::vector<Seat> order_;
    openface::Hand engine_;
    const std::vector<Card> deck_; // as shuffled
    std::uint64_t seed_;
    std::int64_t hand_id_ = 0;
    std::string commitment_;
    long decisions_ = 0;
    std::array<bool, kMaxTableSeats> leaving_{};
    std::array<int, kMaxTableSeats> by_server_{}; // placements the server made, by seat
    std::vector<std::string> log_;
};

Outcome<Started> OpenFaceGame::start(const Deal& d, std::vector<Card> deck,
                                     std::uint64_t seed) const {
    // Turn order: from the dealer's left.
    std::vector<Seat> order;
    const auto dealer = std::find(d.seats.begin(), d.seats.end(), d.dealer) - d.seats.begin();
    for (std::size_t k = 1; k <= d.seats.size(); ++k)
        order.push_back(d.seats[(static_cast<std::size_t>(dealer) + k) % d.seats.size()]);
    // Fantasyland, as the last hand left it: a seat whose player is still the one who earned it.
    const int n = static_cast<int>(order.size());
    std::vector<int> fantasy(order.size());
    json fl = json::array();
    if (d.carry.is_object() && d.carry.contains("fantasyland"))
        for (const json& e : d.carry["fantasyland"])
            for (std::size_t k = 0; k < order.size(); ++k)
                if (e.value("seat", -1) == order[k].index() &&
                    e.value("name", "") == d.names[order[k].at()]) {
                    const int cards = e.value("cards", 0);
                    fantasy[k] = n == 4 ? 13 : cards == 13 ? 14 : cards;
                    fl.push_back({{"seat", order[k].index()}, {"cards", fantasy[k]}});
                }
    auto engine = openface::Hand::start(config_.options, fantasy, deck);
    if (!engine) return {std::nullopt, protocol::refusal(engine.error())};
    std::string text = openface_cards(deck);
    return {
        Started{std::make_unique<OpenFaceHand>(*this, d, std::move(order),
                                               std::move(engine).value(), std::move(deck), seed),
                std::move(text), "", json{{"dealer", d.dealer}, {"fantasyland", fl}}},
        {}};
}

bots::OpenFaceView OpenFaceHand::bot_view(int player) const {
    bots::OpenFaceView v;
    v.variant = engine_.options().variant;
    v.stay = engine_.options().stay;
    v.board = engine_.board(player);
    v.pending.assign(engine_.pending(player).begin(), engine_.pending(player).end());
    v.discards = engine_.discards_due(player);
    v.fantasyland = engine_.fantasyland(player) > 0;
    v.streets_left = v.fantasyland ? 0 : std::max(0, engine_.streets() - 1 - engine_.street());
    v.opponents = engine_.players() - 1;
    v.seen.assign(engine_.discards(player).begin(), engine_.discards(player).end());
    for (int p = 0; p < engine_.players(); ++p) {
        if (p == player || hidden(p, seat_of(player))) continue;
        for (openface::Row r : kRows) {
            const auto& row = engine_.board(p).row(r);
            v.seen.insert(v.seen.end(), row.begin(), row.end());
        }
        if (v.fantasyland && engine_.board(p).full()) v.against.push_back(engine_.board(p).split());
    }
    return v;
}

Step OpenFaceHand::deal(std::int64_t hand_id, const std::string& commitment) {
    hand_id_ = hand_id;
    commitment_ = commitment;
    const OpenFaceConfig& config = game_.settings();
    std::vector<Chips> stacks;
    for (Seat s : seats_of(config.seats)) stacks.push_back(in(s) ? deal_.stacks[s.at()] : 0);
    json fl = json::array();
    for (int p = 0; p < engine_.players(); ++p)
        if (engine_.fantasyland(p))
            fl.push_back({{"seat", seat_of(p).index()}, {"cards", engine_.fantasyland(p)}});
    json m = {{"kind", "open_face_deal"},
              {"hand", deal_.number},
              {"hand_id", hand_id},
              {"variant", openface::variant_name(config.options.variant)},
              {"dealer", deal_.dealer.index()},
              {"seats", indices(order_)},
              {"stacks", stacks},
              {"fantasyland", fl},
              {"commitment", commitment}};
    auto t = std::make_unique<protocol::JsonTold>(m);
    // A Fantasyland hand is its player's from the deal; the others' cards come with their turns.
    for (int p = 0; p < engine_.players(); ++p)
        if (engine_.fantasyland(p))
            t->with_own(seat_of(p).index(), {{"cards", openface_cards(engine_.pending(p))}});
    Step step;
    step.told.push_back(std::move(t));
    m.erase("hand");
    m.erase("hand_id");
    m.erase("commitment");
    m["kind"] = "deal";
    log_.push_back(protocol::record(m, "everyone"));
    next(step);
    return step;
}

void OpenFaceHand::next(Step& step) {
    while (!engine_.finished()) {
        const int p = engine_.to_act();
        const Seat seat = seat_of(p);
        ++decisions_;
        log_.push_back(protocol::record({{"kind", "cards"},
                                         {"seat", seat.index()},
                                         {"street", engine_.street()},
                                         {"cards", openface_cards(engine_.pending(p))}},
                                        "owner"));
        if (leaving_[seat.at()]) { // gone: the bot places, and the turn passes at once
            place_for(p, step);
            return;
        }
        json turn = {{"kind", "open_face_turn"},
                     {"hand", deal_.number},
                     {"seat", seat.index()},
                     {"street", engine_.street()},
                     {"fantasyland", engine_.fantasyland(p) > 0}};
        auto t = std::make_unique<protocol::JsonTold>(turn, json::json_pointer(""));
        t->with_own(seat.index(), {{"cards", openface_cards(engine_.pending(p))},
                                   {"discards_due", engine_.discards_due(p)}});
        step.told.push_back(std::move(t));
        return;
    }
    step.end = settle();
}

void OpenFaceHand::placed(int player, const openface::Placement& p, bool by_server, Step& step) {
    const Seat seat = seat_of(player);
    const bool face_down = engine_.fantasyland(player) > 0;
    const int street = engine_.street();
    if (auto e = engine_.place(player, p)) { // checked before: a bug, and the hand goes on
        assert(false && "a placement checked before is refused");
        (void)e;
        return;
    }
    if (by_server) ++by_server_[seat.at()];
    json m = {{"kind", "open_face_placed"},
              {"hand", deal_.number},
              {"seat", seat.index()},
              {"street", street},
              {"by", by_server ? "server" : "player"}};
    json rows = protocol::openface_placement_json(p);
    rows.erase("discard");
    json own = {{"discard", openface_cards(p.discard)}};
    if (face_down) { // a Fantasyland hand: its owner alone sees the rows until the end
        m["face_down"] = true;
        own.update(rows);
    } else {
        m.update(rows);
    }
    auto t = std::make_unique<protocol::JsonTold>(m);
    t->with_own(seat.index(), own);
    step.told.push_back(std::move(t));
    json line = m;
    line.erase("hand");
    if (face_down) // the history keeps an event's "cards" to those who saw them
        line["cards"] = openface_cards(engine_.board(player).split().front) + " " +
                        openface_cards(engine_.board(player).split().middle) + " " +
                        openface_cards(engine_.board(player).split().back);
    else
        line.update(rows);
    log_.push_back(protocol::record(std::move(line), face_down ? "owner" : "everyone"));
    log_.push_back(protocol::record(
        {{"kind", "discarded"}, {"seat", seat.index()}, {"cards", openface_cards(p.discard)}},
        "owner"));
    next(step);
}

void OpenFaceHand::place_for(int player, Step& step) {
    const auto p = bots::place_openface(bot_view(player), bots::OpenFacePolicy::rollouts,
                                        seed_ + static_cast<std::uint64_t>(decisions_));
    placed(player, p, true, step);
}

Outcome<Step> OpenFaceHand::act(Seat seat, const json& body) {
    const int player = player_of(seat);
    if (player < 0) return refused("not_in_hand", "you were not dealt into this hand");
    if (engine_.finished()) return refused("hand_over", "the hand is over");
    const int to_act = engine_.to_act();
    if (player != to_act)
        return refused("not_your_turn", "it is " + deal_.names[seat_of(to_act).at()] + " (seat " +
                                            std::to_string(seat_of(to_act).index() + 1) +
                                            ")'s turn");
    auto parsed = protocol::parse_openface_placement(body);
    if (!parsed.ok()) return {std::nullopt, parsed.refusal};
    if (auto e = engine_.check(player, *parsed.value)) return {std::nullopt, protocol::refusal(*e)};
    Step step;
    placed(player, *parsed.value, false, step);
    return {std::move(step), {}};
}

Step OpenFaceHand::time_out() {
    Step step;
    if (engine_.finished()) return step;
    const int p = engine_.to_act();
    step.missed.push_back(seat_of(p));
    place_for(p, step);
    return step;
}

Step OpenFaceHand::leave(Seat seat) {
    Step step;
    if (!in(seat)) return step;
    leaving_[seat.at()] = true;
    if (!engine_.finished() && engine_.to_act() == player_of(seat))
        place_for(player_of(seat), step);
    return step;
}

Clock OpenFaceHand::clock() const {
    if (engine_.finished()) return {};
    const int p = engine_.to_act();
    const int ms = game_.settings().decision_ms * (engine_.fantasyland(p) ? 3 : 1);
    return {decisions_, ms, seat_of(p)};
}

End OpenFaceHand::settle() {
    const int n = engine_.players();
    const OpenFaceConfig& config = game_.settings();
    std::vector<openface::Player> players;
    for (int p = 0; p < n; ++p) {
        openface::Player pl;
        pl.name = std::to_string(seat_of(p).index());
        pl.stack = deal_.stacks[seat_of(p).at()];
        pl.split = engine_.board(p).split();
        pl.fantasyland = engine_.fantasyland(p);
        players.push_back(std::move(pl));
    }
    // The dealer acts last: the pairs start from them.
    auto settled = openface::settle(config.options, players, n - 1);
    if (!settled) return End::voided("unsettled");
    const openface::Settlement& st = *settled;
    End end;
    const auto seats = static_cast<std::size_t>(config.seats);
    std::vector<Chips> net(seats), rake(seats);
    std::vector<int> points(seats);
    json rows = json::array(), next = json::array();
    Chips before{}, after{};
    for (int p = 0; p < n; ++p) {
        const auto k = static_cast<std::size_t>(p);
        const Seat seat = seat_of(p);
        const openface::Board& b = engine_.board(p);
        json r = protocol::openface_board_json(b);
        r["seat"] = seat.index();
        r["words"] = {{"front", protocol::openface_row_words(b.front)},
                      {"middle", protocol::openface_row_words(b.middle)},
                      {"back", protocol::openface_row_words(b.back)}};
        r["fouled"] = static_cast<bool>(st.fouled[k]);
        r["royalties"] = {{"front", st.royalties[k][0]},
                          {"middle", st.royalties[k][1]},
                          {"back", st.royalties[k][2]}};
        r["fantasyland"] = engine_.fantasyland(p);
        r["by_server"] = by_server_[seat.at()];
        rows.push_back(r);
        if (st.fantasyland[k] > 0) {
            next.push_back({{"seat", seat.index()}, {"cards", st.fantasyland[k]}});
            end.carry["fantasyland"].push_back({{"seat", seat.index()},
                                                {"name", deal_.names[seat.at()]},
                                                {"cards", st.fantasyland[k]}});
        }
        net[seat.at()] = st.net[k];
        rake[seat.at()] = st.rake[k];
        points[seat.at()] = st.points[k];
        end.results.push_back({seat, deal_.stacks[seat.at()], *st.final_stacks[k]});
        before += deal_.stacks[seat.at()];
        after += *st.final_stacks[k] + st.rake[k];
    }
    assert(before == after && "chips are conserved through a hand");
    (void)before;
    (void)after;
    end.hold_button = !next.empty();
    json payments = json::array(), paid = json::array();
    for (const auto& pay : st.payments)
        payments.push_back({{"from", seat_of(pay.from).index()},
                            {"to", seat_of(pay.to).index()},
                            {"units", pay.units},
                            {"chips", pay.chips},
                            {"reason", pay.reason}});
    for (const auto& pair : st.pairs)
        paid.push_back({{"from", seat_of(pair.from).index()},
                        {"to", seat_of(pair.to).index()},
                        {"units", pair.units},
                        {"chips", pair.chips}});
    end.message = {{"kind", "open_face_end"},
                   {"hand", deal_.number},
                   {"hand_id", hand_id_},
                   {"rows", rows},
                   {"payments", payments},
                   {"settled", paid},
                   {"points", points},
                   {"net", net},
                   {"rake", rake},
                   {"fantasyland", next}};
    json line = end.message;
    line.erase("hand");
    line.erase("hand_id");
    log_.push_back(protocol::record(std::move(line), "everyone"));
    end.log = std::move(log_);
    // Rows are everyone's at the end; a discard stays its owner's; the rest never left the pack.
    end.seen.resize(static_cast<std::size_t>(engine_.used()));
    for (int p = 0; p < n; ++p) {
        const auto discards = engine_.discards(p);
        for (int pos : engine_.positions(p)) {
            auto& sight = end.seen[static_cast<std::size_t>(pos)];
            if (std::find(discards.begin(), discards.end(), deck_[static_cast<std::size_t>(pos)]) !=
                discards.end())
                sight.show(seat_of(p).index());
            else
                sight.everyone = true;
        }
    }
    return end;
}

void OpenFaceHand::seat_view(Seat seat, std::optional<Seat> viewer, json& j) const {
    const int p = player_of(seat);
    if (p < 0) return;
    j["in_hand"] = true;
    j["fantasyland"] = engine_.fantasyland(p);
    if (hidden(p, viewer)) {
        j["rows"] = {{"front", ""}, {"middle", ""}, {"back", ""}};
        j["face_down"] = true;
    } else {
        j["rows"] = protocol::openface_board_json(engine_.board(p));
    }
}

void OpenFaceHand::view(std::optional<Seat> viewer, int deadline_ms, json& out) const {
    const int to_act = engine_.finished() ? -1 : engine_.to_act();
    json d = {{"hand", deal_.number},
              {"hand_id", hand_id_},
              {"variant", openface::variant_name(game_.settings().options.variant)},
              {"dealer", deal_.dealer.index()},
              {"seats", indices(order_)},
              {"street", engine_.street()},
              {"to_act", to_act < 0 ? json(nullptr) : json(seat_of(to_act).index())},
              {"deadline_ms", deadline_ms},
              {"commitment", commitment_}};
    if (const int p = viewer ? player_of(*viewer) : -1; p >= 0) {
        // A player's own cards: a Fantasyland hand from the deal, a street's on their turn.
        if (engine_.fantasyland(p) || p == to_act) {
            d["cards"] = openface_cards(engine_.pending(p));
            d["discards_due"] = engine_.discards_due(p);
        }
        d["discards"] = openface_cards(engine_.discards(p));
    }
    out["open_face"] = std::move(d);
}

Outcome<json> OpenFaceGame::hint(const Hand* hand, Seat seat, const protocol::Request&) const {
    auto refuse = [](std::string code, std::string message) {
        return Outcome<json>{std::nullopt, {std::move(code), std::move(message)}};
    };
    if (!config_.hints) return refuse("no_hints", "this table gives no hints");
    const auto* h = static_cast<const OpenFaceHand*>(hand);
    const int p = h ? h->player_of(seat) : -1;
    if (p < 0) return refuse("not_in_hand", "you hold no cards in a running hand");
    if (h->engine().pending(p).empty())
        return refuse("not_your_turn", "you have no cards to place now");
    const bots::OpenFaceView v = h->bot_view(p);
    const auto placement = bots::place_openface(v, bots::OpenFacePolicy::rollouts, 1);
    json out = {{"placement", protocol::openface_placement_json(placement)},
                {"fantasyland", v.fantasyland}};
    if (v.fantasyland) {
        openface::Board b = v.board;
        b.front = placement.front;
        b.middle = placement.middle;
        b.back = placement.back;
        const auto r = openface::royalties(b.split());
        out["royalties"] = r[0] + r[1] + r[2];
        out["stays"] = openface::stays(config_.options.stay, b.split());
    }
    return {std::move(out), {}};
}

Outcome<json> OpenFaceGame::preview(const Hand* hand, Seat seat, const protocol::Request& r) const {
    auto refuse = [](std::string code, std::string message) {
        return Outcome<json>{std::nullopt, {std::move(code), std::move(message)}};
    };
    const auto* h = static_cast<const OpenFaceHand*>(hand);
    const int p = h ? h->player_of(seat) : -1;
    if (p < 0) return refuse("not_in_hand", "you hold no cards in a running hand");
    auto rows = protocol::parse_openface_board(r.body);
    if (!rows.ok()) return {std::nullopt, rows.refusal};
    // Every card the seat's own, none twice, and each placed card still in its row.
    const openface::Hand& e = h->engine();
    const openface::Board& placed = e.board(p);
    std::vector<Card> used;
    for (openface::Row row : kRows) {
        for (Card c : placed.row(row))
            if (std::find(rows.value->row(row).begin(), rows.value->row(row).end(), c) ==
                rows.value->row(row).end())
                return refuse("wrong_cards",
                              protocol::openface_pack().to_string(c) + " is placed in the " +
                                  std::string(chinese::row_name(row)) + " and cannot move");
        for (Card c : rows.value->row(row)) {
            const std::string name = protocol::openface_pack().to_string(c);
            const auto& mine = placed.row(row);
            const auto pending = e.pending(p);
            if (std::find(mine.begin(), mine.end(), c) == mine.end() &&
                std::find(pending.begin(), pending.end(), c) == pending.end())
                return refuse("wrong_cards", name + " is not one of your cards to place");
            if (std::find(used.begin(), used.end(), c) != used.end())
                return refuse("duplicate_card", name + " is in the rows twice");
            used.push_back(c);
        }
    }
    return {protocol::openface_preview_json(*rows.value, config_.options, e.fantasyland(p) > 0,
                                            e.players()),
            {}};
}

} // namespace

std::unique_ptr<Game> openface_game(OpenFaceConfig config) {
    return std::make_unique<OpenFaceGame>(std::move(config));
}

} // namespace felt::server
