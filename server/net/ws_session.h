// One WebSocket connection: framing, the write queue, idle pings and the rate limit. What a
// request asks is the request layer's (requests/router.h), to which the connection is a Peer.
#pragma once

#include "net/net.h"
#include "net/ordered_stream.h"
#include "protocol/messages.h"
#include "requests/peer.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <variant>

namespace felt::server {

class WsSession : public std::enable_shared_from_this<WsSession>, public Peer {
  public:
    // Over plain TCP or TLS (after its handshake): the protocol is the same.
    WsSession(PlainStream&& stream, std::shared_ptr<SharedState> state, std::string address);
    WsSession(TlsStream&& stream, std::shared_ptr<SharedState> state, std::string address);
    ~WsSession();

    template <class Body, class Allocator>
    void run(http::request<Body, http::basic_fields<Allocator>> req) {
        std::visit(
            [&](auto& ws) {
                // The session watches a connection's silence itself (watch_idle): Beast's idle
                // timer would be cancelled and set again for every message read.
                auto timeouts =
                    websocket::stream_base::timeout::suggested(beast::role_type::server);
                timeouts.idle_timeout = websocket::stream_base::none();
                timeouts.keep_alive_pings = false;
                ws.set_option(timeouts);
                ws.control_callback([this](websocket::frame_type, beast::string_view) {
                    heard_ = std::chrono::steady_clock::now(); // a ping, a pong or a close
                });
                ws.set_option(websocket::stream_base::decorator(
                    [](websocket::response_type& res) { res.set(http::field::server, "feltd"); }));
                ws.read_message_max(state_->config().max_frame);
                ws.async_accept(
                    req, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
            },
            ws_);
    }

    // Queues text messages, to go out in one write; from any thread. Over plain TCP they are
    // written on the caller's thread when nothing waits before them (a table's messages no longer
    // go through the connection's strand); over TLS they go to the strand.
    void send(Messages messages) override;
    using Recipient::send;
    // Through the connection's strand, after the handler running there.
    void send_later(Messages messages) override;
    using Recipient::send_later;
    // Closes the connection (going away), at shutdown; from any thread. A client that does not
    // answer the close within a second is let go then.
    void close() override;
    void sign_out(const SignOut& which) override;
    void balance(std::int64_t account, Chips balance) override;
    void news(std::shared_ptr<const TournamentNews> news) override;
    std::size_t queued() const override { return queued_now_.load(std::memory_order_relaxed); }
    const AddressShare* share() const override { return share_.get(); }
    bool dropping() const override { return dropping_.load(std::memory_order_relaxed); }
    void drop() override;

    // What the request layer needs of the connection (requests/peer.h).
    std::shared_ptr<Peer> keep() override { return shared_from_this(); }
    const net::any_io_executor& strand() const override { return executor_; }
    const std::string& address() const override { return address_; }
    SharedState& state() override { return *state_; }
    void answer(Message message) override { queue(std::move(message)); }

  private:
    void on_accept(beast::error_code ec);
    void do_read();
    void on_read(beast::error_code ec, std::size_t bytes);
    void do_write(); // with out_ held, if any
    void on_write(beast::error_code ec, std::size_t bytes);
    void wrote(); // with out_ held, if any
    // A connection that sends nothing for --idle is closed; halfway it is pinged, and its pong
    // counts. One wait on the timer at a time: when it fires, it waits on to half an idle after
    // what was last heard, if that is later (no timer is touched for each message read).
    void watch_idle(std::chrono::steady_clock::time_point due);
    void on_idle();
    // Adds to what waits to be written, and writes it unless a write is in flight: on the strand,
    // or (plain TCP) on any thread. The write state below is guarded by out_, the stream layer's
    // mutex, under plain TCP (OrderedStream::guard); under TLS only the strand touches it.
    void queue(Message message);
    void queue(Messages& messages);
    void queue_guarded(Messages& messages); // with out_ held, if any
    std::unique_lock<std::mutex> guard();   // out_ held, when there is one
    // With out_ held, if any: nothing more is queued or written at once (the layer's
    // OrderedStream::shut); writable() until then, once accepted. The layer holds the one flag.
    void shut_writes();
    bool writable();
    bool take(Message& message);     // false when the client is too slow, and dropped
    void unqueue(std::size_t bytes); // written (or dropped): out of every count of queued bytes
    // Nothing more is written at once, and the socket is closed: on the strand.
    void shut();
    void close_after_writes(websocket::close_code code);
    void do_close();

    // One text frame in: to the request layer, within the rate limit.
    void handle(std::string_view text);
    void refuse(const protocol::json& id, const protocol::Refusal& why);
    bool rate_ok();

    using Stream = std::variant<websocket::stream<OrderedStream<PlainStream>>,
                                websocket::stream<OrderedStream<TlsStream>>>;
    WsSession(Stream&& ws, std::shared_ptr<SharedState> state, std::string address);
    bool is_open() const;

    Stream ws_;
    net::any_io_executor executor_; // the connection's strand, as the stream has it
    std::mutex* out_ = nullptr;     // the plain stream layer's guard; none under TLS
    beast::flat_buffer buffer_;
    // A message framed for the write in flight: the text frame's header, and the text.
    struct Framed {
        Message text;
        FrameHeader header;
    };
    std::vector<Message> waiting_;           // queued while a write was in flight
    std::vector<Framed> writing_;            // in the write in flight
    std::size_t queued_bytes_ = 0;           // in both
    std::atomic<std::size_t> queued_now_{0}; // the same, for other threads (SharedState::shed)
    std::atomic<bool> dropping_{false};      // dropped for what waits: too slow, or a budget
    std::shared_ptr<SharedState> state_;
    std::string address_;
    bool open_ = false;
    std::atomic<bool> closing_{false}; // set under out_
    websocket::close_code close_code_ = websocket::close_code::normal;

    double tokens_; // rate limiter: messages allowed now
    std::chrono::steady_clock::time_point refilled_;
    int strikes_ = 0;   // rate-limited messages since the last accepted one
    int malformed_ = 0; // frames in a row that were not JSON
    std::chrono::steady_clock::time_point arrived_;
    std::chrono::steady_clock::time_point heard_; // the last message or control frame read
    bool pinged_ = false;                         // for its silence, with no answer yet
    std::chrono::steady_clock::time_point ping_sent_;
    net::steady_timer idle_;
    std::shared_ptr<AddressShare> share_; // with the other connections of its address
};

} // namespace felt::server
