// A Chinese poker table (chinese-poker.md): deals 13 cards to each of two to four players, takes
// each player's split face down, arranges for whoever runs out of time, then reveals every split
// at once and settles through the engine. A player's cards and split reach nobody else until the
// reveal. Each deal is committed to before it is dealt and written in one transaction.
#pragma once

#include "chinese/chinese.h"
#include "chinese_config.h"
#include "chinese_messages.h"
#include "tables/table_base.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace felt::server {

using protocol::ChineseConfig;

class ChineseTable final : public TableBase {
  public:
    ChineseTable(std::int64_t id, ChineseConfig config, SharedState& state, net::io_context& ioc);

    protocol::json config_json() const override { return config_.to_json(); }
    std::string describe() const override { return "chinese " + config_.profile; }

    void act(std::shared_ptr<Recipient> s, Account a, protocol::Request r) override;
    void hint(std::shared_ptr<Recipient> s, Account a, protocol::Request r) override;

  private:
    struct Entry { // a seat's part in the running deal
        std::array<Card, 13> cards{};
        std::optional<chinese::Player> submitted; // split, declaration, surrender
        bool by_server = false;                   // arranged by the engine (clock or leaving)
        Chips start = 0;
    };
    struct Deal {
        std::int64_t hand_id = 0;
        int number = 0;
        int dealer = 0;
        Commitment reveal;
        std::vector<int> seats; // dealt in, clockwise from seat 0
        std::array<std::optional<Entry>, kMaxTableSeats> entries;
        std::vector<std::string> log;
    };

    std::string snapshot(int seat) const override;
    bool running() const override { return deal_.has_value(); }
    bool in_running(int seat) const override;
    void leaving_in_hand(int seat) override;
    void start_hand() override;
    void forget_running() override;
    std::int64_t running_id() const override { return deal_ ? deal_->hand_id : 0; }
    Chips stake_needed() const override { return config_.stake_needed(); }
    // Deals `d` once its row is written (start_hand prepared it).
    void deal(Deal d, const protocol::json& stacks, const std::string& commit);

    Entry& entry(int seat) { return *deal_->entries[static_cast<std::size_t>(seat)]; }
    // The seat's part in the running deal, if it was dealt in.
    const Entry* dealt(int seat) const;
    // Records a seat's submission and tells everyone (but not what it is).
    void submit(int seat, chinese::Player p, bool by_server);
    // The engine's best arrangement for a seat that did not submit in time or left.
    void arrange_for(int seat);
    // Settles once every seat has submitted.
    void maybe_settle();
    void on_clock(int number);
    void settle();

    ChineseConfig config_;
    std::optional<Deal> deal_;
};

} // namespace felt::server
