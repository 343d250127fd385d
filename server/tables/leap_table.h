// A leap rummy table (leap-rummy.md): one game at a time, from the deal until every player has
// retired, played turn by turn through the engine. Hands and draws reach their owner only; melds,
// leaptokens, hand sizes, the stock's size and the scores are public. A player who times out is
// played for (pursue, then the costliest card discarded); too many time-outs in a row, or leaving,
// retire them. With chips at stake the final scores settle through the ledger. Each game is
// committed to before it is dealt and written, with its whole action log, in one transaction.
#pragma once

#include "leap/leap_game.h"
#include "leap_config.h"
#include "leap_messages.h"
#include "tables/table_base.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace felt::server {

using protocol::LeapConfig;

class LeapTable final : public TableBase {
  public:
    LeapTable(std::int64_t id, LeapConfig config, SharedState& state, net::io_context& ioc);

    protocol::json config_json() const override { return config_.to_json(); }
    std::string describe() const override { return "leap rummy"; }

    void act(std::shared_ptr<Recipient> s, Account a, protocol::Request r) override;

  private:
    struct Game {
        std::int64_t hand_id = 0;
        int number = 0;
        int dealer = 0; // table seat
        Commitment reveal;
        std::vector<int> seats;    // engine player i sits in table seat seats[i]
        std::vector<Chips> start;  // by engine player
        std::vector<int> timeouts; // in a row, by engine player
        leap::State state;
        long clock_turn = 0; // the turn the clock runs for
        std::vector<std::string> log;
    };

    // Deals `g` once its row is written (start_hand prepared it); hands: each seat's cards.
    void deal(Game g, const protocol::json& stacks, const std::vector<std::string>& hands,
              const std::string& commit);
    std::string snapshot(int seat) const override;
    bool running() const override { return game_.has_value(); }
    bool in_running(int seat) const override { return player_of(seat) >= 0; }
    void leaving_in_hand(int seat) override;
    void start_hand() override;
    void forget_running() override;
    std::int64_t running_id() const override { return game_ ? game_->hand_id : 0; }
    Chips stake_needed() const override { return config_.stake_needed(); }

    // The engine player in table seat `seat`, or -1.
    int player_of(int seat) const;
    int seat_of_player(int player) const { return game_->seats[static_cast<std::size_t>(player)]; }
    // The engine's message with its "seat N" (engine players) named by table seat and name.
    std::string table_words(const std::string& message) const;
    // The public state of the game: whose turn, the stock, hand sizes, scores, retirements.
    protocol::json public_state() const;
    // Applies an action (checked by the engine), logs it, tells everyone what happened, then
    // plays for leaving players and starts the turn's clock, or ends the game.
    // `accepted` runs once the engine has taken the action, before anyone is told of it.
    std::optional<Error> play(const leap::Action& a, const char* by,
                              const std::function<void()>& accepted = {});
    void tell(const leap::Event& e);
    // Turns for players who are leaving, the clock, and the announcement of whose turn it is.
    void next_turn();
    void on_clock(long turn);
    // The server's move for the player to act: pursue, or discard their costliest card.
    leap::Action auto_action(bool retire) const;
    void finish();

    LeapConfig config_;
    std::optional<Game> game_;
};

} // namespace felt::server
