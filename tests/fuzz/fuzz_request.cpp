// libFuzzer: a WebSocket frame as feltd reads it. Decoding the request, its fields, and a chat
// line never crash, and a refusal always names a code.
#include "protocol/chat.h"
#include "protocol/messages.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace felt::protocol;
    const std::string_view frame(reinterpret_cast<const char*>(data), size);
    auto parsed = parse_request(frame);
    if (auto* refusal = std::get_if<Refusal>(&parsed)) {
        if (refusal->code.empty()) std::abort();
        return 0;
    }
    const Request& r = std::get<Request>(parsed);
    for (const char* name : {"name", "password", "token", "text"})
        (void)string_field(r, name, 1, 64);
    for (const char* name : {"table", "buy_in", "limit", "before", "after", "hand"})
        (void)integer_field(r, name, 0, 0, 1000);
    (void)bool_field(r, "everywhere", false);
    if (auto text = r.body.find("text"); text != r.body.end() && text->is_string()) {
        auto line = clean_chat(text->get<std::string>(), 200);
        if (!line.ok() && line.refusal.code.empty()) std::abort();
    }
    (void)error(r.id, {"x", "y"});
    return 0;
}
