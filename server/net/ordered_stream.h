// The layer under Beast's websocket::stream through which every byte a connection sends passes:
// Beast's own writes (the upgrade's response, pings, pongs, the close frame) and the session's
// text frames, which the session frames itself and hands over several at a time, so that all the
// frames a connection has waiting go out in one write (docs/benchmarks.md, "Capacity").
//
// One write is in flight at a time. Every call to async_write_some writes its whole buffer before
// the next starts, so frames from Beast and from the session never interleave: each of Beast's
// control frames is one call. Reads pass straight through.
//
// The write state is guarded by a mutex (guard()), so that a table can write a session's frames
// from its own strand (write_now, write_rest) while Beast writes from the connection's: Beast's
// writes and their completions take it here, the session takes it around its own. Nothing is
// called with it held that could take it again. The socket is closed only once the layer is shut
// (shut(), and Beast's teardown, below), under the mutex: a write from another thread never
// reaches a descriptor that was closed, and perhaps given to another connection.
#pragma once

#include "net/net.h"
#include "protocol/ws_frame.h"

#include <boost/asio/any_completion_handler.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
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

    // Held around every use of the write state, on any thread (see the file's header).
    std::mutex& guard() { return guard_; }

    // True once a close frame has been written (or is waiting to be): nothing may follow it
    // (RFC 6455, 5.5.1), so every later write completes with operation_aborted, writing nothing.
    bool close_sent() const { return close_sent_; }

    // With guard() held, on the connection's strand, once the connection is accepted and before
    // any other thread writes: the session's frames may now be written (writable()). Under plain
    // TCP it makes the socket non-blocking, so that write_now never waits (and never changes the
    // socket's state later, while the strand may be reading it).
    void prepare_now() {
        open_ = true;
        if constexpr (std::is_same_v<Next, beast::tcp_stream>) {
            beast::error_code ec;
            next_.socket().non_blocking(true, ec);
            prepared_ = !ec;
        }
    }

    // With guard() held: the session's frames end here (its read or a write failed, or it is
    // closing the socket). Nothing more is written at once, nor queued by the session; Beast's
    // own writes (a close frame) still go the asynchronous way. The socket may now be closed.
    void shut() { shut_ = true; }
    // With guard() held: prepare_now has run, and shut has not.
    bool writable() const { return open_ && !shut_; }

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
                std::lock_guard lock(guard_);
                submit(Job{std::move(b), Handler(std::move(handler))}, true);
            },
            token, std::move(buffers));
    }

    // With guard() held, on any thread: writes now, when the connection is plain TCP, prepared
    // (prepare_now) and not shut, and no write is in flight or waiting. Returns what the socket
    // took without waiting, usually all of it (a connection's frames are small and its socket's
    // buffer large); 0 when the write must wait its turn, the socket took nothing, or it failed
    // (`ec`). What was not taken, the caller hands to write_rest. This spares nearly every
    // message the asynchronous operation, its completion and their hand-offs, and a table's
    // messages the hand-off to each connection's strand (docs/benchmarks.md, "Capacity").
    template <class ConstBuffers>
    std::size_t write_now(const ConstBuffers& buffers, beast::error_code& ec) {
        ec = {};
        if constexpr (!std::is_same_v<Next, beast::tcp_stream>) {
            return 0;
        } else {
            if (!prepared_ || shut_ || writing_ || close_sent_ || head_ < waiting_.size()) return 0;
            const std::size_t n = next_.socket().write_some(buffers, ec);
            if (ec == net::error::would_block || ec == net::error::try_again) ec = {};
            return n;
        }
    }

    // With guard() held, on any thread: async_write_some for a caller that holds the guard,
    // such as one whose write_now did not take everything. The write joins the queue at once,
    // so that whatever comes later (Beast's ping, say) waits behind the rest of a frame that
    // write_now began; it starts on the connection's strand. Completes as async_write_some does.
    template <class Token>
    void write_rest(std::vector<net::const_buffer>&& buffers, Token&& token) {
        submit(Job{std::move(buffers), Handler(std::forward<Token>(token))}, false);
    }

  private:
    using Handler = net::any_completion_handler<void(beast::error_code, std::size_t)>;
    struct Job {
        std::vector<net::const_buffer> buffers;
        Handler done;
    };

    // With the guard held: queues a job, and starts it if nothing is in flight (at once on the
    // strand, else through a post to it; meanwhile the layer counts as writing).
    void submit(Job job, bool on_strand) {
        if (close_sent_) // to the connection's strand, which every handler of it runs on
            return net::post(get_executor(), [done = std::move(job.done)]() mutable {
                std::move(done)(net::error::operation_aborted, std::size_t{0});
            });
        const auto& b = job.buffers;
        if (!b.empty() && b.front().size() > 0 &&
            *static_cast<const unsigned char*>(b.front().data()) == 0x88)
            close_sent_ = true; // FIN and the close opcode: nothing may follow
        waiting_.push_back(std::move(job));
        if (writing_) return;
        if (on_strand) return start();
        writing_ = true;
        net::post(get_executor(), Starter(this));
    }

    // Starts the queue from the strand. Destroyed unrun (the io_context shutting down), it drops
    // the jobs waiting, as Written does.
    struct Starter {
        OrderedStream* self;
        explicit Starter(OrderedStream* s) : self(s) {}
        Starter(Starter&& o) noexcept : self(std::exchange(o.self, nullptr)) {}
        Starter& operator=(Starter&&) = delete;
        ~Starter() {
            if (self) self->drop_waiting();
        }
        void operator()() {
            OrderedStream* s = std::exchange(self, nullptr);
            std::lock_guard lock(s->guard_);
            s->start();
        }
    };

    // Takes the jobs waiting under the guard, and destroys them after it: a job's handler may
    // hold the last reference to the connection that owns this layer and its mutex.
    void drop_waiting() {
        std::vector<Job> dropped;
        {
            std::lock_guard lock(guard_);
            dropped = std::exchange(waiting_, {});
            head_ = 0;
        }
    }

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
            std::vector<Job> failed;
            std::size_t from = 0;
            {
                std::lock_guard lock(s->guard_);
                s->writing_ = false;
                if (!s->waiting_.empty()) {
                    if (ec) { // nothing more can be written: the others hear of it too
                        failed = std::exchange(s->waiting_, {});
                        from = std::exchange(s->head_, 0);
                    } else {
                        s->start();
                    }
                }
            }
            // Without the mutex: a handler may write again.
            for (std::size_t i = from; i < failed.size(); ++i)
                std::move(failed[i].done)(ec, std::size_t{0});
            // On the connection's strand already (the socket's executor), as every handler of a
            // connection is: invoking the handler here is what dispatching it would do.
            std::move(job.done)(ec, bytes);
        }
    };

    // With the mutex held, on the strand: the next job waiting.
    void start() {
        // Taken from the front by index: Asio 1.81's any_completion_handler cannot be
        // move-assigned (it recurses: chriskohlhoff/asio#1180), so the jobs are only ever moved
        // into new places.
        Job job = std::move(waiting_[head_]);
        if (++head_ == waiting_.size()) {
            waiting_.clear();
            head_ = 0;
        }
        write(std::move(job));
    }
    void write(Job job) {
        writing_ = true;
        // A view of the job's buffers, which stay where they are when the job moves.
        const std::span<const net::const_buffer> buffers(job.buffers);
        net::async_write(lowest(), buffers, Written(this, std::move(job)));
    }

    Next next_;
    std::mutex guard_;
    std::vector<Job> waiting_; // from head_ on
    std::size_t head_ = 0;
    bool writing_ = false;
    bool close_sent_ = false;
    bool open_ = false;     // accepted (prepare_now)
    bool prepared_ = false; // and the socket is non-blocking
    bool shut_ = false;     // may be closed: the session writes no more
};

// Beast's websocket::stream tears its next layer down by these names (found by argument lookup).
// Either closes the socket, so the layer is shut first.
template <class Next>
void teardown(beast::role_type role, OrderedStream<Next>& s, beast::error_code& ec) {
    {
        std::lock_guard lock(s.guard());
        s.shut();
    }
    using beast::websocket::teardown;
    teardown(role, s.next_layer(), ec);
}

template <class Next, class Handler>
void async_teardown(beast::role_type role, OrderedStream<Next>& s, Handler&& handler) {
    {
        std::lock_guard lock(s.guard());
        s.shut();
    }
    using beast::websocket::async_teardown;
    async_teardown(role, s.next_layer(), std::forward<Handler>(handler));
}

} // namespace felt::server
