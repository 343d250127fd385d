// The layer under Beast's websocket::stream through which every byte a connection sends passes:
// Beast's own writes (the upgrade's response, pings, pongs, the close frame) and the session's
// text frames, which the session frames itself and hands over several at a time, so that all the
// frames a connection has waiting go out in one write (docs/benchmarks.md, "Capacity").
//
// One write is in flight at a time. Every call to async_write_some writes its whole buffer before
// the next starts, so frames from Beast and from the session never interleave: each of Beast's
// control frames is one call. Reads pass straight through.
#pragma once

#include "net/net.h"
#include "ws_frame.h"

#include <boost/asio/any_completion_handler.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace felt::server {

using protocol::FrameHeader;

// The header of one unmasked text frame of `n` bytes with FIN set: what a server puts before each
// message it sends whole.
constexpr FrameHeader text_frame_header(std::size_t n) {
    return protocol::frame_header(protocol::Opcode::text, n, false);
}

template <class Next>
class OrderedStream {
  public:
    using next_layer_type = Next;
    using executor_type = typename Next::executor_type;

    template <class... Args>
    explicit OrderedStream(Args&&... args) : next_(std::forward<Args>(args)...) {}

    Next& next_layer() { return next_; }
    const Next& next_layer() const { return next_; }
    executor_type get_executor() { return next_.get_executor(); }

    // True once a close frame has been written (or is waiting to be): nothing may follow it
    // (RFC 6455, 5.5.1), so every later write completes with operation_aborted, writing nothing.
    bool close_sent() const { return close_sent_; }

    template <class MutableBuffers, class Token>
    auto async_read_some(const MutableBuffers& buffers, Token&& token) {
        return lowest().async_read_some(buffers, std::forward<Token>(token));
    }

    // Writes every byte of `buffers` (after what is in flight or waiting), then completes with
    // their size. The buffers must stay valid until then, as for any write.
    template <class ConstBuffers, class Token>
    auto async_write_some(const ConstBuffers& buffers, Token&& token) {
        return async_write_some(std::vector<net::const_buffer>(net::buffer_sequence_begin(buffers),
                                                               net::buffer_sequence_end(buffers)),
                                std::forward<Token>(token));
    }

    template <class Token>
    auto async_write_some(std::vector<net::const_buffer>&& buffers, Token&& token) {
        return net::async_initiate<Token, void(beast::error_code, std::size_t)>(
            [this](auto handler, std::vector<net::const_buffer> b) {
                if (close_sent_) {
                    const auto ex = net::get_associated_executor(handler, get_executor());
                    return net::post(ex, beast::bind_front_handler(std::move(handler),
                                                                   net::error::operation_aborted,
                                                                   std::size_t{0}));
                }
                if (!b.empty() && b.front().size() > 0 &&
                    *static_cast<const unsigned char*>(b.front().data()) == 0x88)
                    close_sent_ = true; // FIN and the close opcode: nothing may follow
                waiting_.push_back(Job{std::move(b), Handler(std::move(handler))});
                if (!writing_) start();
            },
            token, std::move(buffers));
    }

    // Writes now, on the caller's strand, when the connection is plain TCP and no write is in
    // flight or waiting: what the socket took without waiting, usually all of it (a connection's
    // frames are small and its socket's buffer large). 0 when the write must wait its turn, the
    // socket took nothing, or it failed (`ec`). What was not taken, the caller hands to
    // async_write_some. This spares nearly every message the asynchronous operation, its
    // completion and their hand-offs (docs/benchmarks.md, "Capacity").
    template <class ConstBuffers>
    std::size_t write_now(const ConstBuffers& buffers, beast::error_code& ec) {
        ec = {};
        if constexpr (!std::is_same_v<Next, beast::tcp_stream>) {
            return 0;
        } else {
            if (writing_ || close_sent_ || head_ < waiting_.size()) return 0;
            auto& socket = next_.socket();
            if (!socket.non_blocking()) socket.non_blocking(true, ec); // never waits
            const std::size_t n = ec ? 0 : socket.write_some(buffers, ec);
            if (ec == net::error::would_block || ec == net::error::try_again) ec = {};
            return n;
        }
    }

  private:
    void drop_waiting() {
        waiting_.clear();
        head_ = 0;
    }

    using Handler = net::any_completion_handler<void(beast::error_code, std::size_t)>;
    struct Job {
        std::vector<net::const_buffer> buffers;
        Handler done;
    };

    // What the bytes are written on: the socket itself under plain TCP (beast::tcp_stream adds
    // only timeouts, which the websocket stream keeps itself), the TLS stream otherwise.
    auto& lowest() {
        if constexpr (std::is_same_v<Next, beast::tcp_stream>)
            return next_.socket();
        else
            return next_;
    }

    // The write in flight owns its job's handler, so that a connection's pending operations own
    // it and not the other way round. Destroyed unrun (the io_context shutting down), it drops
    // the jobs still waiting, whose handlers would otherwise keep the connection alive for ever.
    struct Written {
        OrderedStream* self;
        Job job;
        Written(OrderedStream* s, Job j) : self(s), job(std::move(j)) {}
        Written(Written&& o) noexcept
            : self(std::exchange(o.self, nullptr)), job(std::move(o.job)) {}
        Written& operator=(Written&&) = delete;
        ~Written() {
            if (self) self->drop_waiting();
        }
        void operator()(beast::error_code ec, std::size_t bytes) {
            OrderedStream* s = std::exchange(self, nullptr);
            s->writing_ = false;
            if (!s->waiting_.empty()) {
                if (ec) {
                    // Nothing more can be written: the others hear of it too.
                    std::vector<Job> failed = std::exchange(s->waiting_, {});
                    for (std::size_t i = std::exchange(s->head_, 0); i < failed.size(); ++i)
                        std::move(failed[i].done)(ec, std::size_t{0});
                } else {
                    s->start();
                }
            }
            // On the connection's strand already (the socket's executor), as every handler of a
            // connection is: invoking the handler here is what dispatching it would do.
            std::move(job.done)(ec, bytes);
        }
    };

    void start() {
        writing_ = true;
        // Taken from the front by index: Asio 1.81's any_completion_handler cannot be
        // move-assigned (it recurses: chriskohlhoff/asio#1180), so the jobs are only ever moved
        // into new places.
        Job job = std::move(waiting_[head_]);
        if (++head_ == waiting_.size()) {
            waiting_.clear();
            head_ = 0;
        }
        // A view of the job's buffers, which stay where they are when the job moves.
        const std::span<const net::const_buffer> buffers(job.buffers);
        net::async_write(lowest(), buffers, Written(this, std::move(job)));
    }

    Next next_;
    std::vector<Job> waiting_; // from head_ on
    std::size_t head_ = 0;
    bool writing_ = false;
    bool close_sent_ = false;
};

// Beast's websocket::stream tears its next layer down by these names (found by argument lookup).
template <class Next>
void teardown(beast::role_type role, OrderedStream<Next>& s, beast::error_code& ec) {
    using beast::websocket::teardown;
    teardown(role, s.next_layer(), ec);
}

template <class Next, class Handler>
void async_teardown(beast::role_type role, OrderedStream<Next>& s, Handler&& handler) {
    using beast::websocket::async_teardown;
    async_teardown(role, s.next_layer(), std::forward<Handler>(handler));
}

} // namespace felt::server
