// Chips in JSON: a plain integer, both ways.
#pragma once

#include "chips.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace nlohmann {

template <>
struct adl_serializer<felt::Chips> {
    template <class Json>
    static void to_json(Json& j, felt::Chips c) {
        j = c.value();
    }
    // Only a whole number that fits: a fraction or a float (whose conversion past 64 bits would be
    // undefined behaviour) is a type_error, an unsigned number past 2^63 - 1 out_of_range.
    template <class Json>
    static void from_json(const Json& j, felt::Chips& c) {
        if (!j.is_number_integer())
            throw Json::type_error::create(
                302, std::string("chips must be a whole number, not ") + j.type_name(), &j);
        if (j.is_number_unsigned() &&
            j.template get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw Json::out_of_range::create(406, "chips past 2^63 - 1", &j);
        c = felt::Chips(j.template get<std::int64_t>());
    }
};

} // namespace nlohmann
