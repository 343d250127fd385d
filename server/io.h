// The names of Boost.Asio that the tables and the network code share: the event loop, strands,
// timers and the pool for slow work.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

namespace felt::server {

namespace net = boost::asio;
using error_code = boost::system::error_code;

} // namespace felt::server
