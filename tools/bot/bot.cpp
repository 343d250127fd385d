#include "bot.h"
#include "protocol/ws_frame.h"
#include "seat_bot.h"

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string_view>
#include <thread>
#include <utility>

namespace felt::bot {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// The protocol version the bots speak (docs/protocol.md): a client of its own, like any other.
constexpr int kProtocolVersion = 2;

struct Shared {
    Options options;
    net::io_context* stop_on_error = nullptr; // a run stops at its first error; a fleet plays on
    std::mutex mutex;
    Report report; // since the last Fleet::take
    int connected = 0;
    std::atomic<int> seated{0};
    void error(std::string e) {
        {
            std::lock_guard lock(mutex);
            if (report.errors.size() < 20) report.errors.push_back(std::move(e));
        }
        if (stop_on_error) stop_on_error->stop();
    }
};

// The client's side of the WebSocket protocol (RFC 6455), written out here: a bot needs only its
// small, fixed part, and Beast's general stream cost the load generator more CPU than the frames'
// system calls (docs/benchmarks.md). The handshake's key is the RFC's own example (4.1, 4.2.2): a
// key shows only that the server understood the upgrade, which the expected accept value checks;
// a fresh one guards caches and proxies, which a bot on a direct connection does not pass.
constexpr std::string_view kHandshakeKey = "dGhlIHNhbXBsZSBub25jZQ==";
constexpr std::string_view kHandshakeAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
constexpr std::size_t kMaxResponse = 8192;     // the upgrade's answer, headers and all
constexpr std::size_t kMaxMessage = 16u << 20; // feltd's own limit is far lower
using protocol::Opcode;

std::string upgrade_request(const std::string& host, const std::string& port) {
    std::string r = "GET /ws HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n";
    r += "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n";
    r += "Sec-WebSocket-Key: ";
    r += kHandshakeKey;
    r += "\r\n\r\n";
    return r;
}

// A client's frame: FIN and the opcode, the mask bit and the length (in 1, 3 or 9 bytes), the
// mask key, then the payload masked with it (RFC 6455, 5.2 and 5.3). A client must mask; the key
// comes from the bot's generator.
std::string client_frame(Opcode opcode, std::string_view payload, std::uint32_t key) {
    const protocol::FrameHeader h = protocol::frame_header(opcode, payload.size(), true);
    std::string f;
    f.reserve(h.size + 4 + payload.size());
    f.append(reinterpret_cast<const char*>(h.bytes.data()), h.size);
    char mask[4];
    std::memcpy(mask, &key, sizeof mask);
    f.append(mask, sizeof mask);
    for (std::size_t i = 0; i < payload.size(); ++i)
        f.push_back(static_cast<char>(payload[i] ^ mask[i % 4]));
    return f;
}

// A server's frame header at the front of `data` (RFC 6455, 5.2): nullopt until all of it has
// arrived; `masked` set means the server broke the protocol (its frames are never masked).
struct ServerFrame {
    Opcode opcode = Opcode::continuation;
    bool fin = false, masked = false;
    std::size_t header = 0;
    std::uint64_t length = 0;
};
std::optional<ServerFrame> server_frame(std::string_view data) {
    if (data.size() < 2) return std::nullopt;
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(data[i]); };
    ServerFrame f;
    f.fin = (byte(0) & 0x80) != 0;
    f.opcode = static_cast<Opcode>(byte(0) & 0x0F);
    f.masked = (byte(1) & 0x80) != 0;
    f.length = byte(1) & 0x7F;
    f.header = f.length == 126 ? 4 : f.length == 127 ? 10 : 2;
    if (data.size() < f.header) return std::nullopt;
    if (f.header > 2) {
        f.length = 0;
        for (std::size_t i = 2; i < f.header; ++i) f.length = f.length << 8 | byte(i);
    }
    return f;
}

// The length of the JSON object at the start of `text` (which starts with '{'), up to its
// closing brace; 0 if it does not close.
std::size_t object_end(std::string_view text) {
    int depth = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '\\')
                ++i; // the escaped character, a quote perhaps
            else if (c == '"')
                quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == '{') {
            ++depth;
        } else if (c == '}' && --depth == 0) {
            return i + 1;
        }
    }
    return 0;
}

class Bot;

// A bot's handlers run one at a time: on a strand when several threads run the bots, and on the
// io_context itself when one does (a strand would only add a lock and a queue to every handler).
net::any_io_executor executor(net::io_context& ioc, int threads) {
    if (threads > 1) return net::make_strand(ioc);
    return ioc.get_executor();
}

// The bots of one table: the first creates it, the others join once it exists.
struct Group {
    std::vector<std::shared_ptr<Bot>> bots;
    std::int64_t table = 0;
    std::atomic<int> away{0}; // bots that have left the table, are leaving it, or ended
};

class Bot : public std::enable_shared_from_this<Bot> {
  public:
    Bot(net::io_context& ioc, std::shared_ptr<Shared> shared, std::shared_ptr<Group> group,
        bool creator, std::uint32_t seed, int number = 0, std::string token = {})
        : socket_(executor(ioc, shared->options.threads)), resolver_(socket_.get_executor()),
          deadline_(socket_.get_executor()), pace_(socket_.get_executor()),
          think_(socket_.get_executor()), host_(shared->options.host), port_(shared->options.port),
          shared_(std::move(shared)), group_(std::move(group)), creator_(creator), seed_(seed),
          rng_(seed), number_(number), tokens_(shared_->options.burst), refilled_(Clock::now()) {
        token_ = std::move(token);
        reused_ = !token_.empty();
        if (const auto level = bots::parse_kind(shared_->options.level)) {
            bots::Profile p;
            p.kind = *level;
            if (auto q = bots::parse_personality(shared_->options.personality)) p.personality = *q;
            profile_ = p;
            seat_bot_ = bots::make_seat_bot("poker", p, seed);
        }
    }

    void start() {
        resolver_.async_resolve(host_, port_,
                                [self = shared_from_this(), g = generation_](
                                    beast::error_code ec, tcp::resolver::results_type results) {
                                    if (g == self->generation_) self->on_resolve(ec, results);
                                });
    }

    // The table exists: join it (from the creator's strand, so post to ours).
    void join(std::int64_t table) {
        net::post(socket_.get_executor(), [self = shared_from_this(), table] {
            self->table_ = table;
            if (self->signed_in_) self->send_join();
        });
    }

  private:
    void fail(beast::error_code ec, const char* what) {
        if (!done_) shared_->error(std::string(what) + ": " + ec.message());
        finish();
    }
    void fail(const std::string& why) {
        if (!done_) shared_->error(why);
        finish();
    }
    void finish() {
        if (finished_) return;
        finished_ = true;
        done_ = true;
        went_away();
        think_.cancel();
        deadline_.cancel();
        beast::error_code ignored;
        socket_.close(ignored);
    }

    void on_resolve(beast::error_code ec, const tcp::resolver::results_type& results) {
        if (ec) return fail(ec, "resolve");
        if (results.empty()) return fail(net::error::host_not_found, "resolve");
        const tcp::endpoint to = results.begin()->endpoint();
        const int sources = shared_->options.sources;
        if (sources > 1 && to.address().is_loopback() && to.address().is_v4()) {
            // 127.0.0.1 + (this bot's number modulo sources): the local ports of one source
            // address run out near 28,000 connections to one server.
            const auto source = net::ip::address_v4(
                net::ip::address_v4::loopback().to_uint() +
                static_cast<std::uint32_t>(seed_ % static_cast<std::uint32_t>(sources)));
            beast::error_code bind_ec;
            socket_.open(tcp::v4(), bind_ec);
            if (!bind_ec) socket_.bind(tcp::endpoint(source, 0), bind_ec);
            if (bind_ec) return fail(bind_ec, "bind");
        }
        // Connecting and the upgrade get 30 seconds.
        deadline_.expires_after(std::chrono::seconds(30));
        deadline_.async_wait([self = shared_from_this(), g = generation_](beast::error_code ec) {
            if (ec || g != self->generation_ || self->upgraded_) return;
            self->fail(net::error::timed_out, "connect");
        });
        socket_.async_connect(to,
                              [self = shared_from_this(), g = generation_](beast::error_code ec) {
                                  if (g == self->generation_) self->on_connect(ec);
                              });
    }
    void on_connect(beast::error_code ec) {
        if (ec) return fail(ec, "connect");
        beast::error_code ignored;
        socket_.set_option(tcp::no_delay(true), ignored);
        send_bytes(upgrade_request(host_, port_));
        do_read();
    }
    // The server's answer to the upgrade, once all of it has arrived: false if it refused.
    bool on_upgrade() {
        const std::string_view got(in_.data(), have_);
        const auto end = got.find("\r\n\r\n");
        if (end == std::string_view::npos) {
            if (have_ < kMaxResponse) return true; // more to come
            fail("handshake: the server's answer to the upgrade has no end");
            return false;
        }
        const std::string_view head = got.substr(0, end);
        if (head.rfind("HTTP/1.1 101", 0) != 0 || head.find(kHandshakeAccept) == head.npos) {
            fail("handshake: the server did not upgrade: " +
                 std::string(head.substr(0, head.find("\r\n"))));
            return false;
        }
        consume(end + 4);
        upgraded_ = true;
        deadline_.cancel();
        if (!moved_ && !renewed_) {
            std::lock_guard lock(shared_->mutex);
            ++shared_->connected;
        }
        send({{"type", "hello"}, {"id", 1}, {"version", kProtocolVersion}});
        return true;
    }

    void send(const json& j) { send_bytes(client_frame(Opcode::text, j.dump(), rng_())); }
    void send_bytes(std::string bytes) {
        queue_.push_back(std::move(bytes));
        if (!writing_) do_write();
    }
    // Paced: a token a write, `rate` a second up to `burst`; without one, the write waits.
    void do_write() {
        writing_ = true;
        const auto now = Clock::now();
        const Options& o = shared_->options;
        tokens_ = std::min(
            o.burst, tokens_ + std::chrono::duration<double>(now - refilled_).count() * o.rate);
        refilled_ = now;
        if (tokens_ < 1) {
            pace_.expires_after(std::chrono::duration_cast<Clock::duration>(
                std::chrono::duration<double>((1 - tokens_) / o.rate)));
            pace_.async_wait([self = shared_from_this(), g = generation_](beast::error_code ec) {
                if (!ec && g == self->generation_ && !self->finished_) self->do_write();
            });
            return;
        }
        tokens_ -= 1;
        // At once when the socket takes it all, as it nearly always does (a request is small):
        // no asynchronous write, and no completion to run later. What it does not take, or a
        // failure, goes the asynchronous way. Not while moving to another node, whose end of
        // the old connection on_write sees to.
        if (!moving_) {
            beast::error_code ec;
            if (!socket_.non_blocking()) socket_.non_blocking(true, ec);
            const std::size_t sent = ec ? 0 : socket_.write_some(net::buffer(queue_.front()), ec);
            if (!ec && sent == queue_.front().size()) return on_write({});
            if (!ec) queue_.front().erase(0, sent);
        }
        net::async_write(
            socket_, net::buffer(queue_.front()),
            [self = shared_from_this(), g = generation_](beast::error_code ec, std::size_t) {
                if (g == self->generation_) self->on_write(ec);
            });
    }
    void on_write(beast::error_code ec) {
        writing_ = false;
        queue_.pop_front();
        if (moving_ && (ec || (close_sent_ && queue_.empty()))) return moved_off();
        if (ec) return fail(ec, "write");
        if (!queue_.empty() && !finished_) do_write();
    }

    void do_read() {
        if (have_ == in_.size()) in_.resize(in_.size() * 2); // a message longer than the buffer
        socket_.async_read_some(
            net::buffer(in_.data() + have_, in_.size() - have_),
            [self = shared_from_this(), g = generation_](beast::error_code ec, std::size_t n) {
                if (g == self->generation_) self->on_read(ec, n);
            });
    }
    void on_read(beast::error_code ec, std::size_t n) {
        if (ec && moving_) return; // the old connection, closed to go elsewhere: on_write goes on
        if (ec) {
            if (done_) return finish();
            return fail(ec, "read");
        }
        have_ += n;
        const unsigned g = generation_;
        if (!upgraded_ && !on_upgrade()) return;
        if (upgraded_) frames();
        if (g == generation_ && !finished_) do_read();
    }
    // Every whole frame read so far, in order; what is left of a frame waits for the rest.
    void frames() {
        const unsigned g = generation_;
        std::size_t at = 0;
        while (g == generation_ && !finished_) {
            const std::string_view rest(in_.data() + at, have_ - at);
            const std::optional<ServerFrame> f = server_frame(rest);
            if (!f) break;
            if (f->masked || f->length > kMaxMessage)
                return fail(f->masked ? "read: the server masked a frame"
                                      : "read: a message longer than a bot accepts");
            if (rest.size() - f->header < f->length) break;
            const std::string_view payload = rest.substr(f->header, f->length);
            at += f->header + f->length;
            frame(*f, payload);
        }
        if (g == generation_ && !finished_) consume(at);
    }
    void frame(const ServerFrame& f, std::string_view payload) {
        switch (f.opcode) {
        case Opcode::text:
        case Opcode::continuation:
            if (f.fin && partial_.empty()) return on_message(payload);
            partial_.append(payload);
            if (f.fin) {
                on_message(partial_);
                partial_.clear();
            }
            return;
        case Opcode::ping:
            return send_bytes(client_frame(Opcode::pong, payload, rng_()));
        case Opcode::close:
            if (!close_sent_) { // echo it, as the protocol asks: the server then ends the TCP
                close_sent_ = true;
                send_bytes(client_frame(Opcode::close, payload.substr(0, 2), rng_()));
            }
            if (done_ || moving_) return;
            done_ = true; // what follows, the connection's end, is no further error
            shared_->error("read: the server closed the connection" +
                           (payload.size() > 2 ? ": " + std::string(payload.substr(2)) : ""));
            return;
        default:
            return; // a pong
        }
    }
    void consume(std::size_t n) {
        std::memmove(in_.data(), in_.data() + n, have_ - n);
        have_ -= n;
    }

    // A message from feltd. Most table messages need nothing from a bot: parse only those that
    // might (its turn, a seat left, a snapshot) and every reply; count a hand's end (the largest
    // message, with its fairness reveal) unparsed. The update before it carries a hand_end event
    // too. The load generator stays light: no copy, no tree.
    void on_message(std::string_view text) {
        if (done_) return;
        if (seat_bot_) return on_message_seen(text);
        auto has = [text](std::string_view what) {
            return memmem(text.data(), text.size(), what.data(), what.size()) != nullptr;
        };
        // feltd writes an object's keys in order, so "type" ends the messages it sends most (an
        // update, an action's reply); any other is searched.
        if (!text.ends_with(R"("type":"table"})") && !has(R"("type":"table")")) {
            if (has(R"("type":"act")") && has(R"("ok":true)"))
                return acted(); // an action's reply, one an action: nothing in it to read
            return handle(json::parse(text, nullptr, false));
        }
        if (has(R"("legal":)"))
            on_turn(text);
        else if (has(R"("kind":"left")") || has(R"("kind":"snapshot")"))
            handle(json::parse(text, nullptr, false));
        else if (has(R"("kind":"hand_end")") && !has(R"("kind":"update")"))
            hand_ended(); // the hand's end itself, not the update whose events end the hand
    }

    // This bot's turn, with what it may do: an action chosen, sent at once or after thinking.
    void take_turn(const json& legal) {
        if (leaving_ || seat_bot_) return;
        send_turn(choose(legal));
    }

    // A bot of a level (easy, fair, strong): every message read whole, the table's into the
    // bot's view of its seat (bots/seat_bot.h), which answers its turns. A table of another game
    // (Chinese poker, leap rummy or open-face, joined with --join) gets that game's seat bot, from
    // its snapshot.
    void on_message_seen(std::string_view text) {
        const json m = json::parse(text, nullptr, false);
        if (m.is_discarded()) return;
        if (m.value("type", "") == "table" && m.value("kind", "") == "snapshot" &&
            m.contains("config") && m["config"].is_object() && !snapshot_seen_) {
            snapshot_seen_ = true;
            const std::string game = m["config"].value("game", "poker");
            if (game != "poker")
                if (auto other = bots::make_seat_bot(game, profile_, seed_)) {
                    seat_bot_ = std::move(other);
                    if (seat_ >= 0) seat_bot_->set_seat(seat_);
                }
        }
        if (m.value("type", "") == "table")
            if (auto a = seat_bot_->on_message(m); a && !leaving_) send_turn(std::move(*a));
        handle(m);
    }

    // The action chosen for this bot's turn, sent at once or after thinking; null: the clock
    // acts for it.
    void send_turn(json a) {
        if (a.is_null()) return;
        a["type"] = "act";
        a["id"] = 5;
        a["table"] = table_;
        const Options& o = shared_->options;
        if (o.think_max_ms <= 0) return act(std::move(a));
        const int ms =
            o.think_min_ms + static_cast<int>(rng_() % static_cast<std::uint32_t>(
                                                           o.think_max_ms - o.think_min_ms + 1));
        think_.expires_after(std::chrono::milliseconds(ms));
        think_.async_wait([self = shared_from_this(), a = std::move(a)](beast::error_code ec) {
            if (!ec && !self->done_ && !self->leaving_) self->act(a);
        });
    }

    // An update that gives this bot its turn: only its `turn` object is parsed, not the events
    // before it. Anything else with legal actions (a snapshot) is parsed whole.
    void on_turn(std::string_view text) {
        const std::string_view key = R"("turn":{)";
        const auto at = text.find(key);
        if (at != text.npos && text.find(R"("kind":"update")") != text.npos) {
            const std::string_view object = text.substr(at + key.size() - 1);
            if (const std::size_t end = object_end(object)) {
                const json turn = json::parse(object.substr(0, end), nullptr, false);
                if (turn.is_object() && turn.contains("legal")) return take_turn(turn["legal"]);
            }
        }
        handle(json::parse(text, nullptr, false));
    }

    // The round trip of the action just answered.
    void acted() {
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - sent_).count();
        std::lock_guard lock(shared_->mutex);
        shared_->report.latencies_ms.push_back(ms);
    }

    void send_join() {
        send({{"type", "join"}, {"id", 4}, {"table", table_}, {"buy_in", buy_in_}});
    }

    void handle(const json& m) {
        const std::string type = m.value("type", "");
        if (type == "error" && m.value("code", "") == "moved" && !moved_ && !token_.empty())
            return move_to(m.value("url", ""));
        if (type == "error" && m.value("id", 0) == 8) return; // a rebuy too late: it waits
        // An account kept from an earlier run (Options::tokens) that is gone (another server,
        // signed out, lapsed): a new guest instead. One with too few chips left for the buy-in,
        // or with as many open tables as an account may create: a new guest too, on a new
        // connection.
        if (type == "error" && reused_ && !shared_->options.tournament && !moved_) {
            if (m.value("id", 0) == 2) {
                reused_ = false;
                token_.clear();
                return send({{"type", "guest"}, {"id", 2}});
            }
            if ((m.value("id", 0) == 4 && m.value("code", "") == "insufficient_chips") ||
                (m.value("id", 0) == 3 && m.value("code", "") == "too_many_tables"))
                return renew();
        }
        if (type == "error") {
            shared_->error(m.dump());
            return close();
        }
        if (type == "hello") {
            if (moved_ || !token_.empty())
                return send({{"type", "resume"}, {"id", 2}, {"token", token_}});
            return send({{"type", "guest"}, {"id", 2}});
        }
        if (type == "guest" || type == "resume") {
            signed_in_ = true;
            token_ = m.value("token", token_);
            if (m.contains("account") && m["account"].is_object())
                name_ = m["account"].value("name", name_);
            {
                std::lock_guard lock(shared_->mutex);
                if (static_cast<std::size_t>(number_) < shared_->report.tokens.size())
                    shared_->report.tokens[static_cast<std::size_t>(number_)] = token_;
            }
            if (const std::int64_t t = shared_->options.tournament) {
                // A bot signed in again is seated again by the server, if it runs (it asks, in
                // case it ended meanwhile); a new one registers, and so does one sent to the
                // tournament's node (moved) before it had.
                if (type == "resume" && (!moved_ || entered_)) {
                    registered();
                    return send({{"type", "tournament"}, {"id", 7}, {"tournament", t}});
                }
                return send({{"type", "tournament_register"}, {"id", 3}, {"tournament", t}});
            }
            if (shared_->options.join) { // its configuration first, from a snapshot
                table_ = shared_->options.join;
                return send({{"type", "spectate"}, {"id", 3}, {"table", table_}});
            }
            if (creator_ && !table_)
                return send({{"type", "create_table"},
                             {"id", 3},
                             {"seats", shared_->options.seats},
                             {"hand_delay_ms", 0},
                             // The table's clock outlasts any thinking.
                             {"decision_ms", std::max(shared_->options.decision_ms,
                                                      shared_->options.think_max_ms + 5000)}});
            if (table_) send_join();
            return;
        }
        if (type == "create_table") {
            table_ = m["table"];
            buy_in_ = m["config"]["min_buy_in"].get<std::int64_t>() * 2;
            send_join();
            for (auto& b : group_->bots)
                if (b.get() != this) b->join(table_);
            return;
        }
        if (type == "join") {
            seat_ = m.value("seat", -1);
            if (seat_bot_) seat_bot_->set_seat(seat_);
            ++shared_->seated;
            // Seated at an open table whose other players it saw there have all left meanwhile
            // (their hands played before it sat down): it leaves at once, as it would have had it
            // sat down first. (At a table it found empty, it waits for players.)
            if (shared_->options.join && saw_others_ && others_.empty() && !leaving_)
                return leave_table();
            // Seated at its group's table after the rest of the group had played their hands
            // and left (a bot that signed in anew comes late): nobody is left to play with.
            if (!shared_->options.join && !leaving_ &&
                group_->away.load() >= shared_->options.seats - 1)
                return leave_table();
            return;
        }
        if (type == "act") return acted();
        if (type == "tournament_register") return registered();
        if (type == "tournament" && !m.contains("id")) return tournament_news(m);
        if (type == "tournament") { // the state asked for after signing in again
            const std::string status = m["tournament"].value("status", "");
            if (status == "finished" || status == "cancelled") close();
            return;
        }
        if (type != "table") return;
        const std::string kind = m.value("kind", "");
        if (kind == "update" && m.contains("turn") && m["turn"].contains("legal"))
            return take_turn(m["turn"]["legal"]);
        if (kind == "hand_end" || kind == "deal_end" || kind == "game_end")
            return hand_ended();           // poker, Chinese poker, leap rummy
        if (shared_->options.tournament) { // its table is the tournament's: it follows it
            if (kind == "snapshot" && m.contains("your_seat") && m["your_seat"].is_number()) {
                seat_ = m["your_seat"];
                table_ = m.value("table", table_);
                if (m.contains("legal")) take_turn(m["legal"]);
            }
            return;
        }
        if (kind == "left" && m.value("seat", -1) == seat_) {
            if (!leaving_) { // cashed out with nothing left: broke
                std::lock_guard lock(shared_->mutex);
                ++shared_->report.broke;
            }
            return close();
        }
        // (Its own sitting down may be told before the join's reply names its seat: its name
        // tells it apart.)
        if (kind == "seated" && m.value("seat", -1) != seat_ && m.value("name", "") != name_) {
            others_.insert(m.value("seat", -1));
            saw_others_ = true;
        }
        if (kind == "left") others_.erase(m.value("seat", -1));
        // Alone at the table, with nobody to play: leave too. At a table of its own group, once
        // the others have left; at an open table it joined, once no other seat is taken (it may
        // have sat down after the others began, and they may leave with their hands played
        // while it still wants more, which no one would deal).
        if (kind == "left" && !leaving_ &&
            (shared_->options.join ? seat_ >= 0 && others_.empty()
                                   : ++gone_ >= shared_->options.seats - 1))
            return leave_table();
        if (kind == "snapshot" && m.contains("your_seat") && m["your_seat"].is_number())
            seat_ = m["your_seat"];
        if (kind == "snapshot" && m.contains("seats") && m["seats"].is_array()) {
            others_.clear();
            for (const json& s : m["seats"])
                if (s.is_object() && s.value("seat", -1) >= 0 && s.value("seat", -1) != seat_)
                    others_.insert(s.value("seat", -1));
            saw_others_ = saw_others_ || !others_.empty();
        }
        if (kind == "snapshot" && shared_->options.join && !asked_seat_) {
            asked_seat_ = true;
            const json& c = m["config"];
            buy_in_ = std::min(c.value("min_buy_in", std::int64_t{0}) * 2,
                               c.value("max_buy_in", std::int64_t{0}));
            send_join();
        }
    }

    // Registered (or signed in again): one more bot in the tournament.
    void registered() {
        entered_ = true;
        ++shared_->seated;
    }

    // A tournament's news: its start and each move (the table, the seat: the server seats its
    // connection there), and the end of it for this bot.
    void tournament_news(const json& m) {
        const std::string kind = m.value("kind", "");
        if (kind == "started" || kind == "moved" || kind == "seated") {
            table_ = m.value("table", table_);
            seat_ = m.value("seat", seat_);
            if (seat_bot_) seat_bot_->set_seat(seat_);
        }
        if (kind == "busted" && m.value("rebuy", false) && rebuys_ < shared_->options.rebuys) {
            ++rebuys_;
            send({{"type", "tournament_rebuy"},
                  {"id", 8},
                  {"tournament", m.value("tournament", 0)}});
        }
        if (kind == "cancelled") {
            leaving_ = true;
            close();
        }
        if (kind == "out" || kind == "won") {
            {
                std::lock_guard lock(shared_->mutex);
                shared_->report.places[number_] = m.value("place", 0);
            }
            leaving_ = true;
            close();
        }
    }

    void hand_ended() {
        if (shared_->options.tournament) {
            if (creator_) {
                std::lock_guard lock(shared_->mutex);
                ++shared_->report.hands;
            }
            return;
        }
        if (creator_) {
            std::lock_guard lock(shared_->mutex);
            ++shared_->report.hands;
        }
        if (++hands_ >= shared_->options.hands && !leaving_) leave_table();
    }

    void act(json a) {
        sent_ = Clock::now();
        {
            std::lock_guard lock(shared_->mutex);
            ++shared_->report.actions;
        }
        send(std::move(a));
    }

    // Mostly check or call, sometimes the smallest bet or raise, now and then a fold.
    // What the bot does with its turn; null to leave it to the table's clock. It keeps no cards:
    // at a draw it stands pat where it may (else the clock draws for it), and Mexican stud's
    // rollover it leaves to the clock.
    json choose(const json& legal) {
        const std::string phase = legal.value("phase", "betting");
        if (phase == "drawing") {
            if (legal.value("min_discard", 0) == 0 || legal.value("stand_pat", false))
                return {{"action", "discard"}, {"cards", ""}};
            return nullptr;
        }
        if (phase == "rollover") return nullptr;
        if (shared_->options.shove) { // all in whenever a bet or raise may be made
            if (legal.value("raise", false))
                return {{"action", "raise"}, {"amount", legal["max_to"]}};
            if (legal.value("bet", false)) return {{"action", "bet"}, {"amount", legal["max_to"]}};
            if (legal.value("call", false)) return {{"action", "call"}};
        }
        const int roll = static_cast<int>(rng_() % 10);
        if (legal.value("raise", false) && roll == 0)
            return {{"action", "raise"}, {"amount", legal["min_to"]}};
        if (legal.value("bet", false) && roll <= 1)
            return {{"action", "bet"}, {"amount", legal["min_to"]}};
        if (legal.value("check", false)) return {{"action", "check"}};
        if (legal.value("fold", false) && roll == 9) return {{"action", "fold"}};
        if (legal.value("call", false)) return {{"action", "call"}};
        if (legal.value("bring_in", false)) return {{"action", "bring_in"}};
        return {{"action", "fold"}};
    }

    // A kept account too poor for the buy-in, or with too many tables to create another: this
    // connection closes, and the bot signs in anew as a new guest (moved_off, with no token),
    // then creates or joins its table.
    void renew() {
        reused_ = false;
        renewed_ = true;
        token_.clear();
        signed_in_ = false;
        moving_ = true;
        send_close();
    }

    // The table is on another node (several nodes on one database): close this connection, then
    // connect to the node at `url` (ws://HOST:PORT/...) and sign in there with the same token.
    void move_to(const std::string& url) {
        const std::string prefix = "ws://";
        const auto colon = url.find(':', prefix.size());
        const auto slash = url.find('/', prefix.size());
        if (url.rfind(prefix, 0) != 0 || colon == std::string::npos || colon > slash) {
            shared_->error("moved to an address a bot cannot follow: " + url);
            return close();
        }
        host_ = url.substr(prefix.size(), colon - prefix.size());
        port_ = url.substr(colon + 1, slash == std::string::npos ? slash : slash - colon - 1);
        moved_ = moving_ = true;
        signed_in_ = false;
        asked_seat_ = false;
        send_close();
    }
    // The close frame is out: a new connection, to the new node. Whatever the old one still
    // completes belongs to an earlier generation and is ignored.
    void moved_off() {
        ++generation_;
        beast::error_code ignored;
        socket_.close(ignored);
        socket_ = tcp::socket(socket_.get_executor());
        have_ = 0;
        partial_.clear();
        queue_.clear();
        writing_ = upgraded_ = close_sent_ = moving_ = false;
        start();
    }

    // Gets up from the table, for good.
    void leave_table() {
        leaving_ = true;
        went_away();
        send({{"type", "leave"}, {"id", 6}, {"table", table_}});
    }
    // One more of its group away from the table (once a bot).
    void went_away() {
        if (!away_) ++group_->away;
        away_ = true;
    }

    // Leaves politely: the close frame, then reading on until the server ends the connection.
    void close() {
        done_ = true;
        went_away();
        send_close();
    }
    void send_close() {
        if (close_sent_) return;
        close_sent_ = true;
        const char normal[2] = {0x03, static_cast<char>(0xE8)}; // 1000, normal closure
        send_bytes(client_frame(Opcode::close, std::string_view(normal, 2), rng_()));
    }

    tcp::socket socket_; // anew after a move
    tcp::resolver resolver_;
    net::steady_timer deadline_; // connecting and the upgrade
    net::steady_timer pace_;     // holds a write back until a token comes
    net::steady_timer think_;    // a person's pace: the decision waits
    std::string host_, port_;    // the node connected to: the options', or where `moved` sent it
    std::string token_;          // the session, for signing in again on another node
    bool moved_ = false, moving_ = false;
    bool reused_ = false;     // signed in with an account of an earlier run
    bool renewed_ = false;    // that account was too poor: a new guest on a new connection
    bool entered_ = false;    // registered for its tournament (or signed in again as an entrant)
    int rebuys_ = 0;          // taken in its tournament
    unsigned generation_ = 0; // of the connection: a move starts the next
    std::vector<char> in_ = std::vector<char>(4096);
    std::size_t have_ = 0;          // bytes read into in_ and not yet taken
    std::string partial_;           // a message sent in several frames, so far
    std::deque<std::string> queue_; // bytes to send, one write each: frames (the upgrade first)
    bool writing_ = false, upgraded_ = false, close_sent_ = false;
    std::shared_ptr<Shared> shared_;
    std::shared_ptr<Group> group_;
    bool creator_;
    std::uint32_t seed_; // also the bot's number: it picks the source address
    std::mt19937 rng_;
    int number_ = 0; // among a tournament's bots
    bool signed_in_ = false, leaving_ = false, done_ = false, finished_ = false;
    bool asked_seat_ = false; // joining an open table: the join has been sent
    bool away_ = false;       // counted in its group's `away`
    std::int64_t table_ = 0, buy_in_ = 400;
    int seat_ = -1;
    std::unique_ptr<bots::SeatBot> seat_bot_; // a bot of a level; none: the light play
    bots::Profile profile_;                   // its level's
    bool snapshot_seen_ = false;              // the table's first snapshot: its game
    int hands_ = 0;
    int gone_ = 0;            // other seats that left the table
    std::string name_;        // its account's
    std::set<int> others_;    // the other seats taken, as this bot last saw them
    bool saw_others_ = false; // another seat was taken at some time since it came
    double tokens_;
    Clock::time_point refilled_;
    Clock::time_point sent_;
};

// One ping client: hello, then ping after ping until the deadline.
class Pinger : public std::enable_shared_from_this<Pinger> {
  public:
    Pinger(net::io_context& ioc, const Options& o, Clock::time_point deadline,
           std::atomic<long>& pairs, std::shared_ptr<Shared> shared)
        : ws_(net::make_strand(ioc)), resolver_(ws_.get_executor()), o_(o), deadline_(deadline),
          pairs_(pairs), shared_(std::move(shared)) {}
    void start() {
        resolver_.async_resolve(
            o_.host, o_.port, [self = shared_from_this()](beast::error_code ec, auto results) {
                if (ec) return self->shared_->error("resolve: " + ec.message());
                beast::get_lowest_layer(self->ws_).async_connect(
                    results, [self](beast::error_code ec, auto) {
                        if (ec) return self->shared_->error("connect: " + ec.message());
                        beast::error_code ignored;
                        beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true),
                                                                               ignored);
                        self->ws_.async_handshake(
                            self->o_.host, "/ws", [self](beast::error_code ec) {
                                if (ec) return self->shared_->error("handshake: " + ec.message());
                                self->exchange(json{
                                    {"type", "hello"}, {"id", 0}, {"version", kProtocolVersion}}
                                                   .dump());
                            });
                    });
            });
    }

  private:
    void exchange(std::string text) {
        out_ = std::move(text);
        ws_.text(true);
        ws_.async_write(
            net::buffer(out_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
                if (ec) return self->shared_->error("write: " + ec.message());
                self->ws_.async_read(self->buffer_, [self](beast::error_code ec, std::size_t) {
                    if (ec) return self->shared_->error("read: " + ec.message());
                    self->buffer_.consume(self->buffer_.size());
                    if (self->sent_ > 0) ++self->pairs_;
                    if (Clock::now() >= self->deadline_) {
                        self->ws_.async_close(websocket::close_code::normal,
                                              [self](beast::error_code) {});
                        return;
                    }
                    ++self->sent_;
                    self->exchange(R"({"type":"ping","id":1})");
                });
            });
    }

    websocket::stream<beast::tcp_stream> ws_;
    tcp::resolver resolver_;
    const Options& o_;
    Clock::time_point deadline_;
    std::atomic<long>& pairs_;
    std::shared_ptr<Shared> shared_;
    beast::flat_buffer buffer_;
    std::string out_;
    long sent_ = 0;
};

} // namespace

PingReport ping_flood(const Options& o, int connections, double seconds) {
    net::io_context ioc;
    auto shared = std::make_shared<Shared>();
    std::atomic<long> pairs{0};
    const auto t0 = Clock::now();
    const auto deadline =
        t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    for (int i = 0; i < connections; ++i)
        std::make_shared<Pinger>(ioc, o, deadline, pairs, shared)->start();
    std::vector<std::thread> threads;
    for (int i = 1; i < o.threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : threads) t.join();
    PingReport r;
    r.pairs = pairs;
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.errors = shared->report.errors;
    return r;
}

std::vector<std::string> exchange(const Options& o, const std::vector<std::string>& requests,
                                  std::string& error) {
    std::vector<std::string> replies;
    try {
        net::io_context ioc;
        tcp::resolver resolver(ioc);
        websocket::stream<tcp::socket> ws(ioc);
        net::connect(ws.next_layer(), resolver.resolve(o.host, o.port));
        ws.handshake(o.host, "/ws");
        auto call = [&](json request) {
            ws.write(net::buffer(request.dump()));
            for (;;) {
                beast::flat_buffer buffer;
                ws.read(buffer);
                json m = json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
                if (m.is_object() && m.contains("id") && m["id"] == request["id"]) return m;
            }
        };
        call({{"type", "hello"}, {"id", 0}, {"version", kProtocolVersion}});
        int id = 0;
        for (const std::string& text : requests) {
            json request = json::parse(text, nullptr, false);
            if (!request.is_object()) {
                error = "not a JSON object: " + text;
                break;
            }
            request["id"] = ++id;
            replies.push_back(call(std::move(request)).dump());
        }
        beast::error_code ignored;
        ws.close(websocket::close_code::normal, ignored);
    } catch (const std::exception& e) {
        error = e.what();
    }
    return replies;
}

bool parse_think(std::string_view text, Options& o) {
    const auto dash = text.find('-');
    const std::string_view lo = text.substr(0, dash);
    const std::string_view hi = dash == std::string_view::npos ? lo : text.substr(dash + 1);
    auto number = [](std::string_view t, int& out) {
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
        return !t.empty() && ec == std::errc{} && end == t.data() + t.size();
    };
    int min = 0, max = 0;
    if (!number(lo, min) || !number(hi, max) || min < 0 || max < min || max > 600000) return false;
    o.think_min_ms = min;
    o.think_max_ms = max;
    return true;
}

double Report::percentile(double p) const {
    if (latencies_ms.empty()) return 0;
    std::vector<double> v = latencies_ms;
    const auto k = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

Report run(const Options& o) {
    net::io_context ioc;
    auto shared = std::make_shared<Shared>();
    shared->options = o;
    shared->stop_on_error = &ioc;
    std::vector<std::shared_ptr<Group>> groups;
    std::uint32_t seed = o.seed;
    const int tables = o.tournament ? 1 : o.tables;
    shared->report.tokens.assign(static_cast<std::size_t>(tables * o.seats), std::string());
    if (o.tournament) shared->report.places.assign(static_cast<std::size_t>(o.seats), 0);
    for (int t = 0; t < tables; ++t) {
        auto g = std::make_shared<Group>();
        for (int s = 0; s < o.seats; ++s) {
            const auto k = static_cast<std::size_t>(t * o.seats + s);
            g->bots.push_back(
                std::make_shared<Bot>(ioc, shared, g, s == 0, seed++, static_cast<int>(k),
                                      k < o.tokens.size() ? o.tokens[k] : std::string()));
        }
        groups.push_back(g);
    }
    const auto t0 = Clock::now();
    for (auto& g : groups)
        for (auto& b : g->bots) b->start();
    std::vector<std::thread> threads;
    for (int i = 1; i < o.threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : threads) t.join();
    Report r = std::move(shared->report);
    r.bots = tables * o.seats;
    r.connected = shared->connected;
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    // The groups hold their bots and each bot its group: break the cycle.
    for (auto& g : groups) g->bots.clear();
    return r;
}

HttpAnswer http_get(const std::string& host, const std::string& port, const std::string& target,
                    double timeout_seconds) {
    namespace http = beast::http;
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    tcp::resolver resolver(ioc);
    HttpAnswer out;
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, host);
    req.set(http::field::user_agent, "felt health");
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    const auto timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(timeout_seconds));
    auto failed = [&](beast::error_code ec, const char* what) {
        out.error = std::string(what) + ": " +
                    (ec == beast::error::timeout ? std::string("no answer in time") : ec.message());
    };
    resolver.async_resolve(host, port, [&](beast::error_code ec, tcp::resolver::results_type r) {
        if (ec) return failed(ec, "resolve");
        stream.expires_after(timeout);
        stream.async_connect(r, [&](beast::error_code ec, const tcp::endpoint&) {
            if (ec) return failed(ec, "connect");
            http::async_write(stream, req, [&](beast::error_code ec, std::size_t) {
                if (ec) return failed(ec, "write");
                http::async_read(stream, buffer, res, [&](beast::error_code ec, std::size_t) {
                    if (ec) return failed(ec, "read");
                    out.status = static_cast<int>(res.result_int());
                    out.body = res.body();
                });
            });
        });
    });
    ioc.run();
    return out;
}

struct Fleet::Impl {
    net::io_context ioc;
    net::executor_work_guard<net::io_context::executor_type> work{ioc.get_executor()};
    std::shared_ptr<Shared> shared = std::make_shared<Shared>();
    std::mutex mutex; // guards groups and seed
    std::vector<std::shared_ptr<Group>> groups;
    std::uint32_t seed = 0;
    std::vector<std::thread> threads;
};

Fleet::Fleet(const Options& o) : impl_(std::make_unique<Impl>()) {
    impl_->shared->options = o;
    impl_->shared->options.hands = std::numeric_limits<int>::max();
    impl_->seed = o.seed;
    for (int i = 0; i < std::max(1, o.threads); ++i)
        impl_->threads.emplace_back([impl = impl_.get()] { impl->ioc.run(); });
}

Fleet::~Fleet() {
    impl_->ioc.stop();
    for (auto& t : impl_->threads) t.join();
    for (auto& g : impl_->groups) g->bots.clear();
}

void Fleet::add_tables(int tables) {
    std::vector<std::shared_ptr<Bot>> fresh;
    {
        std::lock_guard lock(impl_->mutex);
        for (int t = 0; t < tables; ++t) {
            auto g = std::make_shared<Group>();
            for (int s = 0; s < impl_->shared->options.seats; ++s)
                g->bots.push_back(
                    std::make_shared<Bot>(impl_->ioc, impl_->shared, g, s == 0, impl_->seed++));
            impl_->groups.push_back(g);
            fresh.insert(fresh.end(), g->bots.begin(), g->bots.end());
        }
    }
    for (auto& b : fresh) net::post(impl_->ioc, [b] { b->start(); });
}

int Fleet::seated() const {
    return impl_->shared->seated;
}

Report Fleet::take() {
    Shared& s = *impl_->shared;
    std::lock_guard lock(s.mutex);
    Report r = std::exchange(s.report, Report{});
    std::lock_guard groups(impl_->mutex);
    r.bots = static_cast<int>(impl_->groups.size()) * s.options.seats;
    r.connected = s.connected;
    return r;
}

} // namespace felt::bot
