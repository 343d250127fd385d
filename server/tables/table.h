// A poker table: one hand at a time, driven by the betting engine on the table's strand. Every
// message it sends is built for its recipient: hole cards reach their owner only. Each hand is
// committed to before the deal and revealed after; finished hands are written in one transaction.
#pragma once

#include "poker/hand.h"
#include "poker_config.h"
#include "tables/table_base.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace felt::server {

using protocol::PokerConfig;

class Table final : public TableBase {
  public:
    Table(std::int64_t id, PokerConfig config, poker::HandConfig base, SharedState& state,
          net::io_context& ioc);

    protocol::json config_json() const override { return config_.to_json(); }
    std::string describe() const override { return config_.structure + " " + config_.variant; }

    void act(std::shared_ptr<Recipient> s, Account a, protocol::Request r) override;

  private:
    struct Running {
        poker::HandState state;
        std::int64_t hand_id = 0;
        int number = 0;
        Commitment reveal; // revealed at the end
        std::array<poker::Chips, poker::kMaxSeats> start{};
        std::vector<std::string> log; // every event with every card, for the database
    };

    std::string snapshot(int seat) const override;
    bool running() const override { return hand_.has_value(); }
    bool in_running(int seat) const override;
    void leaving_in_hand(int seat) override;
    void start_hand() override;
    void forget_running() override;
    std::int64_t running_id() const override { return hand_ ? hand_->hand_id : 0; }

    void publish(std::span<const poker::Event> batch, const poker::Legal* turn);
    void after_events(const std::vector<poker::Event>& events, std::size_t from);
    void start_clock();
    void act_for_leaving();
    poker::Action stand_in(bool leaving) const;
    protocol::json legal_json() const;
    void on_clock(int hand, int decision);
    void apply(const poker::Action& a);
    void log_action(const poker::Action& a, const char* by);
    void finish_hand();

    PokerConfig config_;
    poker::HandConfig base_;
    std::optional<Running> hand_;
    int decision_ = 0; // decisions asked for, to tell a stale clock from the current one
};

} // namespace felt::server
