// libzip (libzip-dev): AssetImport reads dotLottie packages (.lottie zip archives) from memory.
#include <zip.h>
