// The system's libpq (PostgreSQL's C client library), for the datastore's PostGIS backend:
// its types and constants. The library itself is loaded when first used (LibPQ.swift), so the
// header is found here rather than through pkg-config, whose flags would link it.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
