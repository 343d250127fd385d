// What feltd keeps, behind one interface: accounts and their sessions, the chip ledger, tables and
// the chips seated at them, hands from deal to end, and the history read back from them.
//
// Every method is one unit of work: it either happens whole or not at all, and a failure of the
// storage itself (a full disk, an I/O error, a lost connection) is an exception. A refusal that
// belongs to the rules (too few chips, a taken name) is a value. A Store is used by one thread at
// a time: storage/storage.h owns the threads. SQLite is the one engine today (sqlite_store.h).
#pragma once

#include "accounts/account.h"
#include "protocol/messages.h"
#include "stats/poker_stats.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace felt::server {

// A hand (or deal, or game) as it is dealt: its row, written before the first card.
struct HandStart {
    std::int64_t id = 0; // chosen by the caller (Storage::next_hand_id)
    std::int64_t table = 0;
    int number = 0;     // the table's count of hands
    std::string config; // JSON: the table's configuration plus what this hand needs to be replayed
    std::string commitment;
};

// A seat's part in a finished hand.
struct HandSeat {
    int seat = 0;
    std::int64_t account = 0;
    Chips start{}, end{};
};

// A tournament entry that finished: its place and prize (paid to the balance once), and whether
// it tied with others out in the same hand; `entry`: which of the account's entries (a re-entry
// is the account's next).
struct EntryFinish {
    std::int64_t account = 0;
    int place = 0;
    Chips prize{};
    bool tied = false;
    int entry = 1;
};

// What a hand (or a decision between hands) changed in a tournament: the entries that finished,
// where the tournament stands now (its state, JSON), and whether it is over. `seq` numbers the
// tournament's changes in the order they were made: a state is written unless one of a later
// change was written already (the writes of two tables' hands may reach storage out of order).
struct TournamentChange {
    std::int64_t tournament = 0;
    std::vector<EntryFinish> finished;
    std::string state;
    bool over = false;
    long seq = 0;
};

// A purchase in a running tournament's entry period: a new entry (late registration, or a
// re-entry: `entry`, the account's next) pays the buy-in and the fee; a rebuy or an add-on, for
// the account's entry `entry`, pays the buy-in. `change`: the tournament's state after it.
struct TournamentPurchase {
    enum class Kind : unsigned char { entry, rebuy, add_on };
    std::int64_t account = 0;
    Kind kind = Kind::entry;
    int entry = 1;
    Chips buy_in{}, fee{};
    TournamentChange change;
};

// One player's line of a finished hand for the statistics tables (docs/stats.md): the row it adds
// to (player, game, variant, structure, stake, position, table size, kind; the day is the hand's
// end) and what it adds (engine/stats/poker_stats.h).
struct StatsRow {
    std::int64_t account = 0;
    std::string game, variant, structure;
    Chips stake{};
    int position = 0, table_size = 0;
    bool tournament = false;
    stats::Line line;       // the seat is not stored; Chinese poker and leap rummy: net and rake
    stats::DealLine deal{}; // Chinese poker's and leap rummy's own
    // Poker: what the search over one's hands selects by (hand_search).
    std::string hole = {}; // two down cards as a class: "AKs", "AKo", "QQ"; "" with more or fewer
    Chips pot{};           // every pot of the hand together, rake included
    bool all_in = false;
};

// Which of a player's statistics rows a selection adds up: an empty field, every value.
struct StatsFilter {
    std::string game, variant, structure;
    std::optional<Chips> stake;
    std::optional<int> position, table_size;
    std::string from, to; // days, YYYY-MM-DD, both included
    bool tournament = false;
};

// A search over a player's poker hands (docs/stats.md): each field empty or unset, any.
struct HandSearch {
    std::string hole;   // a LIKE pattern over the class: "AKs", "AK_" (suited or not), "__s"
    bool pairs = false; // pocket pairs only
    std::optional<int> position;
    int result = 0; // 1 won (net above 0), -1 lost (below 0)
    std::optional<Chips> min_pot;
    std::optional<bool> showdown, all_in;
    std::string from, to; // days, YYYY-MM-DD, both included
    std::int64_t table = 0;
    std::int64_t before = 0; // hands below this id (0: from the newest)
    int limit = 50;
};

// One hand a search found.
struct SearchHit {
    std::int64_t hand = 0, table = 0;
    int number = 0;
    std::string ended_at, hole;
    int position = 0;
    Chips net{}, pot{};
    bool showdown = false, all_in = false;
};

// A day of a player's statistics rows added up: the points of their profit graph.
struct StatsDay {
    std::string day; // YYYY-MM-DD
    std::int64_t hands = 0;
    Chips net{}, showdown_net{};
    double ev_net = 0; // the net valued at the all-in equity
};

// What a viewer saw of an opponent at poker tables (the table overlay, docs/stats.md): the hands
// both were dealt, and the opponent's VPIP and PFR in them.
struct OpponentStats {
    std::string name; // the opponent's, as asked
    std::int64_t hands = 0;
    stats::Tally vpip = {}, pfr = {};
};

// A finished hand: its reveal, every seat's result (written to the seat's stack on the table
// too: a tournament's table has none), its log of events, in order, and at a tournament's table
// what it changed in the tournament, in the same transaction.
struct HandEnd {
    std::int64_t id = 0, table = 0;
    std::string deck, seed; // the deck as text (space-separated) and the reshuffle seed
    std::string fairness;   // protocol::opened_record: the salts and who saw each card
    std::vector<HandSeat> seats;
    std::vector<std::string> log;
    std::optional<TournamentChange> tournament = std::nullopt;
    std::vector<StatsRow> stats = {}; // each player's line, added to the statistics with the hand
    std::string day = {};             // theirs: YYYY-MM-DD; empty, today in UTC (bench_stats)
};

// A tournament's entry as stored.
struct TournamentEntry {
    std::int64_t account = 0;
    std::string name;
    Chips buy_in{}, fee{};
    std::string status; // registered, playing or out
    int place = 0;      // 0 until out (or won)
    Chips prize{};
    bool tied = false;
    int entry = 1;
    int rebuys = 0, add_ons = 0;
};

// A tournament as stored, with its entries in the order they registered.
struct TournamentRow {
    std::int64_t id = 0;
    std::string config;
    std::int64_t creator = 0;
    std::string creator_name;
    std::string status; // registering, running, finished or cancelled
    std::string state;  // "" before the start
    std::vector<TournamentEntry> entries;
};

// A tournament another node hosts (several nodes on one database), for this node's lobby of
// tournaments: its row, its entries counted, and where clients reach its node.
struct TournamentElsewhere {
    std::int64_t id = 0;
    std::string config, status, creator_name, url;
    int entrants = 0;
};

// A hand as a list shows it.
struct HandSummary {
    std::int64_t id = 0, table = 0;
    int number = 0;
    std::string status;               // running, finished or void
    std::string started_at, ended_at; // ISO 8601; ended_at "" while running
};

// A hand an account sat in, and how it went for them.
struct PlayerHand {
    HandSummary hand;
    int seat = 0;
    Chips start{}, end{};
    std::string config; // the hand's configuration (JSON), for what game it was
};

// A tournament an account entered, and how it went for them.
struct PlayerTournament {
    std::int64_t tournament = 0;
    std::string config; // JSON: protocol/tournament_config.h
    std::string status; // registering, running, finished or cancelled
    int entrants = 0;
    int place = 0; // 0 until out (or the winner)
    Chips prize{}, buy_in{}, fee{};
    bool tied = false;
    std::string ended_at; // ISO 8601; "" until it ends
};

// One hand in full, as written: its row, its seats (with their players' names) and its events
// (JSON, in order, with every card and its visibility).
struct HandRecord {
    struct Seat {
        int seat = 0;
        std::string name;
        std::int64_t account = 0;
        Chips start{}, end{};
    };
    HandSummary summary;
    std::string config, commitment;
    std::string deck, seed, fairness; // once finished; fairness "" for a protocol 1 hand
    std::vector<Seat> seats;
    std::vector<std::string> events;
};

// A hand's log as the database keeps it, one row a hand (hand_logs.body): its events one a line.
// JSON text holds no raw newline (json::dump escapes one inside a string), so the lines are the
// events. An event that held one would be read back as two: it is refused with
// std::invalid_argument instead, and the hand is not written.
std::string hand_log_text(const std::vector<std::string>& events);
// The events of a log written by hand_log_text, in order; none from "".
std::vector<std::string> hand_log_events(std::string_view text);

// What both engines say and share of tournaments.
namespace tournament_rows {
Refusal not_registering(std::int64_t tournament);
Refusal already_registered(std::int64_t tournament);
Refusal not_registered(std::int64_t tournament);
Refusal full(std::int64_t tournament, int max_entrants);
Refusal not_running(std::int64_t tournament);
// The ledger's reason for a purchase's price.
const char* purchase_reason(TournamentPurchase::Kind kind);
// A cancelled running tournament's pool left (`pool`: buy-ins less the prizes paid) shared by
// the entries still playing (`playing`, by account, in order) in proportion to their stacks
// (`stacks`, by account; an entry without one has none), rounded down, the odd chips one each to
// the largest stacks (the first of equal ones first); equally when no stack is known.
std::vector<std::pair<std::int64_t, Chips>>
shares(Chips pool, const std::vector<std::int64_t>& playing,
       const std::vector<std::pair<std::int64_t, Chips>>& stacks);
} // namespace tournament_rows

// A player's totals over finished hands.
struct PlayerTotals {
    std::string name;
    std::int64_t hands = 0, won = 0; // won: hands with a net gain
    Chips net{}, biggest_win{}, biggest_loss{};
};

// A seat an account holds at an open table of another node, and where that node is.
struct SeatElsewhere {
    std::int64_t table = 0;
    std::string url;
};

// A table this node's last run left open (at a graceful stop or not), which this run opens again:
// the recovery cashed its seats out and voided its running hand. `hands`: the hands it dealt, so
// that their numbers go on.
struct OpenTable {
    std::int64_t id = 0;
    std::string config;
    std::int64_t creator = 0;
    int hands = 0;
    std::string creator_name;
};

// What tending this node's place among the nodes did (Store::tend).
struct Tending {
    bool lease_held = true; // false: another node recovered this node's tables; it must stop
    int nodes_recovered = 0, tables_recovered = 0;
    // The tournaments of the nodes recovered, registering or running, now this node's to take
    // up (as after a restart), and their tables, open, with their hands so far (the hands that
    // were running are void).
    std::vector<TournamentRow> tournaments;
    std::map<std::int64_t, int> tournament_tables;
};

// This node among the nodes on one database (PostgreSQL): its name, a random name for this run
// of it, and how long its lease lasts unrenewed.
struct NodeIdentity {
    std::string id = "felt";
    std::string incarnation;
    std::chrono::seconds lease{10};
};

class Store {
  public:
    virtual ~Store() = default;

    // ---- accounts and sessions (accounts.h) ----
    // With a hash from hash_password(). Refusals: name_taken.
    virtual Outcome<Account> create_account(std::string_view name, const std::string& hash) = 0;
    virtual Outcome<Account> create_guest() = 0;
    // The account and its password hash, for verify_password. Empty when there is none.
    virtual std::optional<std::pair<Account, std::string>>
    find_with_hash(std::string_view name) = 0;
    virtual std::optional<Account> find_account(std::int64_t id) = 0;
    // A new session for the account: the token to give the client.
    virtual std::string open_session(std::int64_t account) = 0;
    // The account of a live session token (neither revoked nor expired); on the writer, the token
    // counts as used now. Refusals: unauthorized.
    virtual Outcome<Account> resume(std::string_view token) = 0;
    virtual void revoke(std::string_view token) = 0;
    // Revokes every token of the account but `keep` ("": all of them).
    virtual void revoke_all(std::int64_t account, std::string_view keep) = 0;
    // A new password hash, and every token of the account but `keep` revoked, in one transaction.
    virtual void change_password(std::int64_t account, const std::string& hash,
                                 std::string_view keep) = 0;

    // ---- the server's bots (accounts.bot; bots/bot_host.h) ----
    // Every bot account, oldest first.
    virtual std::vector<Account> bot_accounts() = 0;
    // A new bot account: named bot_name(), no password, no chips.
    virtual Account create_bot() = 0;
    // Grants the bot `amount` (a ledger row of reason grant) when the bots' balances together
    // stay within `bank`. Refusals: bot_bank_spent.
    virtual std::optional<Refusal> fund_bot(std::int64_t account, Chips amount, Chips bank) = 0;

    // ---- tables and the chips seated at them ----
    // A new table's row; its id.
    virtual std::int64_t create_table(const std::string& config, std::int64_t creator) = 0;
    // The table closed (idle, nobody seated): its row gets closed_at.
    virtual void close_table(std::int64_t table) = 0;
    // The tables this node's last run left open, as the recovery at opening found them; the
    // server opens each again. Given once: a second call returns none.
    virtual std::vector<OpenTable> left_open() = 0;
    // Moves `amount` from the account's balance to a seat. Refusals: insufficient_chips.
    virtual std::optional<Refusal> buy_in(std::int64_t table, int seat, std::int64_t account,
                                          Chips amount) = 0;
    // Moves a seat's stack back to its owner's balance and frees the seat.
    // Moves `amount` more from the account's balance to its seat (ledger reason top_up).
    // Refusals: insufficient_chips.
    virtual std::optional<Refusal> top_up(std::int64_t table, int seat, std::int64_t account,
                                          Chips amount) = 0;
    virtual void cash_out(std::int64_t table, int seat, std::int64_t account, Chips stack,
                          std::string_view reason) = 0;

    // ---- hands ----
    // The highest hand id used so far (0: none).
    virtual std::int64_t last_hand_id() = 0;
    // A block of hand ids that no other node will use: the first, and how many.
    virtual std::pair<std::int64_t, std::int64_t> reserve_hand_ids() = 0;
    virtual void start_hand(const HandStart& hand) = 0;
    // Throws when the hand's row is missing or no longer running (its start was never written):
    // such a hand cannot count.
    virtual void finish_hand(const HandEnd& hand) = 0;
    virtual void void_hand(std::int64_t hand_id) = 0;

    // ---- statistics (docs/stats.md) ----
    // Finished hands not counted into the statistics yet (finished before they were counted at
    // the end), with an id above `after`, lowest first, at most `limit`.
    virtual std::vector<std::int64_t> hands_to_count(std::int64_t after, int limit) = 0;
    // Counts a hand finished before: marks it counted and adds its rows under `day`. False, and
    // nothing written, when it was counted already (by another node, say).
    virtual bool count_hand_stats(std::int64_t hand_id, const std::vector<StatsRow>& rows,
                                  const std::string& day) = 0;
    // The sum of the account's rows that the filter selects (zeros when none does).
    virtual stats::Totals stats_of(std::int64_t account, const StatsFilter& filter) = 0;
    // What `viewer` saw of each of the accounts named (any case) at poker tables: zeros for a name
    // never met or unknown.
    virtual std::vector<OpponentStats> opponent_stats(std::int64_t viewer,
                                                      const std::vector<std::string>& names) = 0;
    // The account's finished poker hands the search selects, newest first, at most its limit.
    virtual std::vector<SearchHit> search_hands(std::int64_t account, const HandSearch& search) = 0;
    // The same rows added up by day, oldest first (none: empty).
    virtual std::vector<StatsDay> stats_days(std::int64_t account, const StatsFilter& filter) = 0;

    // ---- tournaments (tournaments/tournament.h) ----
    // A new tournament's row, registering; its id. A guarantee leaves the creator's balance
    // (tournament_guarantee) and is held with it. Refusal: insufficient_chips (the guarantee is
    // above the creator's balance; nothing is written).
    virtual std::variant<std::int64_t, Refusal>
    create_tournament(const std::string& config, std::int64_t creator, Chips guarantee) = 0;
    // Moves buy_in + fee from the account's balance to the tournament. Refusals:
    // insufficient_chips, already_registered, not_registering (it started, ended or was
    // cancelled; or there is none), tournament_full (`max_entrants` registered).
    virtual std::optional<Refusal> enter_tournament(std::int64_t tournament, std::int64_t account,
                                                    Chips buy_in, Chips fee, int max_entrants) = 0;
    // Gives the entry back what it paid and removes it. Refusals: not_registered,
    // not_registering.
    virtual std::optional<Refusal> leave_tournament(std::int64_t tournament,
                                                    std::int64_t account) = 0;
    // Registration closes: the tournament runs with its entries playing, from `state`; the
    // entries' fees go to its creator, and so does the part of its guarantee their buy-ins
    // cover (tournament_guarantee_back): the rest, the overlay, stays in the pool. False
    // (nothing written) unless it was registering.
    virtual bool start_tournament(std::int64_t tournament, const std::string& state) = 0;
    // A change outside a hand (the winner of a tournament whose last hand was written, a
    // decision between hands): as finish_hand writes one.
    virtual void change_tournament(const TournamentChange& change) = 0;
    // A purchase in the entry period, with the tournament's state after it: the price leaves
    // the account's balance (tournament_entry, tournament_rebuy, tournament_add_on) for the
    // pool, a new entry's fee going to the creator (tournament_fee); what the guarantee still
    // held covers of the buy-in goes back to the creator (tournament_guarantee_back: the pool
    // is the guarantee or what was paid in, whichever is more). A new entry's row is playing.
    // Refusals (nothing written): insufficient_chips, not_running, already_registered (a new
    // entry whose number the account has).
    virtual std::optional<Refusal> buy_in_tournament(std::int64_t tournament,
                                                     const TournamentPurchase& purchase) = 0;
    // Every entry gets back what it paid, if not out already (a finished entry keeps its
    // prize, and the rest of the pool, the overlay with it, is shared by those still in, in
    // proportion to their `stacks`, by account; the odd chips to the largest stacks); the
    // tournament is cancelled. Registering, the creator gets the guarantee back.
    // Nothing happens to one that finished or was cancelled.
    virtual void cancel_tournament(std::int64_t tournament,
                                   const std::vector<std::pair<std::int64_t, Chips>>& stacks) = 0;
    // One tournament with its entries; empty when there is none.
    virtual std::optional<TournamentRow> tournament(std::int64_t tournament) = 0;
    // The tournaments registering or running (on this node), oldest first, with their entries.
    virtual std::vector<TournamentRow> open_tournaments() = 0;

    // ---- history: the rows the history API is made from (history/history.h) ----
    // The account's hands, newest first: at most `limit`, with an id below `before` (0: from
    // the newest).
    virtual std::vector<PlayerHand> hands_of(std::int64_t account, std::int64_t before,
                                             int limit) = 0;
    // One hand with its seats (by seat) and its events (in order); empty when there is none.
    virtual std::optional<HandRecord> hand_record(std::int64_t hand_id) = 0;
    // A table's finished hands, newest first, at most `limit`; empty when there is no table.
    virtual std::optional<std::vector<HandSummary>> finished_hands(std::int64_t table,
                                                                   int limit) = 0;
    // A player's totals over finished hands; empty when no account has the name.
    virtual std::optional<PlayerTotals> totals_of(const std::string& name) = 0;
    // The tournaments the account entered (and did not leave), newest first, at most `limit`.
    virtual std::vector<PlayerTournament> tournaments_of(std::int64_t account, int limit) = 0;

    // ---- health ----
    // Why the store could not finish opening (a full disk kept the writer from recovering from an
    // unclean stop), or nothing. Until ready() succeeds, storage is failing and plays nothing.
    virtual std::optional<std::string> unready() const { return std::nullopt; }
    // Finishes opening, if unready(): called on the writer before every write. Throws while it
    // still cannot.
    virtual void ready() {}
    // A small write: throws while storage takes no writes.
    virtual void probe() = 0;
    // A small read: throws while storage cannot be read.
    virtual void check() = 0;

    // ---- the nodes sharing the database (PostgreSQL; on SQLite these do nothing) ----
    // Renews this node's lease; then, unless this node itself was cut off from the database
    // within the last lease, recovers the tables of every node whose lease lapsed, each once.
    virtual Tending tend() = 0;
    // How clients reach this node.
    virtual void announce(const std::string& url) = 0;
    // Where clients reach the node that hosts an open table of another node; empty when no
    // other node hosts it.
    virtual std::optional<std::string> node_url_of(std::int64_t table) = 0;
    // The same for a tournament registering or running on another node.
    virtual std::optional<std::string> node_url_of_tournament(std::int64_t tournament) = 0;
    // The tournaments registering or running on other nodes (that say where they are), by id.
    virtual std::vector<TournamentElsewhere> tournaments_elsewhere() = 0;
    // The seats an account holds at open tables of other nodes (that say where they are).
    virtual std::vector<SeatElsewhere> seats_elsewhere(std::int64_t account) = 0;
    // At a graceful stop: the lease lapses now, so that anything left is recovered at once.
    virtual void release() = 0;
    // Tells every other node `message` (JSON: a lobby change, a sign-out), through the database
    // (NOTIFY; storage/bulletin.h listens).
    virtual void notify(const std::string& message) = 0;

    // ---- group commit ----
    // Opens one transaction that the units of work run inside until commit_group(); a unit that
    // fails inside it leaves the whole group to be abandoned (rolled back).
    virtual void begin_group() = 0;
    virtual void commit_group() = 0;
    virtual void abandon_group() noexcept = 0;
};

} // namespace felt::server
