// SDL2_ttf's C API (Debian's libsdl2-ttf-dev): text drawn with FreeType into SDL surfaces.
#include <SDL2/SDL_ttf.h>
