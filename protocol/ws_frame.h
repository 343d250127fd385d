// The header of a WebSocket frame (RFC 6455, 5.2), for the two writers that frame their own
// messages: feltd's connections (server/net/ordered_stream.h) and the bots (tools/bot). Nothing
// here depends on Beast or Asio.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace felt::protocol {

enum class Opcode : unsigned char {
    continuation = 0x0,
    text = 0x1,
    close = 0x8,
    ping = 0x9,
    pong = 0xA
};

struct FrameHeader {
    std::array<unsigned char, 10> bytes;
    std::size_t size;
};

// A final frame's header (FIN set) for a payload of `n` bytes, its length in the shortest of the
// three encodings (7 bits, 16 or 64). `masked`: a client's frame, whose 4-byte mask key follows.
constexpr FrameHeader frame_header(Opcode opcode, std::uint64_t n, bool masked) {
    FrameHeader h{{static_cast<unsigned char>(0x80 | static_cast<unsigned>(opcode))}, 2};
    const unsigned char mask = masked ? 0x80 : 0x00;
    if (n < 126) {
        h.bytes[1] = static_cast<unsigned char>(mask | n);
    } else if (n <= 0xffff) {
        h.bytes[1] = mask | 126;
        h.bytes[2] = static_cast<unsigned char>(n >> 8);
        h.bytes[3] = static_cast<unsigned char>(n);
        h.size = 4;
    } else {
        h.bytes[1] = mask | 127;
        for (std::size_t i = 0; i < 8; ++i)
            h.bytes[2 + i] = static_cast<unsigned char>(n >> (56 - 8 * i));
        h.size = 10;
    }
    return h;
}

} // namespace felt::protocol
