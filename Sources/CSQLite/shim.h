// The system's SQLite 3 C API (with its R*Tree module), for the datastore's on-disk backend.
#include <sqlite3.h>
