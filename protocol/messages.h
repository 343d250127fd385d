// The JSON messages of Felt's WebSocket protocol (docs/protocol.md): parsing a client's request,
// and the shape of replies, errors and pushed events. No I/O here.
#pragma once

#include "protocol/refusal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace felt::protocol {

using json = nlohmann::json;

// The protocol version this server speaks; a client states its own in `hello`.
inline constexpr int kVersion = 2;

struct Request {
    std::string type;
    json id; // the client's: a number or a string, echoed in the reply
    json body;
};

// One text frame as a request. Refusals: malformed (not JSON, or not an object), bad_request (no
// string `type`, an `id` that is neither a number nor a string, or a missing `id`; a key twice in
// one object, at any depth, with `field` naming it).
std::variant<Request, Refusal> parse_request(std::string_view frame);

// {"type": <request type>, "id": <id>, "ok": true, ...fields}
std::string reply(const Request& request, json fields = json::object());
// One line of a hand's record for the history: `entry` with who may see it ("everyone", "owner",
// "nobody"), as text.
std::string record(json entry, const char* visibility);

// A JSON object's members as json::dump() writes each, "key":value, in the object's order: for
// writing several objects that share most of their members without serialising those again.
// A member whose value is an object keeps that object's members too, for dump_over to merge into.
// `key` points into the object, which must outlive the result unchanged.
struct DumpedMember {
    const std::string* key;
    std::string text;
    bool object = false;
    std::vector<DumpedMember> members; // the value's, when it is an object
};
std::vector<DumpedMember> dump_members(const json& object);
// Exactly what json::dump() writes for the object `own` merged into `base` (from dump_members),
// without building that object: a member of only one is written as it is; a member of both is
// own's, except that where both values are objects, own's value is merged into base's the same
// way. Own's members are serialised, base's copied as text. A seat's own copy of a message is
// written so: its part (its cards, its legal actions) merged into everyone's.
std::string dump_over(const json& own, const std::vector<DumpedMember>& base);
// What json::dump() writes for the object whose members these are.
std::string dump_object(const std::vector<DumpedMember>& members);

// A JSON object written member by member as text, for records written for every action, where
// building a json tree only to serialise it cost more than the record. Strings are escaped as
// json::dump() escapes them (valid UTF-8 passes through). The caller writes the members in
// json::dump()'s order, by key, so that the text is what dump() would write.
class ObjectText {
  public:
    ObjectText& member(std::string_view key, std::int64_t value);
    ObjectText& member(std::string_view key, std::string_view value);
    // true or false (not an overload of member(): a string literal would convert to bool).
    ObjectText& boolean(std::string_view key, bool value);
    // A value already written as JSON text (an object, an array, ...), put as it is.
    ObjectText& raw(std::string_view key, std::string_view json_text);
    std::string done() &&;

  private:
    void key(std::string_view key);
    std::string out_ = "{";
};

// {"type": "error", "id": <id or null>, "code": ..., "message": ...}, and "field" when the error
// names one
std::string error(const json& id, const Refusal& e);

// A string field of the request: present, a string, size within [min, max]. Refusals: bad_request
// naming the field.
std::variant<std::string, Refusal> string_field(const Request& r, const char* name, std::size_t min,
                                                std::size_t max);
// A true/false field of the request: `fallback` when absent; anything but a boolean is bad_request
// naming the field.
Outcome<bool> bool_field(const Request& r, const char* name, bool fallback);
// An integer field of the request, within [lo, hi]: `fallback` when absent (refused when there is
// no fallback). Present but not an integer (a string, 2.5, a number past 64 bits), or outside the
// range: bad_request naming the field. Nothing is narrowed before the range is judged.
Outcome<std::int64_t> integer_field(const Request& r, const char* name,
                                    std::optional<std::int64_t> fallback,
                                    std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                                    std::int64_t hi = std::numeric_limits<std::int64_t>::max());

} // namespace felt::protocol
