// A table, whatever its game: seats bought into from the ledger, players and spectators to tell,
// per-table sequence numbers, sitting out, cashing out, the clock and time banks, the dealer's
// rotation, the commitment to each deal, the hand's row in storage, and shutdown. Its Game
// (tables/game.h) supplies the rules; every message goes out through one publish, which gives
// each seat its own copy only where the game says so.
#pragma once

#include "accounts/account.h"
#include "cards/types.h"
#include "io.h"
#include "protocol/messages.h"
#include "tables/game.h"
#include "tables/lobby.h"
#include "tables/recipient.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace felt::server {

inline constexpr int kChatMaxChars = 200; // characters (code points) in a line of chat
inline constexpr int kChatBurst = 5;      // lines of chat a player may send ...
inline constexpr int kChatWindowS = 10;   // ... in this many seconds

// A cryptographically secure shuffle (libsodium), and a seed for a game that may reshuffle.
void secure_shuffle(std::span<Card> deck);
std::uint64_t random_seed();

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
    // A player signed in again: their seat now speaks to this session, which gets a snapshot
    // (and, if it is their turn, what they may do).
    void attach(std::shared_ptr<Recipient> s, Account a);
    // A session has gone: its seat is held; the clock acts for it.
    void disconnected(Recipient* s);
    // Listed in the lobby: from now on, a table nobody sits at for the idle time closes.
    void open();
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
        int time_bank_ms = 0;     // extra time left for decisions, spent as used
        bool cashing = false;     // its cash-out is being written
    };

    void send(const std::shared_ptr<Recipient>& s, std::string text);
    // Every message a table sends goes through here: at once, or, inside a Batch, gathered so
    // that each recipient gets its share in one hand-over (and its connection in one write).
    void deliver(const std::shared_ptr<Recipient>& s, Message m);
    // On the strand, for one handler: what it sends to each recipient goes out together when it
    // ends (an action's reply with its update; a hand's last update, its end and the next deal).
    class Batch {
      public:
        explicit Batch(Table& t) : table_(t), outer_(!t.batching_) { t.batching_ = true; }
        ~Batch() {
            if (outer_) table_.flush_outbox();
        }
        Batch(const Batch&) = delete;
        Batch& operator=(const Batch&) = delete;

      private:
        Table& table_;
        bool outer_;
    };
    void flush_outbox();
    void refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                const std::string& code, const std::string& message);
    void refuse(const std::shared_ptr<Recipient>& s, const protocol::Request& r,
                const Refusal& why);
    // Every message to the table's watchers: each one numbered, serialised once for everyone
    // who sees it alike, and once more for each seat with its own copy.
    void publish(std::vector<Told>& told);
    // A message that is the same for everyone watching.
    void broadcast(protocol::json message);
    // Calls f(session, seat) for every live watcher (seat -1 for spectators).
    template <class F>
    void for_each_watcher(F&& f) {
        for (auto it = watchers_.begin(); it != watchers_.end();) {
            auto s = it->second.lock();
            if (!s) {
                it = watchers_.erase(it);
                continue;
            }
            f(s, seat_of_session(s));
            ++it;
        }
    }
    int seat_of_session(const std::shared_ptr<Recipient>& s) const;
    std::optional<int> seat_of(std::int64_t account) const;
    Occupant* seat(int i) {
        return seats_[static_cast<std::size_t>(i)] ? &*seats_[static_cast<std::size_t>(i)]
                                                   : nullptr;
    }
    const Occupant* seat(int i) const {
        return seats_[static_cast<std::size_t>(i)] ? &*seats_[static_cast<std::size_t>(i)]
                                                   : nullptr;
    }
    // A seat that is neither taken nor held for a buy-in being written.
    bool free(int seat) const;
    // Seats the player once the buy-in is written.
    void sit(const std::shared_ptr<Recipient>& s, const Account& a, const protocol::Request& r,
             int seat, Chips buy_in);
    // Seats that may be dealt in: the stake needed, not leaving, not sitting out, no top-up being
    // written.
    bool ready(int i) const;
    int ready_count() const;
    // The whole table as `seat` (-1: a spectator) may see it.
    std::string snapshot(int seat) const;
    // The seat was dealt into the running hand and is still to play.
    bool in_running(int seat) const { return hand_ && hand_->in(Seat(seat)); }
    // The seat was dealt into the hand that runs or whose start or end is being written: its stack
    // is the hand's until the end is stored.
    bool in_hand(int seat) const;
    // Tells the lobby's watchers this table's line, after seats or spectators changed.
    void lobby_changed();
    // The clock played for `seat` in hand `hand`: a disconnected player who keeps missing hands
    // is sat out until they come back.
    void note_missed(int seat, int hand);
    // Cashes a seat out to its owner's balance, once storage has written it; then(true) after
    // the seat is freed. When storage fails nothing moves: the seat stays, marked leaving (dealt
    // no more hands), the table pauses, the cash-out is tried again later, and then(false).
    void cash_out(int seat, const char* reason, std::function<void(bool ok)> then = {});

    // The hand. It is prepared from a shuffled deck and committed to, then dealt only once its
    // row is written (as running, with its commitment), unless storage failed (the table pauses
    // and nothing is dealt) or shutdown began (the row is void). Until then the table is busy: no
    // other hand starts and a seat that leaves waits for the hand.
    void start_hand();
    void deal(std::int64_t hand_id, const std::string& commitment);
    // What a step of the hand caused: the seats the clock played for, the messages, then a new
    // clock if the hand wants one, or the hand's end.
    void run(Step step);
    // The running clock expired: the seat's time bank, if any is left, else the hand's time-out.
    void on_clock(long key);
    // The time left on the running clock, and the bank of the seat on it, into the stamp.
    void tell_clock(protocol::Stamp& stamp) const;
    // A hand's end, with its seats and its log, is one write. The table is settling (no hand
    // starts, a seat that leaves waits) until storage has committed it. Then the stacks are set,
    // everyone gets the end with every seat's stack and the fairness reveal (each seat its own
    // cards too), and
    // after_hand() runs. When the end cannot be written the hand is void instead (void_hand) and
    // the table pauses until storage works.
    void end_hand(End end);
    // record_void keeps a void it could not write and writes it when storage works again.
    void record_void(std::int64_t hand_id);
    // A hand that cannot count (storage failed at its end, or a bug): written void, and everyone
    // told with `hand_void` and the stacks, which are those from before the hand.
    void void_hand(std::int64_t hand_id, int number, const char* reason);
    // The time bank. A decision's clock ran out for `seat`: if the seat has bank left, announces
    // it, runs the clock on it (on_clock again when it runs out too) and returns true. On the
    // second expiry (or with no bank) returns false, and the bank is empty.
    bool bank_start(int seat);
    // The clock runs until `due`. One wait at most is pending on clock_, and a clock that moves
    // later does not touch it: most decisions come long before their time, and a clock set
    // again for every action (a cancelled wait, its handler run, a new wait) cost more than the
    // action's own work on the table. The wait, when it fires, waits on to the due time if that
    // moved later, and otherwise runs on_clock.
    void arm_clock(net::steady_timer::time_point due);
    void on_clock_timer();
    // No clock runs: the pending wait is cancelled.
    void stop_clock();
    // The decision was made: charges the bank in use, if any, with the time spent from it.
    void bank_close();
    // Starts the next hand after the pause when two or more seats are ready and storage works.
    void maybe_start();
    // Storage failed: no hand starts until a small write succeeds (tried every kStorageRetry);
    // then the voids and cash-outs that could not be written are written, and play resumes.
    void pause_for_storage();
    // After a hand: the leaving, the broke and everyone at shutdown are cashed out, then the next
    // hand is considered.
    void after_hand();
    // The dealer of the next hand (the button, in poker): the first seat after the last hand's,
    // clockwise, that is ready to be dealt in. Call with two or more seats ready.
    int next_dealer() const;
    // A seated player's question to the game (hint, preview), answered on the strand.
    using Question = Outcome<protocol::json> (Game::*)(const Hand*, Seat,
                                                       const protocol::Request&) const;
    void ask(std::shared_ptr<Recipient> s, Account a, protocol::Request r, Question q);
    // The shuffled deck with the chosen cards (choose_deck), if any, moved to its top in order.
    void stack_chosen(std::vector<Card>& deck);
    // A hand runs, or its start or end is being written, or a top-up.
    bool busy() const { return hand_ || pending_ || settling_ || topping_ > 0; }
    // Nobody sits at the table, nor is about to.
    bool empty() const;
    // The table has just become empty: it closes after the idle time unless someone sits down.
    void arm_idle();
    // The idle time is up: an empty table closes (watchers told, gone from the lobby, its row
    // closed); otherwise it waits for the rest of the idle time from when it last became empty.
    void on_idle();

    const std::int64_t id_;
    const std::unique_ptr<const Game> game_;
    const Limits limits_;
    Services& services_;
    net::strand<net::io_context::executor_type> strand_;
    std::array<std::optional<Occupant>, kMaxTableSeats> seats_;
    // A seat whose buy-in is being written: the account it is held for (0: none).
    std::array<std::int64_t, kMaxTableSeats> reserved_{};
    std::map<Recipient*, std::weak_ptr<Recipient>> watchers_; // spectators and players
    std::map<std::int64_t, std::deque<std::chrono::steady_clock::time_point>> chat_times_;
    std::int64_t seq_ = 0;
    bool stopping_ = false;
    int dealer_ = -1; // the last hand's dealer (poker: its button); -1 before the first
    int hands_ = 0;   // hands (deals, games) dealt at this table

    // The running hand, or the one whose row is being written (pending_).
    std::unique_ptr<Hand> hand_, pending_;
    Deal deal_;                       // what the running (or pending) hand was dealt from
    std::int64_t hand_id_ = 0;        // its row
    protocol::Sealed sealed_;         // its commitment; opened at its end
    std::vector<std::string> chosen_; // tests only: the next deal's first cards

    net::steady_timer clock_; // the running hand's clock: a decision, a turn or the whole deal
    net::steady_timer::time_point clock_due_; // when it runs out (clock_ may fire earlier)
    bool clock_waiting_ = false;              // a wait is pending on clock_
    long clock_key_ = 0;                      // the hand's Clock::key it runs for (0: none)
    int clock_seat_ = -1;                     // the seat on it, if any
    bool banking_ = false; // the clock runs on bank_seat_'s time bank since bank_from_
    int bank_seat_ = -1;
    std::chrono::steady_clock::time_point bank_from_;

    net::steady_timer next_hand_;
    bool starting_ = false;
    static constexpr std::chrono::seconds kStorageRetry{1};
    net::steady_timer storage_retry_;
    bool paused_ = false;   // storage failed: no hand starts
    bool settling_ = false; // a hand's end is being written
    bool retrying_ = false; // storage_retry_ is armed
    std::vector<std::int64_t> unwritten_voids_;
    int topping_ = 0; // top-ups being written
    std::atomic<int> taken_{0};
    std::atomic<int> watching_{0};                // spectators, for the lobby
    net::steady_timer idle_;                      // closes the table once empty for the idle time
    std::chrono::steady_clock::time_point empty_; // since when it has been empty
    bool closed_ = false;
    bool batching_ = false; // a Batch is open: deliver() gathers into outbox_
    std::vector<std::pair<std::shared_ptr<Recipient>, Message>> outbox_;
};

} // namespace felt::server
