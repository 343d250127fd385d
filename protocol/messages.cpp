#include "protocol/messages.h"

#include <algorithm>
#include <vector>

namespace felt::protocol {

std::variant<Request, Refusal> parse_request(std::string_view frame) {
    // A key twice in one object: the parser would keep the last silently, so that what a check
    // saw and what is acted on could differ. The keys of each object open, innermost last.
    std::vector<std::vector<std::string>> open;
    std::string twice;
    json j = json::parse(
        frame,
        [&open, &twice](int, json::parse_event_t event, json& parsed) {
            using E = json::parse_event_t;
            if (event == E::object_start) {
                open.emplace_back();
            } else if (event == E::object_end) {
                if (!open.empty()) open.pop_back();
            } else if (event == E::key && !open.empty()) {
                auto& keys = open.back();
                const auto& key = parsed.get_ref<const std::string&>();
                if (twice.empty() && std::find(keys.begin(), keys.end(), key) != keys.end())
                    twice = key;
                keys.push_back(key);
            }
            return true;
        },
        false);
    if (j.is_discarded()) return Refusal{"malformed", "the message is not JSON"};
    if (!j.is_object()) return Refusal{"malformed", "the message is not a JSON object"};
    if (!twice.empty())
        return Refusal{"bad_request", "the key \"" + twice + "\" appears twice in one object",
                       twice};
    Request r;
    auto id = j.find("id");
    if (id == j.end()) return Refusal{"bad_request", "every request needs an \"id\""};
    if (!id->is_number_integer() && !id->is_string())
        return Refusal{"bad_request", "\"id\" must be an integer or a string"};
    r.id = *id;
    auto type = j.find("type");
    if (type == j.end() || !type->is_string())
        return Refusal{"bad_request", "every request needs a string \"type\""};
    r.type = type->get<std::string>();
    r.body = std::move(j);
    return r;
}

std::string reply(const Request& request, json fields) {
    json out = {{"type", request.type}, {"id", request.id}, {"ok", true}};
    for (auto& [k, v] : fields.items()) out[k] = std::move(v);
    return out.dump();
}

std::vector<DumpedMember> dump_members(const json& object) {
    std::vector<DumpedMember> out;
    out.reserve(object.size());
    for (auto it = object.begin(); it != object.end(); ++it) {
        DumpedMember m{&it.key(), json(it.key()).dump() + ':', it.value().is_object(), {}};
        if (m.object) {
            m.members = dump_members(it.value());
            m.text += dump_object(m.members);
        } else {
            m.text += it.value().dump();
        }
        out.push_back(std::move(m));
    }
    return out;
}

std::string dump_over(const json& own, const std::vector<DumpedMember>& base) {
    std::string out = "{";
    auto put = [&out](std::string_view member) {
        if (out.size() > 1) out += ',';
        out += member;
    };
    // Both in the order of the object's keys: merged as two sorted lists.
    auto b = base.begin();
    for (auto it = own.begin(); it != own.end(); ++it) {
        const std::string& key = it.key();
        for (; b != base.end() && *b->key < key; ++b) put(b->text);
        const bool both = b != base.end() && *b->key == key;
        if (both && b->object && it.value().is_object())
            put(json(key).dump() + ':' + dump_over(it.value(), b->members));
        else
            put(json(key).dump() + ':' + it.value().dump());
        if (both) ++b;
    }
    for (; b != base.end(); ++b) put(b->text);
    out += '}';
    return out;
}

std::string dump_object(const std::vector<DumpedMember>& members) {
    return dump_over(json::object(), members);
}

namespace {

// `text` as a JSON string, as json::dump() writes it: quotes and backslashes escaped, control
// characters as \b \f \n \r \t or \u00xx, everything else (UTF-8 included) as it is.
void append_string(std::string& out, std::string_view text) {
    out += '"';
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u >= 0x20) {
            out += c;
        } else if (c == '\b') {
            out += "\\b";
        } else if (c == '\f') {
            out += "\\f";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\u00";
            out += kHex[u >> 4];
            out += kHex[u & 0xf];
        }
    }
    out += '"';
}

} // namespace

void ObjectText::key(std::string_view key) {
    if (out_.size() > 1) out_ += ',';
    append_string(out_, key);
    out_ += ':';
}

ObjectText& ObjectText::member(std::string_view key, std::int64_t value) {
    this->key(key);
    out_ += std::to_string(value);
    return *this;
}

ObjectText& ObjectText::member(std::string_view key, std::string_view value) {
    this->key(key);
    append_string(out_, value);
    return *this;
}

ObjectText& ObjectText::boolean(std::string_view key, bool value) {
    this->key(key);
    out_ += value ? "true" : "false";
    return *this;
}

ObjectText& ObjectText::raw(std::string_view key, std::string_view json_text) {
    this->key(key);
    out_ += json_text;
    return *this;
}

std::string ObjectText::done() && {
    out_ += '}';
    return std::move(out_);
}

std::string error(const json& id, const Refusal& e) {
    json out = {{"type", "error"}, {"id", id}, {"code", e.code}, {"message", e.message}};
    if (!e.field.empty()) out["field"] = e.field;
    if (!e.url.empty()) out["url"] = e.url;
    return out.dump();
}

std::variant<std::string, Refusal> string_field(const Request& r, const char* name, std::size_t min,
                                                std::size_t max) {
    auto it = r.body.find(name);
    if (it == r.body.end())
        return Refusal{"bad_request", std::string("\"") + r.type + "\" needs \"" + name + "\""};
    if (!it->is_string())
        return Refusal{"bad_request", std::string("\"") + name + "\" must be a string"};
    std::string s = it->get<std::string>();
    if (s.size() < min || s.size() > max)
        return Refusal{"bad_request", std::string("\"") + name + "\" must have " +
                                          std::to_string(min) + " to " + std::to_string(max) +
                                          " characters"};
    return s;
}

Outcome<bool> bool_field(const Request& r, const char* name, bool fallback) {
    auto it = r.body.find(name);
    if (it == r.body.end()) return {fallback, {}};
    if (!it->is_boolean())
        return {std::nullopt,
                {"bad_request", std::string("\"") + name + "\" must be true or false"}};
    return {it->get<bool>(), {}};
}

Outcome<std::int64_t> integer_field(const Request& r, const char* name,
                                    std::optional<std::int64_t> fallback, std::int64_t lo,
                                    std::int64_t hi) {
    auto no = [&](std::string why) {
        return Outcome<std::int64_t>{std::nullopt, {"bad_request", std::move(why), name}};
    };
    const std::string quoted = std::string("\"") + name + "\"";
    auto it = r.body.find(name);
    if (it == r.body.end()) {
        if (fallback) return {fallback, {}};
        return no("\"" + r.type + "\" needs an integer " + quoted);
    }
    const bool fits = it->is_number_integer() &&
                      !(it->is_number_unsigned() &&
                        it->get<std::uint64_t>() >
                            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
    if (!fits) return no(quoted + " must be an integer");
    const std::int64_t v = it->get<std::int64_t>();
    if (v < lo || v > hi) {
        if (hi == std::numeric_limits<std::int64_t>::max())
            return no(quoted + " must be at least " + std::to_string(lo));
        return no(quoted + " must be " + std::to_string(lo) + " to " + std::to_string(hi));
    }
    return {v, {}};
}

std::string record(json entry, const char* visibility) {
    entry["visibility"] = visibility;
    return entry.dump();
}

} // namespace felt::protocol
