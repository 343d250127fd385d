#include "openface_seat.h"

#include "protocol/openface_config.h"
#include "protocol/openface_messages.h"

#include <cstdint>

namespace felt::bots {

using nlohmann::json;

namespace {

std::vector<Card> cards_of(const json& m, const char* key) {
    if (!m.contains(key) || !m[key].is_string()) return {};
    auto c = protocol::openface_pack().parse_cards(m[key].get<std::string>());
    return c ? *c : std::vector<Card>{};
}

// An integer field within [lo, hi], or `otherwise` (absent, not an integer, out of range).
int small_int(const json& m, const char* key, int lo, int hi, int otherwise) {
    if (!m.contains(key) || !m[key].is_number_integer()) return otherwise;
    const auto n = m[key].get<std::int64_t>();
    return n < lo || n > hi ? otherwise : static_cast<int>(n);
}

OpenFacePolicy policy_of(Kind k) {
    switch (k) {
    case Kind::random:
        return OpenFacePolicy::random;
    case Kind::fair:
    case Kind::strong:
        return OpenFacePolicy::rollouts;
    default:
        return OpenFacePolicy::greedy;
    }
}

} // namespace

std::optional<json> OpenFaceSeat::read(const json& m) {
    if (!m.is_object()) return std::nullopt;
    const std::string kind = m.value("kind", "");
    if (kind == "snapshot") {
        if (m.contains("your_seat") && m["your_seat"].is_number()) seat_ = m["your_seat"];
        if (m.contains("config")) {
            const auto c = protocol::decode_openface_config(m["config"]);
            if (c.ok()) {
                variant_ = c.value->options.variant;
                stay_ = c.value->options.stay;
                streets_ = variant_ == openface::Variant::pineapple ? 5 : 9;
            }
        }
        // Rows already placed (a bot that joins mid-hand): as the snapshot shows them.
        if (m.contains("seats") && m["seats"].is_array())
            for (const json& s : m["seats"])
                if (s.contains("rows") && small_int(s, "seat", 0, 8, -1) >= 0) {
                    const int at = small_int(s, "seat", 0, 8, -1);
                    auto& b = boards_[static_cast<std::size_t>(at)];
                    b.front = cards_of(s["rows"], "front");
                    b.middle = cards_of(s["rows"], "middle");
                    b.back = cards_of(s["rows"], "back");
                }
        return std::nullopt;
    }
    if (kind == "open_face_deal") {
        boards_ = {};
        discards_.clear();
        players_.clear();
        for (const json& at : m.at("seats"))
            if (at.is_number_integer() && at.get<std::int64_t>() >= 0 && at.get<std::int64_t>() < 9)
                players_.push_back(at.get<int>());
        return std::nullopt;
    }
    if (kind == "open_face_placed") {
        const int at = small_int(m, "seat", 0, 8, -1);
        if (at < 0) return std::nullopt;
        auto& b = boards_[static_cast<std::size_t>(at)];
        for (auto [key, row] : {std::pair{"front", &b.front}, std::pair{"middle", &b.middle},
                                std::pair{"back", &b.back}}) {
            const auto add = cards_of(m, key);
            row->insert(row->end(), add.begin(), add.end());
        }
        if (at == seat_) {
            const auto d = cards_of(m, "discard");
            discards_.insert(discards_.end(), d.begin(), d.end());
        }
        return std::nullopt;
    }
    if (kind != "open_face_turn" || small_int(m, "seat", 0, 8, -1) != seat_ || seat_ < 0)
        return std::nullopt;
    OpenFaceView v;
    v.variant = variant_;
    v.stay = stay_;
    v.board = boards_[static_cast<std::size_t>(seat_)];
    v.pending = cards_of(m, "cards");
    v.discards = small_int(m, "discards_due", 0, 4, -1); // -1: no placement (the clock places)
    v.fantasyland = m.value("fantasyland", false);
    const int street = small_int(m, "street", 0, streets_ - 1, streets_ + 9); // out: no placement
    v.streets_left = v.fantasyland ? 0 : streets_ - 1 - street;
    v.seen = discards_;
    v.opponents = std::max(1, static_cast<int>(players_.size()) - 1);
    for (int at : players_) {
        if (at == seat_ || at < 0 || at >= 9) continue;
        const auto& b = boards_[static_cast<std::size_t>(at)];
        for (const auto* row : {&b.front, &b.middle, &b.back})
            v.seen.insert(v.seen.end(), row->begin(), row->end());
        if (v.fantasyland && b.full()) v.against.push_back(b.split());
    }
    if (v.pending.empty()) return std::nullopt; // the clock places
    const auto p = place_openface(v, policy_of(profile_.kind), seed_++);
    if (p.front.empty() && p.middle.empty() && p.back.empty() && p.discard.empty())
        return std::nullopt; // nothing it can place: the clock places
    return protocol::openface_placement_json(p);
}

} // namespace felt::bots
