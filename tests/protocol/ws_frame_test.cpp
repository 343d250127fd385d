// WebSocket frame headers against the examples of RFC 6455, 5.7.
#include "protocol/ws_frame.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace {

using felt::protocol::frame_header;
using felt::protocol::Opcode;

std::vector<unsigned> bytes(const felt::protocol::FrameHeader& h) {
    return {h.bytes.begin(), h.bytes.begin() + static_cast<std::ptrdiff_t>(h.size)};
}

} // namespace

TEST_CASE("WebSocket frame headers are RFC 6455's: each length in its shortest encoding, masked "
          "for a client") {
    // "A single-frame unmasked text message": 0x81 0x05 "Hello"; masked, 0x81 0x85 and the key.
    CHECK(bytes(frame_header(Opcode::text, 5, false)) == std::vector<unsigned>{0x81, 0x05});
    CHECK(bytes(frame_header(Opcode::text, 5, true)) == std::vector<unsigned>{0x81, 0x85});
    // "Unmasked Ping request": 0x89 0x05; "masked Ping response": 0x8a 0x85.
    CHECK(bytes(frame_header(Opcode::ping, 5, false)) == std::vector<unsigned>{0x89, 0x05});
    CHECK(bytes(frame_header(Opcode::pong, 5, true)) == std::vector<unsigned>{0x8a, 0x85});
    // "256 bytes ... in a single unmasked frame": 0x7E 0x0100 (the example's opcode is binary).
    CHECK(bytes(frame_header(Opcode::text, 256, false)) ==
          std::vector<unsigned>{0x81, 0x7e, 0x01, 0x00});
    // "64KiB ... in a single unmasked frame": 0x7F 0x0000000000010000.
    CHECK(bytes(frame_header(Opcode::text, 65536, false)) ==
          std::vector<unsigned>{0x81, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0});
    // The edges of the three encodings (5.2: "the minimal number of bytes MUST be used").
    CHECK(bytes(frame_header(Opcode::close, 125, true)) == std::vector<unsigned>{0x88, 0xfd});
    CHECK(bytes(frame_header(Opcode::text, 126, true)) ==
          std::vector<unsigned>{0x81, 0xfe, 0x00, 0x7e});
    CHECK(bytes(frame_header(Opcode::text, 65535, false)) ==
          std::vector<unsigned>{0x81, 0x7e, 0xff, 0xff});
    CHECK(bytes(frame_header(Opcode::text, 0x0102030405060708ull, true)) ==
          std::vector<unsigned>{0x81, 0xff, 1, 2, 3, 4, 5, 6, 7, 8});
}
