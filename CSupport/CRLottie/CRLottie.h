// rlottie's C API (Debian's librlottie-dev installs it at the top of /usr/include).
#include <rlottie_capi.h>
