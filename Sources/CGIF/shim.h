// giflib (Debian libgif-dev) for animated GIF previews (`caprof render --frames … -o x.gif`).
// Debian ships no pkg-config file for every giflib version, so the module map links "gif" itself.
#include <gif_lib.h>
