// The system's libpq (PostgreSQL's C client library), for the datastore's PostGIS backend.
#include <libpq-fe.h>
