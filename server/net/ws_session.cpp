#include "net/ws_session.h"

#include "requests/router.h"

#include <algorithm>

namespace felt::server {

namespace {

// Frames in a row that are not JSON at all before the connection is closed as abuse.
constexpr int kMalformedLimit = 10;

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
    const std::string who = client.account ? " (" + client.account->name + ")" : std::string();
    requests::closed(*this);
    state_->leave(this);
    unqueue(queued_bytes_);
    state_->release(address_);
    if (dropping_) state_->release_memory_soon(); // what was queued for it is freed by now
    if (open_) {
        --state_->metrics().connections;
        spdlog::info("connection from {} closed{}", address_, who);
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
        refuse(nullptr, {"malformed", "frames are JSON text, not binary"});
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
    net::post(executor_,
              [self = shared_from_this(), m = std::move(messages)]() mutable { self->queue(m); });
}

void WsSession::close() {
    net::post(executor_, [self = shared_from_this()] {
        // At shutdown: a client that does not answer the close within a second (one that is not
        // reading) is let go then, rather than holding the stop for the whole grace period.
        std::visit(
            [](auto& ws) {
                websocket::stream_base::timeout t;
                ws.get_option(t);
                t.handshake_timeout = std::chrono::seconds(1);
                ws.set_option(t);
            },
            self->ws_);
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
        net::post(executor_, [self = shared_from_this()] { self->shut(); });
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
    net::post(executor_, [self = shared_from_this()] {
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
        net::post(executor_, [self = shared_from_this()] { self->do_close(); });
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
        return refuse(r ? r->id : protocol::json(nullptr),
                      {"rate_limited", "more than " +
                                           std::to_string(static_cast<int>(state_->config().rate)) +
                                           " messages a second; this one was dropped"});
    }
    if (auto* e = std::get_if<protocol::Refusal>(&parsed)) {
        if (e->code == "malformed" && ++malformed_ >= kMalformedLimit) {
            spdlog::warn("{}: {} frames in a row that are not JSON, closing", address_, malformed_);
            return close_after_writes(websocket::close_code::policy_error);
        }
        return refuse(nullptr, *e);
    }
    malformed_ = 0;
    requests::route(*this, std::get<protocol::Request>(parsed));
}

void WsSession::sign_out(const SignOut& which) {
    net::post(executor_, [self = shared_from_this(), which] { requests::sign_out(*self, which); });
}

void WsSession::balance(std::int64_t account, Chips balance) {
    net::post(executor_, [self = shared_from_this(), account, balance] {
        requests::tell_balance(*self, account, balance);
    });
}

void WsSession::news(std::shared_ptr<const TournamentNews> news) {
    net::post(executor_, [self = shared_from_this(), news = std::move(news)] {
        requests::tournament_news(*self, *news);
    });
}

} // namespace felt::server
