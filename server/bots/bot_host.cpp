#include "bots/bot_host.h"

#include "requests/router.h"
#include "state.h"

#include "seat_bot.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace felt::server {

using protocol::json;

// One bot at one table, as the request layer and the table see it: a connection like any other.
// Its messages come from the table's strand and are read on the bots' thread.
class BotHost::Seat : public Peer, public std::enable_shared_from_this<Seat> {
  public:
    Seat(const std::shared_ptr<BotHost>& host, Account account, std::int64_t table,
         std::unique_ptr<bots::SeatBot> bot)
        : host_(host), state_(host->state_.get()), ioc_(host->ioc_),
          executor_(ioc_->get_executor()), table_(table), think_(*ioc_), bot_(std::move(bot)) {
        client.hello = true;
        client.account = std::move(account);
    }

    // ---- Recipient and Connection: from any thread ----
    void send(Messages messages) override {
        net::post(executor_, [self = shared_from_this(), messages = std::move(messages)] {
            for (const Message& m : messages) self->read(*m);
        });
    }
    void close() override {}
    void sign_out(const SignOut&) override {}

    // ---- Peer: on the bots' thread ----
    std::shared_ptr<Peer> keep() override { return shared_from_this(); }
    const net::any_io_executor& strand() const override { return executor_; }
    const std::string& address() const override {
        static const std::string bots = "bots";
        return bots;
    }
    SharedState& state() override { return *state_; }
    void answer(Message message) override { send(Messages{std::move(message)}); }

    // A request of this bot's, through the request layer as a person's would go.
    void request(std::string type, json body = json::object()) {
        body["type"] = type;
        body["table"] = table_;
        const int id = ++requests_;
        if (type == "join") join_id_ = id;
        body["id"] = id;
        requests::route(*this, protocol::Request{std::move(type), id, std::move(body)});
    }
    // Gets up: at once if seated (the table lets it go after the hand), else once seated.
    void get_up() {
        leaving_ = true;
        think_.cancel();
        if (seated_) request("leave");
    }
    bool seated() const { return seated_; }

  private:
    void read(const std::string& text) {
        auto host = host_.lock();
        if (!host) return;
        host->log(client.account->name, text);
        const json m = json::parse(text, nullptr, false);
        if (!m.is_object() || gone_) return;
        const std::string type = m.value("type", "");
        if (type == "error" && m.value("id", json()) == join_id_) {
            spdlog::info("bot {}: table {} refused its seat: {}", client.account->name, table_,
                         m.value("message", ""));
            return end(*host, false);
        }
        if (type == "join") {
            seated_ = true;
            bot_->set_seat(m.value("seat", -1));
            if (leaving_) request("leave");
            return;
        }
        if (type != "table" || m.value("table", std::int64_t{0}) != table_) return;
        if (m.value("kind", "") == "left" && m.value("seat", -1) == bot_->seat() && seated_)
            return end(*host, true);
        if (auto a = bot_->on_message(m); a && !leaving_) {
            think_.expires_after(host->think(decision_ms()));
            think_.async_wait([self = shared_from_this(), a = std::move(*a)](error_code ec) {
                if (!ec && !self->leaving_ && !self->gone_) self->request("act", a);
            });
        }
    }
    int decision_ms() const {
        auto host = host_.lock();
        if (!host) return 0;
        const auto t = host->tables_.find(table_);
        return t == host->tables_.end() ? 0 : t->second.decision_ms;
    }
    // Off the table (`left`), or never seated: the bot is free for another.
    void end(BotHost& host, bool left) {
        gone_ = true;
        think_.cancel();
        host.gone(client.account->id, left);
    }

    std::weak_ptr<BotHost> host_;
    SharedState* state_;
    // The bots' event loop, kept for as long as the table holds this seat (it may outlive the
    // host): its timer is destroyed before the loop.
    std::shared_ptr<net::io_context> ioc_;
    net::any_io_executor executor_;
    std::int64_t table_;
    net::steady_timer think_;
    std::unique_ptr<bots::SeatBot> bot_;
    int requests_ = 0, join_id_ = 0;
    bool seated_ = false, leaving_ = false, gone_ = false;
};

BotHost::BotHost(std::shared_ptr<SharedState> state, std::string log) : state_(std::move(state)) {
    if (!log.empty()) log_.open(log, std::ios::app);
}

BotHost::~BotHost() {
    if (thread_.joinable()) {
        work_.reset();
        ioc_->stop();
        if (thread_.get_id() == std::this_thread::get_id())
            thread_.detach();
        else
            thread_.join();
    }
}

void BotHost::start() {
    state_->storage().read([](Store& s) { return s.bot_accounts(); }, ioc_->get_executor(),
                           [self = shared_from_this()](std::optional<std::vector<Account>> kept) {
                               for (const Account& a : kept ? *kept : std::vector<Account>{}) {
                                   auto b = std::make_unique<Bot>();
                                   b->account = a.id;
                                   b->name = a.name;
                                   self->ids_.insert(a.id);
                                   self->bots_.push_back(std::move(b));
                               }
                               self->loaded_ = true;
                               for (const TableSeating& s : std::exchange(self->waiting_, {}))
                                   self->changed(s);
                           });
    thread_ = std::thread([this] {
        for (;;) {
            try {
                ioc_->run();
                return;
            } catch (const std::exception& e) {
                spdlog::critical("a bot's handler failed (a bug): {}; the bots go on", e.what());
            }
        }
    });
}

void BotHost::stop() {
    net::post(*ioc_, [this] {
        for (auto& b : bots_) b->seat.reset();
    });
    work_.reset();
    if (thread_.joinable()) thread_.join();
}

void BotHost::seating(TableSeating s) {
    net::post(*ioc_, [self = shared_from_this(), s = std::move(s)] {
        if (!self->loaded_) return self->waiting_.push_back(s);
        self->changed(s);
    });
}

void BotHost::changed(const TableSeating& s) {
    if (s.closed)
        tables_.erase(s.table);
    else
        tables_[s.table] = s;
    std::vector<Bot*> here;
    for (auto& b : bots_)
        if (b->table == s.table && !b->leaving) here.push_back(b.get());
    const int people = static_cast<int>(
        std::ranges::count_if(s.seated, [this](std::int64_t a) { return !ids_.contains(a); }));
    // Bots play only with someone: people sitting out do not keep them at the table.
    const int away = static_cast<int>(
        std::ranges::count_if(s.away, [this](std::int64_t a) { return !ids_.contains(a); }));
    int want = 0;
    if (!s.closed && people > away) {
        // Leaving room for people: a seat kept free for the next one while the table has room
        // for a bot and a free seat, one bot at least.
        const int room = s.seats - people;
        want = std::min(s.bots, s.leave_for_people ? std::max(std::min(room, 1), room - 1) : room);
    }
    const int have = static_cast<int>(here.size());
    for (int k = have; k < want; ++k) sit_one(s);
    // The later in the pool get up first; a bot still sitting down gets up once seated.
    for (int k = have - 1; k >= std::max(want, 0); --k) get_up(*here[static_cast<std::size_t>(k)]);
}

void BotHost::sit_one(const TableSeating& s) {
    for (auto& b : bots_)
        if (b->table == 0 && b->account != 0 && !b->seat) {
            b->table = s.table;
            return join(*b, s);
        }
    // No bot free: a new one (its account), then the same.
    bots_.push_back(std::make_unique<Bot>());
    Bot* b = bots_.back().get();
    b->table = s.table;
    state_->storage().write([](Store& st) { return st.create_bot(); }, ioc_->get_executor(),
                            [self = shared_from_this(), b](std::optional<Account> a) {
                                if (!a) {
                                    b->table = 0; // storage failed: never used
                                    return;
                                }
                                b->account = a->id;
                                b->name = a->name;
                                self->ids_.insert(a->id);
                                spdlog::info("bot {} made", a->name);
                                const auto t = self->tables_.find(b->table);
                                if (t == self->tables_.end() || b->leaving) {
                                    b->table = 0;
                                    b->leaving = false;
                                    return;
                                }
                                const TableSeating& s = t->second;
                                self->join(*b, s);
                            });
}

void BotHost::join(Bot& b, const TableSeating& s) {
    // Two and a half times the least buy-in (100 big blinds by default), within the most.
    const std::int64_t buy_in = std::min(s.max_buy_in, s.min_buy_in * 5 / 2);
    const Chips bank(state_->config().bot_bank);
    const std::int64_t account = b.account;
    // Its balance topped up to the buy-in, within the bank.
    state_->storage().write(
        [account, want = Chips(buy_in), bank](Store& st) -> std::optional<Refusal> {
            const auto a = st.find_account(account);
            if (!a) return no_such_account();
            if (a->balance >= want) return std::nullopt;
            return st.fund_bot(account, want - a->balance, bank);
        },
        ioc_->get_executor(),
        [self = shared_from_this(), b = &b, table = s.table, level = s.level, game = s.game,
         buy_in](std::optional<std::optional<Refusal>> refused) {
            if (!refused || *refused) {
                spdlog::warn("bot {} cannot sit at table {}: {}", b->name, table,
                             refused ? (*refused)->message : "storage is failing");
                b->table = 0;
                b->leaving = false;
                return;
            }
            if (b->leaving || !self->tables_.contains(table)) { // not wanted any more
                b->table = 0;
                b->leaving = false;
                return;
            }
            bots::Profile p;
            p.kind = bots::parse_kind(level).value_or(bots::Kind::fair);
            // Each bot leans its own way, the same at every table.
            const auto kinds = bots::personalities();
            p.personality = kinds[static_cast<std::size_t>(b->account) % kinds.size()];
            auto bot = bots::make_seat_bot(game, p, static_cast<std::uint64_t>(b->account));
            if (!bot) { // a game the bots do not play (its configuration cannot ask for them)
                b->table = 0;
                return;
            }
            b->seat = std::make_shared<Seat>(
                self, Account{b->account, b->name, false, Chips{}, true}, table, std::move(bot));
            b->seat->request("join", {{"buy_in", buy_in}});
        });
}

void BotHost::get_up(Bot& b) {
    b.leaving = true;
    if (b.seat) b.seat->get_up();
}

BotHost::Bot* BotHost::find(std::int64_t account) {
    for (auto& b : bots_)
        if (b->account == account) return b.get();
    return nullptr;
}

void BotHost::gone(std::int64_t account, bool left) {
    Bot* b = find(account);
    if (!b) return;
    const std::int64_t table = b->table;
    b->table = 0;
    b->leaving = false;
    b->seat.reset();
    // Another may be wanted in its place (it went broke), or none. (A join refused is not tried
    // again until the table's seats change.)
    if (!left) return;
    if (const auto t = tables_.find(table); t != tables_.end()) changed(TableSeating(t->second));
}

std::chrono::milliseconds BotHost::think(int decision_ms) {
    const Config& c = state_->config();
    int lo = c.bot_think_min_ms, hi = std::max(c.bot_think_min_ms, c.bot_think_max_ms);
    // Well within the table's clock.
    if (decision_ms > 0) {
        hi = std::min(hi, decision_ms / 2);
        lo = std::min(lo, hi);
    }
    std::uniform_int_distribution<int> ms(lo, hi);
    return std::chrono::milliseconds(ms(rng_));
}

void BotHost::log(const std::string& name, const std::string& message) {
    if (!log_.is_open()) return;
    log_ << json{{"bot", name}, {"message", message}}.dump() << '\n';
    log_.flush();
}

} // namespace felt::server
