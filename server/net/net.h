// Names the network code shares.
#pragma once

#include "io.h"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast.hpp>
#include <boost/beast/ssl.hpp>

#include <spdlog/spdlog.h>

namespace felt::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
namespace ssl = net::ssl;

// A connection's byte stream: plain TCP, or TLS over it when feltd has a certificate.
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// Logs a failed operation, quietly for the ordinary ends of a connection.
inline void fail(beast::error_code ec, const char* what) {
    if (ec == net::error::operation_aborted || ec == websocket::error::closed ||
        ec == net::error::eof || ec == beast::error::timeout ||
        ec == net::error::connection_reset || ec == http::error::end_of_stream ||
        ec == ssl::error::stream_truncated)
        return;
    spdlog::debug("{}: {}", what, ec.message());
}

} // namespace felt::server
