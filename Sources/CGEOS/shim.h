// Only GEOS's reentrant (`_r`) C API is visible to Swift: every call takes an explicit
// context handle, so no GEOS state is shared between worlds or threads.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
