// Chips in JSON: a plain integer, both ways.
#pragma once

#include "chips.h"

#include <nlohmann/json.hpp>

#include <cstdint>

namespace nlohmann {

template <>
struct adl_serializer<felt::Chips> {
    template <class Json>
    static void to_json(Json& j, felt::Chips c) {
        j = c.value();
    }
    template <class Json>
    static void from_json(const Json& j, felt::Chips& c) {
        c = felt::Chips(j.template get<std::int64_t>());
    }
};

} // namespace nlohmann
