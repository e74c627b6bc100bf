// pixman from Debian (libpixman-1-dev), found with pkg-config (pixman-1); benchmark-only.
#include <pixman.h>
