#include "net/http_session.h"

#include "history/history.h"

#include "net/static_files.h"
#include "net/ws_session.h"

#include <charconv>
#include <filesystem>

namespace felt::server {

namespace {

constexpr auto kHttpTimeout = std::chrono::seconds(30);
constexpr std::size_t kBodyLimit = 16 * 1024;   // 413 past it
constexpr std::size_t kHeaderLimit = 16 * 1024; // the request line and headers: 431 past it ...
constexpr std::size_t kUrlLimit = 4 * 1024;     // ... or 414, when the request line is past this

// Shown at / until the web client exists, or when the static folder is missing.
constexpr const char* kPlaceholder = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Felt</title></head>
<body><h1>Felt</h1><p>This is feltd. The web client is not here yet; bots and scripts speak the
WebSocket protocol at <code>/ws</code> (see docs/protocol.md).</p></body></html>
)";

const char* mime_type(const std::filesystem::path& p) {
    const std::string ext = p.extension().string();
    if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
    if (ext == ".js" || ext == ".mjs") return "text/javascript";
    if (ext == ".css") return "text/css";
    if (ext == ".json") return "application/json";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    if (ext == ".wasm") return "application/wasm";
    return "application/octet-stream";
}

template <class Body>
http::message_generator make(const http::request<http::string_body>& req, http::status status,
                             const char* type, typename Body::value_type body) {
    http::response<Body> res{status, req.version()};
    res.set(http::field::server, "feltd");
    res.set(http::field::content_type, type);
    res.keep_alive(req.keep_alive());
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
}

http::message_generator text(const http::request<http::string_body>& req, http::status status,
                             const char* type, std::string body) {
    return make<http::string_body>(req, status, type, std::move(body));
}

http::message_generator json_error(const http::request<http::string_body>& req, http::status status,
                                   const std::string& code, const std::string& message) {
    return text(req, status, "application/json", protocol::error(nullptr, {code, message}) + "\n");
}

// A file under the static folder; "/" is index.html. Nothing outside the folder is served, nor
// the database, nor hidden files (static_files.h).
http::message_generator static_file(SharedState& state,
                                    const http::request<http::string_body>& req) {
    const auto relative = static_relative_path(req.target());
    if (!relative) return text(req, http::status::bad_request, "text/plain", "bad path\n");
    const auto guarded = database_files(state.config().db);
    beast::error_code ec;
    http::file_body::value_type body;
    beast::file file;
    if (!open_static(state.config().static_dir, *relative, guarded, file)) {
        if (*relative == "index.html")
            return text(req, http::status::ok, "text/html; charset=utf-8", kPlaceholder);
        return text(req, http::status::not_found, "text/plain", "not found\n");
    }
    body.reset(std::move(file), ec);
    if (ec)
        return text(req, http::status::internal_server_error, "text/plain", "unreadable file\n");
    if (req.method() == http::verb::head) {
        http::response<http::empty_body> res{http::status::ok, req.version()};
        res.set(http::field::server, "feltd");
        res.set(http::field::content_type, mime_type(*relative));
        res.content_length(body.size());
        res.keep_alive(req.keep_alive());
        return res;
    }
    return make<http::file_body>(req, http::status::ok, mime_type(*relative), std::move(body));
}

// "key=value&..." after the '?', as the fields of a request: an integer where the value is one
// (history::read_query refuses anything else where it wants one), else the text.
protocol::json query_fields(std::string_view target) {
    protocol::json fields = protocol::json::object();
    auto q = target.find('?');
    if (q == std::string_view::npos) return fields;
    std::string_view rest = target.substr(q + 1);
    while (!rest.empty()) {
        auto amp = rest.find('&');
        std::string_view pair = rest.substr(0, amp);
        if (auto eq = pair.find('='); eq != std::string_view::npos) {
            const std::string key(pair.substr(0, eq)), value(pair.substr(eq + 1));
            std::int64_t n = 0;
            auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
            if (!fields.contains(key))
                fields[key] =
                    ec == std::errc() && end == value.data() + value.size() && !value.empty()
                        ? protocol::json(n)
                        : protocol::json(value);
        }
        if (amp == std::string_view::npos) break;
        rest = rest.substr(amp + 1);
    }
    return fields;
}

// An answer from storage, made into a response back on the connection's strand.
struct Answer {
    http::status status = http::status::ok;
    const char* type = "application/json";
    std::string body;
};

Answer json_answer(http::status status, const std::string& code, const std::string& message) {
    return {status, "application/json", protocol::error(nullptr, {code, message}) + "\n"};
}

// The history API: GET /api/me/hands, /api/me/tournaments, /api/me/stats, /api/hands/ID,
// /api/tables/ID/hands, /api/players/NAME/totals. A session token in "Authorization: Bearer TOKEN"
// identifies the asker (required for /api/me, optional elsewhere: it shows the asker's own cards).
// Runs on storage's reader, as one unit of work.
Answer api(Store& store, const std::string& target, const std::optional<std::string>& token) {
    std::string_view path = std::string_view(target).substr(0, target.find('?'));
    std::int64_t asker = 0;
    std::string asker_name;
    if (token) {
        auto who = store.resume(*token);
        if (!who.ok())
            return json_answer(http::status::unauthorized, "unauthorized", who.refusal.message);
        asker = who.value->id;
        asker_name = who.value->name;
    }
    auto id_between = [](std::string_view p, std::string_view head,
                         std::string_view tail) -> std::optional<std::int64_t> {
        if (p.size() <= head.size() + tail.size() || p.substr(0, head.size()) != head ||
            p.substr(p.size() - tail.size()) != tail)
            return std::nullopt;
        std::string digits(p.substr(head.size(), p.size() - head.size() - tail.size()));
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
            digits.size() > 18)
            return std::nullopt;
        return std::stoll(digits);
    };
    // The path names the request, as its WebSocket twin; history::read_query reads both.
    protocol::Request r{"", nullptr, query_fields(target)};
    const std::string_view players = "/api/players/", tot = "/totals";
    if (path == "/api/me/hands") {
        r.type = "my_hands";
    } else if (path == "/api/me/tournaments") {
        r.type = "my_tournaments";
    } else if (path == "/api/me/stats") {
        r.type = "stats";
    } else if (auto phh = id_between(path, "/api/hands/", "/phh")) {
        r.type = "hand_phh";
        r.body["hand"] = *phh;
    } else if (auto hand = id_between(path, "/api/hands/", "")) {
        r.type = "hand";
        r.body["hand"] = *hand;
    } else if (auto table = id_between(path, "/api/tables/", "/hands")) {
        r.type = "table_hands";
        r.body["table"] = *table;
    } else if (path.size() > players.size() + tot.size() &&
               path.substr(0, players.size()) == players &&
               path.substr(path.size() - tot.size()) == tot) {
        r.type = "totals";
        r.body["name"] =
            std::string(path.substr(players.size(), path.size() - players.size() - tot.size()));
    }
    if (r.type.empty())
        return json_answer(http::status::not_found, "not_found",
                           "no such API: " + std::string(path));
    if ((r.type == "my_hands" || r.type == "my_tournaments" || r.type == "stats") && !asker)
        return json_answer(http::status::unauthorized, "unauthorized",
                           "send your session token as \"Authorization: Bearer TOKEN\"");
    auto query = history::read_query(r);
    if (!query.ok())
        return json_answer(http::status::bad_request, query.refusal.code, query.refusal.message);
    if (r.type == "stats")
        if (auto no = history::stats_private(*query.value, asker_name))
            return json_answer(http::status::forbidden, no->code, no->message);
    auto answered = history::answer(store, *query.value, asker);
    if (!answered.ok())
        return json_answer(http::status::not_found, answered.refusal.code,
                           answered.refusal.message);
    if (r.type == "hand_phh")
        return {http::status::ok, "application/toml", (*answered.value)["phh"].get<std::string>()};
    return {http::status::ok, "application/json", answered.value->dump() + "\n"};
}

// /healthz: 200 "ok" while feltd serves and storage works. While storage fails, a check tries a
// small write, so the answer is 200 again once it works: at most one a second, so that a flood of
// checks cannot flood the writer; the checks between answer from the last one.
void health(SharedState& state, const http::request<http::string_body>& req,
            const net::any_io_executor& ex, const Reply& reply) {
    if (state.stopping())
        return reply(text(req, http::status::service_unavailable, "text/plain", "stopping\n"));
    auto done = [&state, req, reply](std::optional<bool> ok) {
        if (ok) return reply(text(req, http::status::ok, "text/plain", "ok\n"));
        reply(text(req, http::status::service_unavailable, "text/plain",
                   "storage failing: " +
                       state.storage().failure().value_or("the database cannot be read") + "\n"));
    };
    if (state.storage().failing() && !state.storage().probe_due(std::chrono::steady_clock::now()))
        return done(std::nullopt);
    if (state.storage().failing())
        return state.storage().write(
            [](Store& s) {
                s.probe();
                return true;
            },
            ex, done);
    state.storage().read(
        [](Store& s) {
            s.check();
            return true;
        },
        ex, done);
}

} // namespace

void respond(SharedState& state, http::request<http::string_body>&& req, const std::string& address,
             const net::any_io_executor& ex, const Reply& reply) {
    ++state.metrics().http_requests;
    const std::string_view target = req.target();
    if (target.size() > kUrlLimit)
        return reply(json_error(req, http::status::uri_too_long, "uri_too_long",
                                "the URL has more than " + std::to_string(kUrlLimit) + " bytes"));
    if (req.method() != http::verb::get && req.method() != http::verb::head)
        return reply(
            text(req, http::status::method_not_allowed, "text/plain", "GET or HEAD only\n"));
    // Probes are exempt from the rate limit: a monitor must see feltd as it is.
    if (target == "/healthz") return health(state, req, ex, reply);
    if (target == "/metrics")
        return reply(
            text(req, http::status::ok, "text/plain; version=0.0.4", state.metrics().render()));
    if (!state.http_requests().take(address, std::chrono::steady_clock::now())) {
        auto res =
            json_error(req, http::status::too_many_requests, "rate_limited",
                       "more than " + std::to_string(static_cast<int>(state.config().http_rate)) +
                           " requests a second from your address");
        return reply(std::move(res));
    }
    if (target.substr(0, 5) == "/api/") {
        std::optional<std::string> token;
        if (auto auth = req.find(http::field::authorization); auth != req.end()) {
            std::string_view v = auth->value();
            if (v.substr(0, 7) == "Bearer ") token = std::string(v.substr(7));
        }
        auto job = [t = std::string(target), token](Store& s) { return api(s, t, token); };
        return state.storage().read(
            std::move(job), ex, [req = std::move(req), reply](std::optional<Answer> a) {
                if (!a)
                    return reply(json_error(req, http::status::internal_server_error, "internal",
                                            "the server could not complete this request"));
                reply(text(req, a->status, a->type, std::move(a->body)));
            });
    }
    if (target == "/ws")
        return reply(
            text(req, http::status::bad_request, "text/plain", "WebSocket upgrade expected\n"));
    reply(static_file(state, req));
}

HttpSession::Stream HttpSession::make_stream(tcp::socket&& socket, ssl::context* tls) {
    if (tls) return Stream(std::in_place_type<TlsStream>, std::move(socket), *tls);
    return Stream(std::in_place_type<PlainStream>, std::move(socket));
}

HttpSession::HttpSession(tcp::socket&& socket, ssl::context* tls,
                         std::shared_ptr<SharedState> state)
    : stream_(make_stream(std::move(socket), tls)), state_(std::move(state)) {
    beast::error_code ec;
    auto ep = std::visit(
        [&ec](auto& s) { return beast::get_lowest_layer(s).socket().remote_endpoint(ec); },
        stream_);
    address_ = ec ? "?" : address_key(ep.address(), state_->config().ipv6_prefix);
    ++state_->http_open();
}

HttpSession::~HttpSession() {
    --state_->http_open();
}

void HttpSession::run() {
    auto executor =
        std::visit([](auto& s) { return beast::get_lowest_layer(s).get_executor(); }, stream_);
    net::dispatch(executor, [self = shared_from_this()] {
        auto* tls = std::get_if<TlsStream>(&self->stream_);
        if (!tls) return self->do_read();
        beast::get_lowest_layer(*tls).expires_after(kHttpTimeout);
        tls->async_handshake(ssl::stream_base::server,
                             beast::bind_front_handler(&HttpSession::on_handshake, self));
    });
}

void HttpSession::on_handshake(beast::error_code ec) {
    if (ec) return fail(ec, "tls handshake"); // a plain client, or a bad one: just closed
    do_read();
}

void HttpSession::do_read() {
    parser_.emplace();
    parser_->body_limit(kBodyLimit);
    parser_->header_limit(kHeaderLimit);
    std::visit(
        [this](auto& s) {
            beast::get_lowest_layer(s).expires_after(kHttpTimeout);
            http::async_read(s, buffer_, *parser_,
                             beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
        },
        stream_);
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) return do_close();
    if (ec == http::error::header_limit || ec == http::error::body_limit)
        return refuse_oversized(ec);
    if (ec) return fail(ec, "http read");
    if (websocket::is_upgrade(parser_->get())) {
        auto req = parser_->release();
        if (req.target() != "/ws" || state_->stopping())
            return write(
                text(req, http::status::not_found, "text/plain", "WebSocket lives at /ws\n"),
                false);
        if (!state_->admit(address_)) {
            spdlog::warn("{}: too many connections from this address", address_);
            return write(json_error(req, http::status::too_many_requests, "too_many_connections",
                                    "too many connections from your address"),
                         false);
        }
        // The stream, TLS state and all, moves to the WebSocket session.
        std::visit(
            [&](auto& s) {
                beast::get_lowest_layer(s).expires_never();
                std::make_shared<WsSession>(std::move(s), state_, address_)->run(std::move(req));
            },
            stream_);
        return;
    }
    auto executor =
        std::visit([](auto& s) { return beast::get_lowest_layer(s).get_executor(); }, stream_);
    respond(*state_, parser_->release(), address_, executor,
            [self = shared_from_this()](http::message_generator res) {
                const bool keep_alive = res.keep_alive();
                self->write(std::move(res), keep_alive);
            });
}

void HttpSession::refuse_oversized(beast::error_code ec) {
    http::request<http::string_body> req{http::verb::get, "/", 11};
    req.keep_alive(false);
    if (ec == http::error::body_limit)
        return write(
            json_error(req, http::status::payload_too_large, "payload_too_large",
                       "a request body has at most " + std::to_string(kBodyLimit) + " bytes"),
            false);
    // Beast reads the request line first: if it never got to the headers, the line was too long.
    if (parser_->get().target().empty())
        return write(json_error(req, http::status::uri_too_long, "uri_too_long",
                                "the URL has more than " + std::to_string(kUrlLimit) + " bytes"),
                     false);
    write(json_error(req, http::status::request_header_fields_too_large, "headers_too_large",
                     "the request's headers have more than " + std::to_string(kHeaderLimit) +
                         " bytes"),
          false);
}

void HttpSession::write(http::message_generator response, bool keep_alive) {
    std::visit(
        [&](auto& s) {
            beast::async_write(
                s, std::move(response),
                beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
        },
        stream_);
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
    if (ec) return fail(ec, "http write");
    if (!keep_alive) return do_close();
    do_read();
}

void HttpSession::do_close() {
    if (auto* tls = std::get_if<TlsStream>(&stream_)) {
        beast::get_lowest_layer(*tls).expires_after(kHttpTimeout);
        tls->async_shutdown(
            [self = shared_from_this()](beast::error_code ec) { fail(ec, "tls shutdown"); });
        return;
    }
    beast::error_code ec;
    std::get<PlainStream>(stream_).socket().shutdown(tcp::socket::shutdown_send, ec);
}

} // namespace felt::server
