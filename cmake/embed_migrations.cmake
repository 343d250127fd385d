# Writes OUT, a C++ file defining felt::server::FUNC() (builtin_migrations unless given) from the
# numbered SQL files in DIR (NNNN_name.sql), so that feltd carries its schema with it.
if(NOT FUNC)
    set(FUNC builtin_migrations)
endif()
file(GLOB files RELATIVE ${DIR} ${DIR}/*.sql)
list(SORT files)
set(body "")
foreach(f ${files})
    if(NOT f MATCHES "^([0-9][0-9][0-9][0-9])_([a-z0-9_]+)\\.sql$")
        message(FATAL_ERROR "migration file name must be NNNN_name.sql: ${f}")
    endif()
    math(EXPR version "${CMAKE_MATCH_1}")
    set(name ${CMAKE_MATCH_2})
    file(READ ${DIR}/${f} sql)
    string(APPEND body "    {${version}, \"${name}\", R\"felt_sql(${sql})felt_sql\"},\n")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from migrations/ by cmake/embed_migrations.cmake: do not edit.
#include \"storage/migrate.h\"

namespace felt::server {

std::span<const Migration> ${FUNC}() {
    static const Migration list[] = {
${body}    };
    return list;
}

} // namespace felt::server
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
