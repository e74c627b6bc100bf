// libimagequant (Debian libimagequant-dev): the 256-colour palettes of animated GIF previews
// for frames with more colours than a GIF holds (Sources/caprof/GIFPreviewWriter.swift).
#include <libimagequant.h>
