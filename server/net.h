// Names the network code shares.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>

#include <spdlog/spdlog.h>

namespace felt::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

// Logs a failed operation, quietly for the ordinary ends of a connection.
inline void fail(beast::error_code ec, const char* what) {
    if (ec == net::error::operation_aborted || ec == websocket::error::closed ||
        ec == net::error::eof || ec == beast::error::timeout ||
        ec == net::error::connection_reset || ec == http::error::end_of_stream)
        return;
    spdlog::debug("{}: {}", what, ec.message());
}

} // namespace felt::server
