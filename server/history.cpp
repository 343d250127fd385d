#include "history.h"

namespace felt::server::history {

namespace {

int clamp_limit(int limit) {
    return limit < 1 ? 20 : limit > 100 ? 100 : limit;
}

json summary(const db::Statement& q) {
    return {{"hand", q.column_int(0)},        {"table", q.column_int(1)},
            {"number", q.column_int(2)},      {"status", q.column_text(3)},
            {"started_at", q.column_text(4)}, {"ended_at", q.column_text(5)}};
}

} // namespace

json my_hands(db::Database& db, std::int64_t account, std::int64_t before, int limit) {
    limit = clamp_limit(limit);
    db::Statement q(db, "SELECT h.id, h.table_id, h.number, h.status, h.started_at, "
                        "COALESCE(h.ended_at, ''), s.seat, s.stack_start, s.stack_end "
                        "FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                        "WHERE s.account_id = ? AND (? = 0 OR h.id < ?) "
                        "ORDER BY h.id DESC LIMIT ?");
    q.bind(1, account).bind(2, before).bind(3, before).bind(4, limit + 1);
    json hands = json::array();
    json next = nullptr;
    while (q.step()) {
        if (static_cast<int>(hands.size()) == limit) {
            next = hands.back()["hand"];
            break;
        }
        json h = summary(q);
        h["seat"] = q.column_int(6);
        h["net"] = q.column_int(8) - q.column_int(7);
        hands.push_back(std::move(h));
    }
    return {{"hands", hands}, {"next", next}};
}

Outcome<json> hand(db::Database& db, std::int64_t hand_id, std::int64_t asker) {
    db::Statement h(db, "SELECT id, table_id, number, status, started_at, "
                        "COALESCE(ended_at, ''), config, commitment, deck, seed, salt "
                        "FROM hands WHERE id = ?");
    h.bind(1, hand_id);
    if (!h.step())
        return {std::nullopt, {"no_such_hand", "there is no hand " + std::to_string(hand_id)}};
    json out = summary(h);
    out["config"] = json::parse(h.column_text(6), nullptr, false);
    out["commitment"] = h.column_text(7);
    if (out["status"] == "finished") { // the reveal, for checking the commitment
        out["deck"] = h.column_text(8);
        out["seed"] = h.column_text(9);
        out["salt"] = h.column_text(10);
    }
    int my_seat = -1;
    json seats = json::array();
    db::Statement s(db, "SELECT s.seat, a.name, s.account_id, s.stack_start, s.stack_end "
                        "FROM hand_seats s JOIN accounts a ON a.id = s.account_id "
                        "WHERE s.hand_id = ? ORDER BY s.seat");
    s.bind(1, hand_id);
    while (s.step()) {
        if (asker != 0 && s.column_int(2) == asker) my_seat = static_cast<int>(s.column_int(0));
        seats.push_back({{"seat", s.column_int(0)},
                         {"name", s.column_text(1)},
                         {"stack_start", s.column_int(3)},
                         {"stack_end", s.column_int(4)},
                         {"net", s.column_int(4) - s.column_int(3)}});
    }
    out["seats"] = seats;
    out["your_seat"] = my_seat >= 0 ? json(my_seat) : json(nullptr);
    json events = json::array();
    db::Statement e(db, "SELECT body FROM hand_events WHERE hand_id = ? ORDER BY seq");
    e.bind(1, hand_id);
    while (e.step()) {
        json ev = json::parse(e.column_text(0), nullptr, false);
        if (ev.is_discarded()) continue;
        const std::string vis = ev.value("visibility", "nobody");
        const bool mine = vis == "owner" && my_seat >= 0 && ev.value("seat", -1) == my_seat;
        if (vis != "everyone" && !mine) ev.erase("cards");
        ev.erase("visibility");
        events.push_back(std::move(ev));
    }
    out["events"] = events;
    return {out, {}};
}

Outcome<json> table_hands(db::Database& db, std::int64_t table, int limit) {
    db::Statement t(db, "SELECT config FROM tables WHERE id = ?");
    t.bind(1, table);
    if (!t.step())
        return {std::nullopt, {"no_such_table", "there is no table " + std::to_string(table)}};
    db::Statement q(db, "SELECT id, table_id, number, status, started_at, COALESCE(ended_at, '') "
                        "FROM hands WHERE table_id = ? AND status = 'finished' "
                        "ORDER BY id DESC LIMIT ?");
    q.bind(1, table).bind(2, clamp_limit(limit));
    json hands = json::array();
    while (q.step()) hands.push_back(summary(q));
    return {json{{"table", table}, {"hands", hands}}, {}};
}

Outcome<json> totals(db::Database& db, const std::string& name) {
    db::Statement a(db, "SELECT id, name FROM accounts WHERE name = ?");
    a.bind(1, name);
    if (!a.step()) return {std::nullopt, {"no_such_player", "no player named \"" + name + "\""}};
    const std::int64_t id = a.column_int(0);
    db::Statement q(db, "SELECT COUNT(*), COALESCE(SUM(s.stack_end - s.stack_start), 0), "
                        "COALESCE(SUM(s.stack_end > s.stack_start), 0), "
                        "COALESCE(MAX(s.stack_end - s.stack_start), 0), "
                        "COALESCE(MIN(s.stack_end - s.stack_start), 0) "
                        "FROM hand_seats s JOIN hands h ON h.id = s.hand_id "
                        "WHERE s.account_id = ? AND h.status = 'finished'");
    q.bind(1, id);
    q.step();
    return {json{{"name", a.column_text(1)},
                 {"hands", q.column_int(0)},
                 {"net", q.column_int(1)},
                 {"won", q.column_int(2)},
                 {"biggest_win", q.column_int(3)},
                 {"biggest_loss", q.column_int(4)}},
            {}};
}

} // namespace felt::server::history
