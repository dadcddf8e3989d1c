// SDL2's C API (Debian's libsdl2-dev), for the viewer alone.
#include <SDL2/SDL.h>

// Function-like macros Swift cannot import, as prefixed inline functions.

/// `SDL_WINDOWPOS_CENTERED`: built with the `SDL_WINDOWPOS_CENTERED_DISPLAY` macro.
static inline int reel_shim_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
/// `SDL_BUTTON(SDL_BUTTON_LEFT)` and friends: a mouse button's bit in a button state mask.
static inline Uint32 reel_shim_sdl_button_mask(int button) { return SDL_BUTTON(button); }
