#include "net/ws_session.h"

#include "tables/games.h"

#include "history/history.h"
#include "tables/table.h"

#include <algorithm>
#include <limits>
#include <set>

namespace felt::server {

namespace {

// Frames in a row that are not JSON at all before the connection is closed as abuse.
constexpr int kMalformedLimit = 10;

// How long a password check waits once its account has had its share of checks
// (SharedState::checks_by_name): a delay, never a refusal, so that nobody can lock an owner out.
constexpr std::chrono::seconds kAccountPause{2};

std::string version_string() {
    return "feltd " FELT_VERSION;
}

} // namespace

WsSession::WsSession(PlainStream&& stream, std::shared_ptr<SharedState> state, std::string address)
    : WsSession(Stream(std::in_place_index<0>, std::move(stream)), std::move(state),
                std::move(address)) {}

WsSession::WsSession(TlsStream&& stream, std::shared_ptr<SharedState> state, std::string address)
    : WsSession(Stream(std::in_place_index<1>, std::move(stream)), std::move(state),
                std::move(address)) {}

WsSession::WsSession(Stream&& ws, std::shared_ptr<SharedState> state, std::string address)
    : ws_(std::move(ws)),
      executor_(std::visit([](auto& s) -> net::any_io_executor { return s.get_executor(); }, ws_)),
      state_(std::move(state)), address_(std::move(address)), tokens_(state_->config().burst),
      refilled_(std::chrono::steady_clock::now()), idle_(executor_),
      share_(state_->share_of(address_)) {
    if (auto* plain = std::get_if<0>(&ws_)) out_ = &plain->next_layer().guard();
}

std::unique_lock<std::mutex> WsSession::guard() {
    return out_ ? std::unique_lock(*out_) : std::unique_lock<std::mutex>();
}

void WsSession::shut_writes() {
    std::visit([](auto& ws) { ws.next_layer().shut(); }, ws_);
}

bool WsSession::writable() {
    return std::visit([](auto& ws) { return ws.next_layer().writable(); }, ws_);
}

bool WsSession::is_open() const {
    return std::visit([](const auto& ws) { return ws.is_open(); }, ws_);
}

WsSession::~WsSession() {
    state_->lobby().unwatch(this);
    for (std::int64_t id : tables_)
        if (auto t = state_->lobby().find(id)) t->disconnected(this);
    state_->leave(this);
    unqueue(queued_bytes_);
    state_->release(address_);
    if (dropping_) state_->release_memory_soon(); // what was queued for it is freed by now
    if (open_) {
        --state_->metrics().connections;
        spdlog::info("connection from {} closed{}", address_,
                     account_ ? " (" + account_->name + ")" : std::string());
    }
}

void WsSession::on_accept(beast::error_code ec) {
    if (ec) return fail(ec, "websocket accept");
    open_ = true;
    {
        auto lock = guard();
        std::visit([](auto& ws) { ws.next_layer().prepare_now(); }, ws_);
    }
    ++state_->metrics().connections;
    state_->join(this, weak_from_this());
    spdlog::info("connection from {}", address_);
    heard_ = std::chrono::steady_clock::now();
    watch_idle(heard_ + std::chrono::milliseconds(state_->config().idle_s * 500));
    do_read();
}

void WsSession::watch_idle(std::chrono::steady_clock::time_point due) {
    idle_.expires_at(due);
    idle_.async_wait([weak = weak_from_this()](beast::error_code ec) {
        if (auto self = weak.lock(); self && !ec) self->on_idle();
    });
}

void WsSession::on_idle() {
    if (!is_open() || closing_) return;
    const auto half = std::chrono::milliseconds(state_->config().idle_s * 500);
    const auto now = std::chrono::steady_clock::now();
    if (pinged_ && heard_ >= ping_sent_) pinged_ = false; // answered, or spoken since
    if (now - heard_ < half) return watch_idle(heard_ + half);
    if (!pinged_) {
        pinged_ = true;
        ping_sent_ = now;
        std::visit([&](auto& ws) { ws.async_ping({}, [self = shared_from_this()](auto) {}); }, ws_);
        return watch_idle(now + half);
    }
    spdlog::info("{}: silent for {} s, closed", address_, state_->config().idle_s);
    shut();
}

void WsSession::shut() {
    std::visit(
        [this](auto& ws) {
            {
                auto lock = guard();
                shut_writes();
            }
            beast::error_code ignored;
            beast::get_lowest_layer(ws).socket().close(ignored);
        },
        ws_);
}

void WsSession::do_read() {
    std::visit(
        [this](auto& ws) {
            ws.async_read(buffer_,
                          beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
        },
        ws_);
}

void WsSession::on_read(beast::error_code ec, std::size_t) {
    if (ec) { // the connection has failed or closed: nothing more is written
        auto lock = guard();
        shut_writes();
    }
    if (ec == websocket::error::message_too_big) {
        spdlog::warn("{}: frame over {} bytes, closing", address_, state_->config().max_frame);
        return; // Beast has already failed the connection with close code 1009
    }
    if (ec) return fail(ec, "websocket read");
    ++state_->metrics().messages_in;
    arrived_ = std::chrono::steady_clock::now();
    heard_ = arrived_;
    if (!std::visit([](const auto& ws) { return ws.got_text(); }, ws_)) {
        if (++malformed_ >= kMalformedLimit) {
            spdlog::warn("{}: {} frames in a row that are not JSON, closing", address_, malformed_);
            return close_after_writes(websocket::close_code::policy_error);
        }
        refuse(nullptr, "malformed", "frames are JSON text, not binary");
    } else {
        const std::string text = beast::buffers_to_string(buffer_.data());
        handle(text);
    }
    buffer_.consume(buffer_.size());
    if (is_open() && !closing_) do_read();
}

void WsSession::send(Messages messages) {
    if (out_) {
        std::lock_guard lock(*out_);
        return queue_guarded(messages);
    }
    send_later(std::move(messages));
}

void WsSession::send_later(Messages messages) {
    net::post(executor(),
              [self = shared_from_this(), m = std::move(messages)]() mutable { self->queue(m); });
}

void WsSession::close() {
    net::post(executor(), [self = shared_from_this()] {
        self->close_after_writes(websocket::close_code::going_away);
    });
}

// A close frame may not overlap a write: it goes out when the queue has drained. Nothing more is
// read or answered meanwhile.
void WsSession::close_after_writes(websocket::close_code code) {
    if (!is_open()) return;
    {
        auto lock = guard();
        if (closing_) return;
        closing_ = true;
        close_code_ = code;
        if (!waiting_.empty() || !writing_.empty()) return; // wrote() closes
    }
    do_close();
}

void WsSession::do_close() {
    std::visit(
        [this](auto& ws) {
            ws.async_close(close_code_, [self = shared_from_this()](beast::error_code ec) {
                fail(ec, "websocket close");
            });
        },
        ws_);
}

bool WsSession::take(Message& message) {
    const Config& c = state_->config();
    const std::size_t count = waiting_.size() + writing_.size();
    if (count >= static_cast<std::size_t>(c.write_queue) ||
        queued_bytes_ + message->size() > static_cast<std::size_t>(c.write_queue_bytes)) {
        spdlog::warn("{}: {} messages ({} bytes) waiting, dropping the slow client", address_,
                     count, queued_bytes_);
        closing_ = true; // nothing more is queued; the read fails next
        dropping_ = true;
        net::post(executor(), [self = shared_from_this()] { self->shut(); });
        return false;
    }
    const std::size_t n = message->size();
    queued_bytes_ += n;
    queued_now_.store(queued_bytes_, std::memory_order_relaxed);
    const std::size_t total = state_->queued_total().fetch_add(n, std::memory_order_relaxed) + n;
    const std::size_t mine = share_->queued.fetch_add(n, std::memory_order_relaxed) + n;
    waiting_.push_back(std::move(message));
    // Over a budget that many clients share: the largest are dropped, perhaps this one.
    if (total > static_cast<std::size_t>(c.write_queue_total))
        state_->shed(nullptr);
    else if (mine > static_cast<std::size_t>(c.write_queue_per_address))
        state_->shed(share_.get());
    return true;
}

void WsSession::unqueue(std::size_t bytes) {
    queued_bytes_ -= bytes;
    queued_now_.store(queued_bytes_, std::memory_order_relaxed);
    state_->queued_total().fetch_sub(bytes, std::memory_order_relaxed);
    share_->queued.fetch_sub(bytes, std::memory_order_relaxed);
}

void WsSession::drop() {
    if (dropping_.exchange(true)) return;
    spdlog::warn("{}: {} bytes waiting, dropped: the write-queue budget is spent", address_,
                 queued_now_.load(std::memory_order_relaxed));
    net::post(executor(), [self = shared_from_this()] {
        {
            auto lock = self->guard();
            self->closing_ = true; // nothing more is queued; the read fails next
        }
        self->shut();
    });
}

void WsSession::queue(Message message) {
    Messages one{std::move(message)};
    queue(one);
}

void WsSession::queue(Messages& messages) {
    auto lock = guard();
    queue_guarded(messages);
}

void WsSession::queue_guarded(Messages& messages) {
    if (closing_ || !writable()) return;
    for (Message& m : messages)
        if (!take(m)) return;
    if (writing_.empty()) do_write();
}

// Everything waiting goes out in one write: each message as one unmasked text frame (RFC 6455,
// 5.2), framed here rather than by Beast, which would write each on its own. Written at once when
// the socket takes it all (OrderedStream::write_now); what it does not take is written
// asynchronously.
void WsSession::do_write() {
    for (Message& m : waiting_) {
        const std::size_t n = m->size();
        writing_.push_back({std::move(m), text_frame_header(n)});
    }
    waiting_.clear();
    std::vector<net::const_buffer> buffers;
    buffers.reserve(2 * writing_.size());
    for (const Framed& f : writing_) {
        buffers.push_back(net::buffer(f.header.bytes.data(), f.header.size));
        buffers.push_back(net::buffer(*f.text));
    }
    std::visit(
        [&](auto& ws) {
            beast::error_code ec;
            const std::size_t sent = ws.next_layer().write_now(buffers, ec);
            if (ec) { // nothing more is written, nor queued; the read ends the session
                shut_writes();
                return fail(ec, "websocket write");
            }
            if (sent == net::buffer_size(buffers)) return wrote();
            // The rest. After Beast has sent a close frame (answering the client's), the layer
            // refuses the write.
            beast::buffers_suffix rest(buffers);
            rest.consume(sent);
            std::vector<net::const_buffer> left(rest.begin(), rest.end());
            auto done = beast::bind_front_handler(&WsSession::on_write, shared_from_this());
            if (out_) // held: the layer writes it from the strand
                ws.next_layer().write_rest(std::move(left), std::move(done));
            else
                ws.next_layer().async_write_some(std::move(left), std::move(done));
        },
        ws_);
}

void WsSession::on_write(beast::error_code ec, std::size_t) {
    auto lock = guard();
    if (ec) {
        shut_writes();
        return fail(ec, "websocket write");
    }
    wrote();
}

// The write of everything in writing_ has ended well: what waited meanwhile goes next.
void WsSession::wrote() {
    state_->metrics().messages_out += writing_.size();
    std::size_t written = 0;
    for (const Framed& f : writing_) written += f.text->size();
    unqueue(written);
    writing_.clear();
    if (!waiting_.empty())
        do_write();
    else if (closing_) // from the strand, without out_: Beast writes the close frame
        net::post(executor(), [self = shared_from_this()] { self->do_close(); });
}

void WsSession::reply(const protocol::Request& r, protocol::json fields) {
    queue(std::make_shared<const std::string>(protocol::reply(r, std::move(fields))));
    state_->metrics().request_latency.observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - arrived_).count());
}

void WsSession::refuse(const protocol::json& id, std::string code, std::string message) {
    refuse(id, {std::move(code), std::move(message)});
}

void WsSession::refuse(const protocol::json& id, const protocol::Refusal& why) {
    queue(std::make_shared<const std::string>(protocol::error(id, why)));
}

// A token bucket: `rate` a second, up to `burst`. A client that keeps sending after being told
// is closed once it has been refused a burst's worth of messages in a row.
bool WsSession::rate_ok() {
    const auto now = std::chrono::steady_clock::now();
    const Config& c = state_->config();
    tokens_ = std::min(c.burst,
                       tokens_ + std::chrono::duration<double>(now - refilled_).count() * c.rate);
    refilled_ = now;
    if (tokens_ >= 1) {
        tokens_ -= 1;
        strikes_ = 0;
        return true;
    }
    return false;
}

void WsSession::handle(std::string_view text) {
    auto parsed = protocol::parse_request(text);
    if (!rate_ok()) {
        if (++strikes_ > static_cast<int>(state_->config().burst)) {
            spdlog::warn("{}: flooding past the rate limit, closing", address_);
            return close_after_writes(websocket::close_code::policy_error);
        }
        // The dropped request's id, when it had one, so that the client knows which it was.
        const auto* r = std::get_if<protocol::Request>(&parsed);
        return refuse(r ? r->id : json(nullptr), "rate_limited",
                      "more than " + std::to_string(static_cast<int>(state_->config().rate)) +
                          " messages a second; this one was dropped");
    }
    if (auto* e = std::get_if<protocol::Refusal>(&parsed)) {
        if (e->code == "malformed" && ++malformed_ >= kMalformedLimit) {
            spdlog::warn("{}: {} frames in a row that are not JSON, closing", address_, malformed_);
            return close_after_writes(websocket::close_code::policy_error);
        }
        return refuse(nullptr, *e);
    }
    malformed_ = 0;
    const auto& r = std::get<protocol::Request>(parsed);
    try {
        dispatch(r);
    } catch (const std::exception& e) {
        // A bug: the client hears of it, the server goes on.
        spdlog::error("{}: {} failed: {}", address_, r.type, e.what());
        refuse(r.id, "internal", "the server could not complete this request");
    }
}

// Who may send a request: anyone, a connection that said hello, or a signed-in one.
enum class WsSession::Needs { nothing, hello, account };

// Every request type and its handler. A type missing here is unknown_type.
const std::map<std::string, WsSession::Handler, std::less<>>& WsSession::handlers() {
    using N = Needs;
    using protocol::Request;
    auto at_table = [](void (Table::*f)(std::shared_ptr<Recipient>, Account, protocol::Request)) {
        return [f](WsSession& s, const protocol::Request& r) { s.table_request(r, f); };
    };
    auto history = [](WsSession& s, const protocol::Request& r) { s.history_request(r); };
    static const std::map<std::string, Handler, std::less<>> table = {
        {"hello", {N::nothing, [](WsSession& s, const Request& r) { s.on_hello(r); }}},
        {"ping", {N::hello, [](WsSession& s, const Request& r) { s.reply(r); }}},
        {"register", {N::hello, [](WsSession& s, const Request& r) { s.log_in(r, true); }}},
        {"login", {N::hello, [](WsSession& s, const Request& r) { s.log_in(r, false); }}},
        {"guest", {N::hello, [](WsSession& s, const Request& r) { s.on_guest(r); }}},
        {"resume", {N::hello, [](WsSession& s, const Request& r) { s.on_resume(r); }}},
        {"me", {N::account, [](WsSession& s, const Request& r) { s.on_me(r); }}},
        {"logout", {N::account, [](WsSession& s, const Request& r) { s.on_logout(r); }}},
        {"change_password",
         {N::account, [](WsSession& s, const Request& r) { s.on_change_password(r); }}},
        {"tables", {N::account, [](WsSession& s, const Request& r) { s.on_tables(r); }}},
        {"watch_lobby", {N::account, [](WsSession& s, const Request& r) { s.on_watch_lobby(r); }}},
        {"unwatch_lobby",
         {N::account,
          [](WsSession& s, const Request& r) {
              s.state_->lobby().unwatch(&s);
              s.reply(r);
          }}},
        {"create_table",
         {N::account, [](WsSession& s, const Request& r) { s.on_create_table(r); }}},
        {"join", {N::account, at_table(&Table::join)}},
        {"spectate", {N::account, at_table(&Table::spectate)}},
        {"leave", {N::account, at_table(&Table::leave)}},
        {"act", {N::account, at_table(&Table::act)}},
        {"hint", {N::account, at_table(&Table::hint)}},
        {"preview", {N::account, at_table(&Table::preview)}},
        {"choose_deck", {N::account, at_table(&Table::choose_deck)}},
        {"chat", {N::account, at_table(&Table::chat)}},
        {"snapshot", {N::account, at_table(&Table::resend)}},
        {"sit_out", {N::account, at_table(&Table::sit_out)}},
        {"sit_in", {N::account, at_table(&Table::sit_in)}},
        {"top_up", {N::account, at_table(&Table::top_up)}},
        {"my_hands", {N::account, history}},
        {"hand", {N::account, history}},
        {"table_hands", {N::account, history}},
        {"totals", {N::account, history}},
        {"hand_phh", {N::account, history}},
    };
    return table;
}

void WsSession::dispatch(const protocol::Request& r) {
    auto it = handlers().find(r.type);
    if (it == handlers().end())
        return refuse(r.id, "unknown_type", "no request of type \"" + r.type + "\"");
    const Handler& h = it->second;
    if (h.needs != Needs::nothing && !hello_)
        return refuse(r.id, "hello_first", "say \"hello\" with your protocol version first");
    if (h.needs == Needs::account && !account_)
        return refuse(r.id, "unauthorized", "sign in first (register, login, guest or resume)");
    h.run(*this, r);
}

void WsSession::on_hello(const protocol::Request& r) {
    auto v = r.body.find("version");
    if (v == r.body.end() || !v->is_number_integer())
        return refuse(r.id, "bad_request", "\"hello\" needs an integer \"version\"");
    if (*v != protocol::kVersion)
        return refuse(r.id, "unsupported_version",
                      "this server speaks protocol version " + std::to_string(protocol::kVersion) +
                          ", not " + v->dump());
    hello_ = true;
    protocol::json fields{{"version", protocol::kVersion}, {"server", version_string()}};
    if (state_->config().chosen_decks) fields["chosen_decks"] = true; // a test server
    reply(r, std::move(fields));
}

// Runs job(store) in storage (a write, or a read) and done(result) back on this connection's
// strand; when storage fails the request is refused with `internal` instead.
template <class Job, class Done>
void WsSession::stored(const protocol::Request& r, Access access, Job job, Done done) {
    auto then = [self = shared_from_this(), r, access,
                 done = std::move(done)](auto result) mutable {
        if (access == Access::sign_in) self->busy_ = false;
        if (!result)
            return self->refuse(r.id, "internal", "the server could not complete this request");
        done(std::move(*result));
    };
    if (access == Access::read)
        state_->storage().read(std::move(job), executor(), std::move(then));
    else
        state_->storage().write(std::move(job), executor(), std::move(then));
}

// A sign-in may start: not signed in already, and no other sign-in being checked.
bool WsSession::may_sign_in(const protocol::Request& r) {
    if (account_) {
        refuse(r.id, "already_signed_in", "this connection is signed in");
        return false;
    }
    if (busy_) {
        refuse(r.id, "busy", "a sign-in is already being checked");
        return false;
    }
    return true;
}

bool WsSession::may_make_account(const protocol::Request& r) {
    if (state_->new_accounts().take(address_, std::chrono::steady_clock::now())) return true;
    refuse(r.id, "too_many_accounts",
           "this address has made " + std::to_string(state_->config().accounts_per_hour) +
               " accounts in the last hour; sign in to one of them");
    return false;
}

void WsSession::on_guest(const protocol::Request& r) {
    if (!may_sign_in(r) || !may_make_account(r)) return;
    busy_ = true;
    stored(
        r, Access::sign_in,
        [](Store& s) {
            auto made = s.create_guest();
            return std::pair{*made.value, s.open_session(made.value->id)};
        },
        [self = shared_from_this(), r](std::pair<Account, std::string> made) {
            self->signed_in(r, made.first, made.second);
        });
}

void WsSession::on_resume(const protocol::Request& r) {
    if (!may_sign_in(r)) return;
    auto token = protocol::string_field(r, "token", 1, 256);
    if (auto* e = std::get_if<protocol::Refusal>(&token)) return refuse(r.id, *e);
    busy_ = true;
    stored(
        r, Access::sign_in, [t = std::get<std::string>(token)](Store& s) { return s.resume(t); },
        [self = shared_from_this(), r, t = std::get<std::string>(token)](Outcome<Account> found) {
            if (!found.ok()) return self->refuse(r.id, found.refusal);
            self->signed_in(r, *found.value, t);
        });
}

void WsSession::on_me(const protocol::Request& r) {
    stored(
        r, Access::read, [id = account_->id](Store& s) { return s.find_account(id); },
        [self = shared_from_this(), r](std::optional<Account> a) {
            if (!self->account_) return self->refuse(r.id, "unauthorized", "signed out meanwhile");
            if (a) self->account_ = *a;
            const Account& me = *self->account_;
            self->reply(r, {{"account",
                             {{"id", me.id},
                              {"name", me.name},
                              {"guest", me.guest},
                              {"balance", me.balance}}}});
        });
}

// Revokes this connection's token, or with "everywhere" every token of the account, and signs
// out every connection signed in with what was revoked.
void WsSession::on_logout(const protocol::Request& r) {
    auto everywhere = protocol::bool_field(r, "everywhere", false);
    if (!everywhere.ok()) return refuse(r.id, everywhere.refusal);
    const bool all = *everywhere.value;
    stored(
        r, Access::write,
        [t = token_, id = account_->id, all](Store& s) {
            if (all)
                s.revoke_all(id, "");
            else
                s.revoke(t);
            return true;
        },
        [self = shared_from_this(), r, all](bool) {
            if (!self->account_) return self->reply(r); // signed out meanwhile
            spdlog::info("{} signed out{}", self->account_->name, all ? " everywhere" : "");
            self->state_->sign_out({self->account_->id, all ? "" : token_hash(self->token_), all},
                                   self.get());
            self->drop_account();
            self->reply(r);
        });
}

// A new password, once the current one checks out (failures count as failed sign-ins); every
// other token of the account is revoked and its connections signed out. This one stays in.
void WsSession::on_change_password(const protocol::Request& r) {
    if (account_->guest)
        return refuse(r.id, "no_password", "a guest account has no password to change");
    if (busy_) return refuse(r.id, "busy", "a sign-in is already being checked");
    auto old_password = protocol::string_field(r, "password", 0, 1024);
    if (auto* e = std::get_if<protocol::Refusal>(&old_password)) return refuse(r.id, *e);
    auto new_password = protocol::string_field(r, "new_password", 0, 1024);
    if (auto* e = std::get_if<protocol::Refusal>(&new_password)) return refuse(r.id, *e);
    if (auto bad = check_password(std::get<std::string>(new_password))) return refuse(r.id, *bad);
    std::string key = account_->name;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto now = std::chrono::steady_clock::now();
    if (state_->name_failures().wait(key, now).count() > 0)
        return refuse(r.id, "too_many_attempts",
                      "too many failed password checks for this account; try again later");
    if (!may_check_password(r)) return;
    busy_ = true;
    auto self = shared_from_this();
    auto check = [self, r, key, old = std::get<std::string>(old_password),
                  fresh = std::get<std::string>(new_password)](auto found) {
        self->hash_in_turn(r, [self, r, key, found, old, fresh] {
            const bool ok = found && *found && verify_password((*found)->second, old);
            std::string hash = ok ? hash_password(fresh) : std::string();
            net::post(self->executor(), [self, r, key, ok, hash = std::move(hash)] {
                if (!ok) {
                    self->busy_ = false;
                    self->state_->name_failures().fail(key, std::chrono::steady_clock::now());
                    return self->refuse(r.id, "unauthorized", "the password is wrong");
                }
                if (!self->account_) { // signed out meanwhile
                    self->busy_ = false;
                    return self->refuse(r.id, "unauthorized", "signed out meanwhile");
                }
                self->stored(
                    r, Access::sign_in,
                    [id = self->account_->id, hash, keep = self->token_](Store& s) {
                        s.change_password(id, hash, keep);
                        return true;
                    },
                    [self, r](bool) {
                        if (!self->account_) return self->reply(r);
                        spdlog::info("{} changed their password", self->account_->name);
                        self->state_->sign_out({self->account_->id, token_hash(self->token_), true,
                                                "password_changed"},
                                               self.get());
                        self->reply(r);
                    });
            });
        });
    };
    after_account_pause(key, [self, r, check = std::move(check)] {
        if (!self->account_) { // signed out meanwhile
            self->busy_ = false;
            return self->refuse(r.id, "unauthorized", "signed out meanwhile");
        }
        self->state_->storage().read(
            [name = self->account_->name](Store& s) { return s.find_with_hash(name); },
            self->executor(), check);
    });
}

void WsSession::sign_out(const SignOut& which) {
    net::post(executor(), [self = shared_from_this(), which] {
        if (!self->account_ || self->account_->id != which.account) return;
        const bool same = !which.token_hash.empty() && token_hash(self->token_) == which.token_hash;
        if (which.other_tokens ? same : !same) return;
        spdlog::info("{} signed out on {} ({})", self->account_->name, self->address_,
                     which.reason);
        self->drop_account();
        self->queue(std::make_shared<const std::string>(
            protocol::json{{"type", "signed_out"}, {"reason", which.reason}}.dump()));
    });
}

void WsSession::drop_account() {
    state_->lobby().unwatch(this);
    for (std::int64_t id : tables_)
        if (auto t = state_->lobby().find(id)) t->disconnected(this);
    tables_.clear();
    account_.reset();
    token_.clear();
}

// The lobby, a page at a time: tables by id, after `after`, at most `limit`; `next` continues.
void WsSession::on_tables(const protocol::Request& r) {
    const auto limit = protocol::integer_field(r, "limit", 50, 1, 100);
    if (!limit.ok()) return refuse(r.id, limit.refusal);
    const auto after = protocol::integer_field(r, "after", 0, 0);
    if (!after.ok()) return refuse(r.id, after.refusal);
    auto [list, next] = state_->lobby().lines(*after.value, *limit.value);
    reply(r, {{"tables", list}, {"next", next}});
}

// The lobby's first page, as `tables` gives it, and from now on every change pushed.
void WsSession::on_watch_lobby(const protocol::Request& r) {
    state_->lobby().watch(shared_from_this());
    on_tables(r);
}

// A new table of the game the request names ("poker" when it names none), through the registry
// (games.h); a configuration the game does not accept is refused with the field at fault.
void WsSession::on_create_table(const protocol::Request& r) {
    if (state_->stopping()) return refuse(r.id, "stopping", "the server is shutting down");
    auto name = r.body.find("game");
    if (name != r.body.end() && !name->is_string())
        return refuse(r.id, {"bad_config", "\"game\" must be a string", "game"});
    const std::string game_name = name == r.body.end() ? "poker" : name->get<std::string>();
    const GameEntry* game = find_game(game_name);
    if (!game)
        return refuse(
            r.id, {"bad_config", "no game \"" + game_name + "\" (" + game_names() + ")", "game"});
    auto decoded = game->decode(r.body, state_->services());
    if (!decoded.ok()) return refuse(r.id, decoded.refusal);
    if (const int quota = state_->config().tables_per_account;
        state_->lobby().created_by(account_->id) >= quota)
        return refuse(r.id, "too_many_tables",
                      "you have " + std::to_string(quota) +
                          " open tables already; a table closes once nobody has sat at it for " +
                          std::to_string(state_->config().table_idle_s) + " s");
    stored(
        r, Access::write,
        [config = decoded.value->config.dump(), creator = account_->id](Store& s) {
            return s.create_table(config, creator);
        },
        [self = shared_from_this(), r, make = decoded.value->make](std::int64_t id) {
            auto t = make(id);
            self->state_->lobby().add(t, self->account_ ? self->account_->id : 0);
            spdlog::info("{} created table {} ({})", self->account_ ? self->account_->name : "?",
                         id, t->describe());
            self->reply(r, {{"table", id}, {"config", t->config_json()}});
        });
}

// A request to one table: join, spectate, leave, act, hint, preview, choose_deck, chat, snapshot,
// sit_out, sit_in or top_up. The table answers.
void WsSession::table_request(const protocol::Request& r,
                              void (Table::*f)(std::shared_ptr<Recipient>, Account,
                                               protocol::Request)) {
    auto id = r.body.find("table");
    if (id == r.body.end() || !id->is_number_integer())
        return refuse(r.id, "bad_request", "\"" + r.type + "\" needs an integer \"table\"");
    const std::int64_t table = id->get<std::int64_t>();
    auto t = state_->lobby().find(table);
    if (!t && state_->clustered() && (r.type == "join" || r.type == "spectate")) {
        // Another node may host it (several nodes on one PostgreSQL database): the client is
        // sent there, to sign in with its token and ask again. One node asks nobody.
        return stored(
            r, Access::read, [table](Store& s) { return s.node_url_of(table); },
            [self = shared_from_this(), r, table](std::optional<std::string> url) {
                if (!url)
                    return self->refuse(r.id, "no_such_table",
                                        "there is no table " + std::to_string(table));
                self->refuse(r.id, {"moved",
                                    "table " + std::to_string(table) +
                                        " is on another node: connect to " + *url +
                                        ", sign in with your token and ask again",
                                    "", *url});
            });
    }
    if (!t) return refuse(r.id, "no_such_table", "there is no table " + id->dump());
    tables_.insert(t->id());
    ((*t).*f)(shared_from_this(), *account_, r);
}

// The history API over WebSocket: the same answers as GET /api/... (docs/protocol.md).
void WsSession::history_request(const protocol::Request& r) {
    // An integer field, or nothing once the request has been refused for it.
    auto integer = [&](const char* key, std::optional<std::int64_t> fallback,
                       std::int64_t lo) -> std::optional<std::int64_t> {
        auto v = protocol::integer_field(r, key, fallback, lo);
        if (!v.ok()) refuse(r.id, v.refusal);
        return v.value;
    };
    auto answer = [self = shared_from_this(), r](const Outcome<protocol::json>& o) {
        if (!o.ok()) return self->refuse(r.id, o.refusal);
        self->reply(r, *o.value);
    };
    const auto limit = integer("limit", 20, std::numeric_limits<std::int64_t>::min());
    if (!limit) return;
    const int n = static_cast<int>(*limit);
    if (r.type == "my_hands") {
        const auto before = integer("before", 0, std::numeric_limits<std::int64_t>::min());
        if (!before) return;
        return stored(
            r, Access::read,
            [me = account_->id, before = *before, n](Store& s) {
                return Outcome<protocol::json>{history::my_hands(s, me, before, n), {}};
            },
            answer);
    }
    if (r.type == "hand") {
        const auto id = integer("hand", std::nullopt, 0);
        if (!id) return;
        return stored(
            r, Access::read,
            [id = *id, me = account_->id](Store& s) { return history::hand(s, id, me); }, answer);
    }
    if (r.type == "hand_phh") {
        const auto id = integer("hand", std::nullopt, 0);
        if (!id) return;
        return stored(
            r, Access::read,
            [id = *id, me = account_->id](Store& s) {
                auto phh = history::hand_phh(s, id, me);
                if (!phh.ok()) return Outcome<protocol::json>{{}, phh.refusal};
                return Outcome<protocol::json>{protocol::json{{"hand", id}, {"phh", *phh.value}},
                                               {}};
            },
            answer);
    }
    if (r.type == "table_hands") {
        const auto id = integer("table", std::nullopt, 0);
        if (!id) return;
        return stored(
            r, Access::read, [id = *id, n](Store& s) { return history::table_hands(s, id, n); },
            answer);
    }
    std::string name = account_->name;
    if (auto it = r.body.find("name"); it != r.body.end()) {
        if (!it->is_string()) return refuse(r.id, "bad_request", "\"name\" must be a string");
        name = it->get<std::string>();
    }
    stored(
        r, Access::read, [name](Store& s) { return history::totals(s, name); }, answer);
}

void WsSession::signed_in(const protocol::Request& r, const Account& a, const std::string& token) {
    // Several nodes: a returning player is told of the seats it holds at other nodes' tables
    // (`elsewhere`), to go there. A lookup that fails costs only that list.
    if (state_->clustered() && (r.type == "resume" || r.type == "login")) {
        busy_ = true; // still signing in
        return state_->storage().read(
            [id = a.id](Store& s) { return s.seats_elsewhere(id); }, executor(),
            [self = shared_from_this(), r, a, token](std::optional<std::vector<SeatElsewhere>> e) {
                self->busy_ = false;
                self->welcome(r, a, token, e.value_or(std::vector<SeatElsewhere>{}));
            });
    }
    welcome(r, a, token, {});
}

void WsSession::welcome(const protocol::Request& r, const Account& a, const std::string& token,
                        const std::vector<SeatElsewhere>& elsewhere) {
    account_ = a;
    token_ = token;
    spdlog::info("{} signed in as {}{}", address_, a.name, a.guest ? " (guest)" : "");
    protocol::json fields = {
        {"account", {{"id", a.id}, {"name", a.name}, {"guest", a.guest}, {"balance", a.balance}}},
        {"token", token}};
    if (!elsewhere.empty()) {
        auto& list = fields["elsewhere"] = protocol::json::array();
        for (const SeatElsewhere& s : elsewhere)
            list.push_back({{"table", s.table}, {"url", s.url}});
    }
    reply(r, std::move(fields));
    // Seats held from an earlier connection come back, each with a snapshot after the reply.
    for (std::int64_t id : state_->lobby().seats_of(a.id))
        if (auto t = state_->lobby().find(id)) {
            tables_.insert(id);
            t->attach(shared_from_this(), a);
        }
}

// Register or log in: the password is hashed or checked on the worker pool (Argon2id is slow on
// purpose), and the reply comes back on this connection's strand.
void WsSession::log_in(const protocol::Request& r, bool create) {
    if (account_) return refuse(r.id, "already_signed_in", "this connection is signed in");
    if (busy_) return refuse(r.id, "busy", "a sign-in is already being checked");
    // Any length (the frame limit bounds it): a name too long is a bad name, or no account.
    auto name = protocol::string_field(r, "name", 0, std::numeric_limits<std::size_t>::max());
    if (auto* e = std::get_if<protocol::Refusal>(&name)) return refuse(r.id, *e);
    auto password = protocol::string_field(r, "password", 0, 1024);
    if (auto* e = std::get_if<protocol::Refusal>(&password)) return refuse(r.id, *e);
    if (create) {
        if (auto bad = check_name(std::get<std::string>(name))) return refuse(r.id, *bad);
        if (auto bad = check_password(std::get<std::string>(password))) return refuse(r.id, *bad);
        if (!may_make_account(r)) return;
    }
    // Failed sign-ins make the name, and the address, wait (net/limits.h). A name that has no
    // account counts as one that has.
    std::string key = std::get<std::string>(name).substr(0, 32);
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!create) {
        const auto now = std::chrono::steady_clock::now();
        const auto wait = std::max(state_->name_failures().wait(key, now),
                                   state_->address_failures().wait(address_, now));
        if (wait.count() > 0)
            return refuse(r.id, "too_many_attempts",
                          "too many failed sign-ins for this name or from this address; try "
                          "again in " +
                              std::to_string((wait.count() + 999) / 1000) + " s");
    }
    if (!may_check_password(r)) return;
    busy_ = true;
    auto self = shared_from_this();
    std::string who = std::get<std::string>(name), secret = std::get<std::string>(password);
    auto done = [self, r, key, create](std::pair<Outcome<Account>, std::string> out) {
        if (!create && !out.first.ok() && out.first.refusal.code == "unauthorized") {
            const auto now = std::chrono::steady_clock::now();
            self->state_->name_failures().fail(key, now);
            self->state_->address_failures().fail(self->address_, now);
        }
        if (!out.first.ok()) return self->refuse(r.id, out.first.refusal);
        if (!create) self->state_->name_failures().succeed(key);
        self->signed_in(r, *out.first.value, out.second);
    };
    // A new account and its first session, in one unit of work.
    auto open = [](Outcome<Account> out) {
        return [out](Store& s) {
            std::string token;
            if (out.ok()) token = s.open_session(out.value->id);
            return std::pair{out, token};
        };
    };
    if (create) {
        after_account_pause(key, [self, r, who, secret, done, open] {
            self->hash_in_turn(r, [self, r, who, secret, done, open] {
                std::string hash = hash_password(secret);
                self->stored(
                    r, Access::sign_in,
                    [who, hash, open](Store& s) { return open(s.create_account(who, hash))(s); },
                    done);
            });
        });
        return;
    }
    // The hash is read, then checked on the worker pool in this address's turn, then the session
    // opened.
    after_account_pause(key, [self, r, who, secret, done, open] {
        self->state_->storage().read(
            [who](Store& s) { return s.find_with_hash(who); }, self->executor(),
            [self, r, secret, done, open](auto found) {
                if (!found) {
                    self->busy_ = false;
                    return self->refuse(r.id, "internal",
                                        "the server could not complete this request");
                }
                self->hash_in_turn(r, [self, r, secret, done, open, found] {
                    // A name with no account costs the same check as one with a wrong password,
                    // and gets the same answer: nobody learns which names exist.
                    Outcome<Account> out;
                    if (*found ? verify_password((*found)->second, secret)
                               : (verify_password(no_account_hash(), secret), false))
                        out.value = (*found)->first;
                    else
                        out.refusal = {"unauthorized", "wrong name or password"};
                    self->stored(r, Access::sign_in, open(out), done);
                });
            });
    });
}

bool WsSession::may_check_password(const protocol::Request& r) {
    if (state_->checks_by_address().take(address_, std::chrono::steady_clock::now())) return true;
    refuse(r.id, "too_many_attempts",
           "too many password checks from this address; try again in a minute");
    return false;
}

void WsSession::after_account_pause(const std::string& name, std::function<void()> then) {
    if (state_->checks_by_name().take(name, std::chrono::steady_clock::now())) return then();
    auto pause = std::make_shared<net::steady_timer>(executor(), kAccountPause);
    pause->async_wait([pause, then = std::move(then)](beast::error_code) { then(); });
}

void WsSession::hash_in_turn(const protocol::Request& r, std::function<void()> job) {
    if (state_->password_checks().submit(address_, std::move(job))) return;
    busy_ = false;
    refuse(r.id, "busy",
           "this address has " + std::to_string(SharedState::kMostWaitingChecks) +
               " password checks waiting; try again shortly");
}

} // namespace felt::server
