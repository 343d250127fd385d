// A table, whatever its game: seating and the hand's lifecycle. Seats are bought into from the
// ledger; players and spectators are told what happens; a player may sit out, top up, leave or
// lose the connection; the dealer rotates; each deal is shuffled, committed to, stored, played
// and settled. Its Game (tables/game.h) supplies the rules. The rest is in pieces of its own:
// - Publisher (tables/publisher.h): the watchers, `seq`, each message written once for everyone
//   and once for each seat with its own copy, and the batch that sends a turn's messages together;
// - TableClock (tables/table_clock.h): the hand's clock and each seat's time bank;
// - TableLedger (tables/table_ledger.h): the writes (buy-in, top-up, cash-out, the hand's row at
//   its start and end, voids) and the pause while storage fails;
// - shuffle.h: the secure shuffle, the seed, and the chosen cards of tests.
// table.cpp holds the hands; seating.cpp the seats, the watchers and their requests.
//
// What a tournament needs, with these pieces (the tournaments issue builds it):
// - Seating without a buy-in: `sit` seats a player with the stack it is given, after whatever
//   was written first. A tournament's entry point calls it once the tournament's own
//   registration is stored, instead of `join`'s buy-in through TableLedger::buy_in.
// - Moving a player between tables: between hands (not `in_hand`), the table it leaves frees the
//   seat as `cash_out` does, but writes the stack to the tournament rather than to the balance (a
//   cash_out reason of its own in TableLedger), and the table it joins seats the player with that
//   stack through `sit`; the session is told by both tables' Publishers and gets the new snapshot.
// - Changing blinds between hands: a Game is const and makes each hand from its Deal in
//   `start_hand`; a tournament's Game reads the level there (from the tournament's clock, never
//   the table's), so blinds change between hands and never within one, and `Limits` (seats,
//   buy-ins, clocks) stay the table's.
#pragma once

#include "accounts/account.h"
#include "cards/types.h"
#include "io.h"
#include "protocol/messages.h"
#include "tables/game.h"
#include "tables/host.h"
#include "tables/lobby.h"
#include "tables/publisher.h"
#include "tables/recipient.h"
#include "tables/shuffle.h"
#include "tables/table_clock.h"
#include "tables/table_ledger.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace felt::server {

inline constexpr int kChatMaxChars = 200; // characters (code points) in a line of chat
inline constexpr int kChatBurst = 5;      // lines of chat a player may send ...
inline constexpr int kChatWindowS = 10;   // ... in this many seconds

class Table : public std::enable_shared_from_this<Table> {
  public:
    Table(std::int64_t id, std::unique_ptr<Game> game, Services& services);

    std::int64_t id() const { return id_; }
    // For the lobby and the database: the game and its settings.
    protocol::json config_json() const { return game_->config(); }
    // For the log: "no-limit holdem", "chinese classic".
    std::string describe() const { return game_->describe(); }
    // For the lobby, from any thread: the table's line (its configuration, seats taken and
    // spectators watching).
    protocol::json lobby_line() const;
    int seats_taken() const { return taken_.load(); }

    // Requests, from any thread; each replies to the session (or errs) on the table's strand.
    void join(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    void spectate(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    void leave(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    void act(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    void hint(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    // The engine's verdict on what a seated player is arranging (a split, a meld).
    void preview(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    // Tests only (feltd --chosen-decks): the next deal's cards, in the order dealt.
    void choose_deck(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    // A line of chat from a player or spectator of this table to everyone watching it.
    void chat(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    // The table as the asker may see it, again: for a client that missed a message (a gap in
    // `seq`). The reply is followed by a snapshot.
    void resend(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    // A seated player chooses to be dealt no more hands, keeping the seat; and comes back.
    void sit_out(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    void sit_in(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    // A seated player adds chips from their balance, between their hands, up to the maximum
    // buy-in.
    void top_up(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    // The table's creator closes it: at once when nobody sits at it, else no more hands are dealt
    // and everyone is cashed out once the running hand ends; then it closes.
    void close(std::shared_ptr<Recipient> s, Account a, protocol::Request r);
    // A player signed in again: their seat now speaks to this session, which gets a snapshot
    // (and, if it is their turn, what they may do).
    void attach(std::shared_ptr<Recipient> s, Account a);
    // A session has gone: its seat is held; the clock acts for it.
    void disconnected(Recipient* s);
    // Listed in the lobby: from now on, a table nobody sits at for the idle time closes.
    void open();
    // A table opened again after a restart: its hands are numbered on from `hands`. Before open().
    void continue_from(int hands) { hands_ = hands; }
    // Who made the table: its lobby line names them, and they may close it. Before open().
    void set_creator(std::int64_t account, std::string name) {
        creator_ = account;
        creator_name_ = std::move(name);
    }
    // ---- a table run by a host (tables/host.h): a tournament's ----
    // Before the table deals: from now on the host decides each hand, and the table keeps no
    // account chips.
    void set_host(std::weak_ptr<TableHost> host, std::int64_t tournament) {
        host_ = std::move(host);
        hosted_ = true;
        tournament_ = tournament;
    }
    // Seats a player with `stack` (tournament chips) in `seat`, without a session: the player's
    // connections attach (attach()), or the player is away and the clock plays for them. A seat
    // still taken (by a player moving away, or out of chips in the hand being written) is given
    // once it frees; a connection that attaches meanwhile is attached then.
    void seat_entrant(Account a, Seat seat, Chips stack);
    // The host moves a player away (to another table, or theirs breaks): their seat frees once
    // no hand is being played or written here, and their connection stops watching the table.
    void let_go(std::int64_t account, const char* reason);
    // The host may deal again: the next hand starts after the pause, if it deals one.
    void poke();
    // The host is done with the table (its tournament ended, or the table broke): it closes,
    // once no hand is being played or written.
    void end_hosting(const char* reason);

    // Shutdown: no new hands; cash everyone out once the running hand ends.
    void stop();
    // Grace period over: a running hand is void (stacks as before it), everyone cashed out.
    void void_and_close();

  private:
    // Who sits in a seat, and how they stand.
    struct Occupant {
        std::int64_t account = 0;
        std::string name;
        Chips stack{};
        std::weak_ptr<Recipient> session;
        bool leaving = false;
        bool quit = false;        // asked to leave: stops watching once cashed out
        int missed = 0;           // hands in a row the clock played for a disconnected player
        bool sitting_out = false; // dealt no hands until the player is back (missed hands)
        bool chose_out = false;   // dealt no hands until the player sits in (sit_out)
        bool connected = true;    // has a live connection (told to the table as it changes)
        bool topping = false;     // its top-up is being written
        int missed_hand = -1;     // the last hand counted in `missed`
        bool cashing = false;     // its cash-out is being written
    };

    void send(const std::shared_ptr<Recipient>& s, std::string text) {
        publisher_.send(s, std::move(text));
    }
    void refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                const std::string& code, const std::string& message);
    void refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                const Refusal& why);
    // Every message to the table's watchers, numbered and stamped with the clock.
    void publish(std::vector<Told>& told);
    // A message that is the same for everyone watching.
    void broadcast(protocol::json message);
    // The watcher's seat; none for a spectator.
    std::optional<Seat> seat_of_session(const std::shared_ptr<Recipient>& s) const;
    std::optional<Seat> seat_of(std::int64_t account) const;
    Occupant* seat(Seat s) { return seats_[s.at()] ? &*seats_[s.at()] : nullptr; }
    const Occupant* seat(Seat s) const { return seats_[s.at()] ? &*seats_[s.at()] : nullptr; }
    // A seat that is neither taken nor held for a buy-in being written.
    bool free(Seat seat) const;
    // Seats the player with `stack`, once what pays for it is written (the buy-in).
    void sit(const std::shared_ptr<Recipient>& s, const Account& a, const protocol::Request& r,
             Seat seat, Chips stack);
    // Seats that may be dealt in: the stake needed, not leaving, not sitting out, no top-up being
    // written.
    bool ready(Seat i) const;
    int ready_count() const;
    // The whole table as `viewer` (none: a spectator) may see it.
    std::string snapshot(std::optional<Seat> viewer) const;
    // The seat was dealt into the running hand and is still to play.
    bool in_running(Seat seat) const { return hand_ && hand_->in(seat); }
    // The seat was dealt into the hand that runs or whose start or end is being written: its stack
    // is the hand's until the end is stored.
    bool in_hand(Seat seat) const;
    // Tells the lobby's watchers this table's line, after seats or spectators changed.
    void lobby_changed();
    // A table that asks for bots tells the bots' host who sits at it (Services::seating), after
    // a seat is taken or freed, or a player sits out or in.
    void seating_changed();
    void tell_seating();
    // The clock played for `seat` in hand `hand`: a disconnected player who keeps missing hands
    // is sat out until they come back.
    void note_missed(Seat seat, int hand);
    // Cashes a seat out to its owner's balance, once storage has written it; then(true) after
    // the seat is freed. When storage fails nothing moves: the seat stays, marked leaving (dealt
    // no more hands), the table pauses, the cash-out is tried again later, and then(false).
    void cash_out(Seat seat, const char* reason, std::function<void(bool ok)> then = {});

    // The hand. It is prepared from a shuffled deck and committed to, then dealt only once its
    // row is written (as running, with its commitment), unless storage failed (the table pauses
    // and nothing is dealt) or shutdown began (the row is void). Until then the table is busy: no
    // other hand starts and a seat that leaves waits for the hand.
    void start_hand();
    void deal(std::int64_t hand_id, const std::string& commitment);
    // What a step of the hand caused: the seats the clock played for, the messages, then a new
    // clock if the hand wants one, or the hand's end.
    void run(Step step);
    // Tells the next of `paced_` after its pause; the hand ends after the last.
    void tell_paced();
    // The run-out's odds: worked out on Services::odds, told after each part as it is told (or
    // when they become known), and the all-in EV added to the hand's log; the hand ends once
    // both the parts and the odds are done (finish_run_out).
    void start_odds(RunOutOdds job);
    void odds_known(std::uint64_t run_out, std::size_t part, json odds);
    void ev_known(std::uint64_t run_out, std::string all_in_ev);
    void tell_odds(std::size_t part);
    void finish_run_out(End end);
    // Waits on the clock's timer, when the clock says to; its handler keeps the table alive.
    void wait_clock();
    // The wait fired: waits on, or the clock is out: the seat's time bank, if any is left, else
    // the hand's time-out.
    void on_clock_timer();
    // A hand's end, with its seats and its log, is one write. The table is settling (no hand
    // starts, a seat that leaves waits) until storage has committed it. Then the stacks are set,
    // everyone gets the end with every seat's stack and the fairness reveal (each seat its own
    // cards too), and after_hand() runs. When the end cannot be written the hand is void instead
    // (void_hand) and the table pauses until storage works.
    void end_hand(End end);
    // A hand that cannot count (storage failed at its end, or a bug): written void, and everyone
    // told with `hand_void` and the stacks, which are those from before the hand.
    void void_hand(std::int64_t hand_id, int number, const char* reason);
    // Starts the next hand after the pause when two or more seats are ready and storage works.
    void maybe_start();
    // After a hand: the leaving, the broke and everyone at shutdown are cashed out, then the next
    // hand is considered.
    void after_hand();
    // The dealer of the next hand (the button, in poker): the first seat after the last hand's,
    // clockwise, that is ready to be dealt in. Call with two or more seats ready.
    Seat next_dealer() const;
    // A seated player's question to the game (hint, preview), answered on the strand.
    using Question = Outcome<protocol::json> (Game::*)(const Hand*, Seat,
                                                       const protocol::Request&) const;
    void ask(std::shared_ptr<Recipient> s, Account a, protocol::Request r, Question q);
    // A hand runs, or its start or end is being written, or a top-up.
    bool busy() const { return hand_ || pending_ || settling_ || topping_ > 0; }
    // Nobody sits at the table, nor is about to.
    bool empty() const;
    // The table has just become empty: it closes after the idle time unless someone sits down.
    void arm_idle();
    // The idle time is up: an empty table closes (watchers told, gone from the lobby, its row
    // closed); otherwise it waits for the rest of the idle time from when it last became empty.
    void on_idle();
    // The table closes now, for `reason` ("idle", "host"): watchers told, gone from the lobby,
    // its row closed.
    void close_now(const char* reason);
    // Closing at its creator's word: the seats cashed out, the table closes once empty.
    void closing_step();

    const std::int64_t id_;
    const std::unique_ptr<const Game> game_;
    const Limits limits_;
    Services& services_;
    net::strand<net::io_context::executor_type> strand_;
    Publisher publisher_;
    TableClock clock_;
    TableLedger ledger_;
    std::array<std::optional<Occupant>, kMaxTableSeats> seats_;
    // A seat whose buy-in is being written: the account it is held for (0: none).
    std::array<std::int64_t, kMaxTableSeats> reserved_{};
    std::map<std::int64_t, std::deque<std::chrono::steady_clock::time_point>> chat_times_;
    bool stopping_ = false;
    std::optional<Seat> dealer_; // the last hand's dealer (poker: its button)
    json carry_;                 // the last settled hand's End::carry, for the next Deal
    bool hold_button_ = false;   // the last settled hand's End::hold_button
    int hands_ = 0;              // hands (deals, games) dealt at this table

    // The running hand, or the one whose row is being written (pending_).
    std::unique_ptr<Hand> hand_, pending_;
    Deal deal_;                // what the running (or pending) hand was dealt from
    std::int64_t hand_id_ = 0; // its row
    protocol::Sealed sealed_;  // its commitment; opened at its end
    ChosenCards chosen_;       // tests only: the next deal's first cards
    // The running hand has ended and its last messages are told at a pace (an all-in's run-out)
    // before the end is written.
    std::deque<Paced> paced_;
    std::optional<End> paced_end_;
    net::steady_timer pace_;
    // Its odds: which run-out they are for, whether they are still being worked out, the parts
    // told so far, and the end waiting for them.
    std::uint64_t run_out_ = 0;
    bool odds_pending_ = false;
    std::vector<json> odds_; // by part; null until known
    std::string all_in_ev_;
    std::size_t parts_told_ = 0;
    std::shared_ptr<std::atomic<std::size_t>> told_now_; // parts_told_, for the odds thread
    static constexpr std::size_t kAbandoned = static_cast<std::size_t>(-1); // ... or this
    std::optional<End> odds_end_;
    static constexpr int kMostEvWaitMs = 500; // then the hand ends without its all-in EV
    // The last hand's end, and the rest after it before the next (longer after a showdown).
    std::chrono::steady_clock::time_point ended_;
    std::chrono::steady_clock::duration rest_{};

    net::steady_timer next_hand_;
    bool starting_ = false;
    bool settling_ = false; // a hand's end is being written
    int topping_ = 0;       // top-ups being written
    std::atomic<int> taken_{0};
    std::atomic<int> watching_{0};                // spectators, for the lobby
    net::steady_timer idle_;                      // closes the table once empty for the idle time
    std::chrono::steady_clock::time_point empty_; // since when it has been empty
    bool closed_ = false;
    bool wants_bots_ = false; // its configuration asks for bots (Services::seating)
    bool closing_ = false;    // its creator closes it: no more hands; closed once everyone is out
    std::int64_t creator_ = 0;
    std::string creator_name_;
    // A hosted table (a tournament's): the host decides each hand; no buy-ins nor cash-outs.
    std::weak_ptr<TableHost> host_;
    bool hosted_ = false;
    std::int64_t tournament_ = 0; // its tournament, for the lobby and the snapshot
    // The host dealt the running (or pending) hand and awaits its end.
    bool host_dealt_ = false;
    // Tells the host a hand it dealt did not happen.
    void not_dealt();
    // The host's changes of seats, waiting until the table may make them.
    struct Arrival {
        Account account;
        Seat seat;
        Chips stack{};
        std::vector<std::weak_ptr<Recipient>> sessions; // attached before the seat was free
    };
    std::vector<Arrival> arrivals_;                                // in the order given
    std::vector<std::pair<std::int64_t, const char*>> departures_; // account, why
    const char* end_reason_ = nullptr;                             // end_hosting waits
    // Makes the host's changes that can be made now: departures and the end once no hand is
    // played or written; arrivals at seats that are free.
    void host_changes();
    void sit_entrant(Arrival a);
    // Frees the seat of a player the host's hand put out (no chips left): no cash-out.
    void free_seat(Seat seat, const char* reason);
};

} // namespace felt::server
