// SQLite's C API (Debian's libsqlite3-dev), for the cache index and the launch state.
#include <sqlite3.h>

/// Turns off SQLite's legacy reading of a double-quoted string as a literal, in statements and in
/// schemas, so a misspelt column name is an error rather than a string (`sqlite3_db_config` is
/// variadic, which Swift cannot call). Returns SQLITE_OK or the first failure's code.
static inline int csqlite_disable_double_quoted_strings(sqlite3 *db) {
    int code = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (code != SQLITE_OK) return code;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}
