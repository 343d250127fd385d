#include "protocol/table_messages.h"

namespace felt::protocol {

namespace {

json seat_or_null(int seat) {
    return seat >= 0 ? json(seat) : json(nullptr);
}

} // namespace

json seated_json(int seat, const std::string& name, Chips stack) {
    return {{"kind", "seated"}, {"seat", seat}, {"name", name}, {"stack", stack}};
}

json left_json(int seat, const std::string& name, Chips stack) {
    return {{"kind", "left"}, {"seat", seat}, {"name", name}, {"stack", stack}};
}

json chat_json(int seat, const std::string& name, const std::string& text) {
    return {{"kind", "chat"}, {"seat", seat_or_null(seat)}, {"name", name}, {"text", text}};
}

json sitting_out_json(int seat, SitOut why) {
    return {{"kind", "sitting_out"},
            {"seat", seat},
            {"reason", why == SitOut::chosen ? "chosen" : "missed_hands"}};
}

json sitting_in_json(int seat) {
    return {{"kind", "sitting_in"}, {"seat", seat}};
}

json connection_json(int seat, bool connected) {
    return {{"kind", "connection"}, {"seat", seat}, {"connected", connected}};
}

json topped_up_json(int seat, const std::string& name, Chips amount, Chips stack) {
    return {{"kind", "topped_up"},
            {"seat", seat},
            {"name", name},
            {"amount", amount},
            {"stack", stack}};
}

json time_bank_json(int hand, int seat, int bank_ms) {
    return {{"kind", "time_bank"}, {"hand", hand}, {"seat", seat}, {"bank_ms", bank_ms}};
}

json timed_out_json(int hand, int seat) {
    return {{"kind", "timed_out"}, {"hand", hand}, {"seat", seat}};
}

json hand_void_json(int hand, std::int64_t hand_id, const char* reason,
                    std::span<const Chips> stacks) {
    return {{"kind", "hand_void"},
            {"hand", hand},
            {"hand_id", hand_id},
            {"reason", reason},
            {"stacks", stacks}};
}

json closed_json(const char* reason) {
    return {{"kind", "closed"}, {"reason", reason}};
}

void add_reveal(json& end, std::span<const Chips> stacks, const Sealed& sealed,
                const std::vector<std::string>& leaves, std::span<const Sight> seen,
                bool seed_used) {
    end["stacks"] = stacks;
    end["fairness"] = reveal_json(sealed, leaves, seen, seed_used, -1);
}

json own_reveal(const Sealed& sealed, std::span<const Sight> seen, int seat) {
    return {{"fairness", {{"yours", yours_json(sealed, seen, seat)}}}};
}

json seat_json(const SeatHead& s) {
    return {{"seat", s.seat},           {"name", s.name},
            {"stack", s.stack},         {"sitting_out", s.sitting_out},
            {"connected", s.connected}, {"time_bank_ms", s.time_bank_ms}};
}

json snapshot_json(std::int64_t table, std::int64_t seq, json config, json seats, int your_seat) {
    return {{"type", "table"},
            {"table", table},
            {"seq", seq},
            {"kind", "snapshot"},
            {"config", std::move(config)},
            {"seats", std::move(seats)},
            {"your_seat", seat_or_null(your_seat)}};
}

json lobby_line_json(std::int64_t table, json config, int taken, int watching) {
    json line = std::move(config);
    line["id"] = table;
    line["taken"] = taken;
    line["watching"] = watching;
    return line;
}

json lobby_changed_json(json line) {
    return {{"type", "lobby"}, {"kind", "changed"}, {"table", std::move(line)}};
}

json lobby_closed_json(std::int64_t table) {
    return {{"type", "lobby"}, {"kind", "closed"}, {"id", table}};
}

} // namespace felt::protocol
