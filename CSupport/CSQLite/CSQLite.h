// SQLite's C API (Debian's libsqlite3-dev), for the cache index and the launch state.
#include <sqlite3.h>
