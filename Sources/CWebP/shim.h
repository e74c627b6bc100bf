// libwebp (Debian libwebp-dev) for animated WebP previews (`caprof render --frames … -o x.webp`):
// WebPAnimEncoder (libwebpmux) over the lossless encoder (libwebp); Sources/caprof/WebPPreviewWriter.swift.
#include <webp/encode.h>
#include <webp/mux.h>
