// Prefixed C helpers for what Swift cannot import from FFmpeg and libcurl: function-like macros
// and variadic functions. Each function carries one line saying why it exists; logic stays in Swift.
#ifndef REEL_SHIMS_H
#define REEL_SHIMS_H

#include <stdint.h>
#include <curl/curl.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
// The bitstream-filter API (`av_bsf_*`): since FFmpeg 5.0 no header `CAVCodec` imports includes
// it, so Swift sees it through this module.
#include <libavcodec/bsf.h>
#include <libavutil/avutil.h>

// MARK: FFmpeg error codes and constants (function-like macros in the C headers).

/// `AVERROR(e)`: FFmpeg's negated POSIX error code.
int reel_shim_averror(int posix_errno);
/// `AVERROR_EOF`: built with the `FFERRTAG` macro.
extern const int reel_shim_averror_eof;
/// `AVERROR_EXIT`: returned when the interrupt callback asks to stop.
extern const int reel_shim_averror_exit;
/// `AVERROR_INVALIDDATA`: built with the `FFERRTAG` macro.
extern const int reel_shim_averror_invaliddata;
/// `AV_NOPTS_VALUE`: a cast expression Swift does not import.
extern const int64_t reel_shim_av_nopts_value;

/// Installs the nested-open hooks on a format context: `io_open`/`io_close2` are function-pointer
/// fields whose C types mention `AVFormatContext` recursively, simpler to assign on the C side.
void reel_shim_set_io_hooks(AVFormatContext *ctx,
                            int (*io_open)(AVFormatContext *, AVIOContext **, const char *, int, AVDictionary **),
                            int (*io_close2)(AVFormatContext *, AVIOContext *));

/// Receives one formatted FFmpeg log line.
typedef void (*reel_shim_log_sink)(int level, const char *line);
/// Routes FFmpeg's log (a variadic `va_list` callback Swift cannot implement) to `sink`, formatted
/// with `av_log_format_line2`, for lines at `max_level` or more severe.
void reel_shim_av_log_install(reel_shim_log_sink sink, int max_level);

// MARK: libcurl (variadic `curl_easy_setopt`, `curl_easy_getinfo`, `curl_multi_setopt`).

/// `curl_easy_setopt` for options taking a `long`.
CURLcode reel_shim_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// `curl_easy_setopt` for options taking a C string (libcurl copies it).
CURLcode reel_shim_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
/// `curl_easy_setopt` for options taking a data pointer (`CURLOPT_PRIVATE`, `*DATA`, `HTTPHEADER`).
CURLcode reel_shim_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// `curl_easy_setopt` for `CURLOPT_WRITEFUNCTION` and `CURLOPT_HEADERFUNCTION`.
CURLcode reel_shim_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);
/// `curl_easy_getinfo` for values returned as `long`.
CURLcode reel_shim_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// `curl_easy_getinfo` for values returned as `curl_off_t` (the `*_T` timings and sizes).
CURLcode reel_shim_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
/// `curl_easy_getinfo` for `CURLINFO_PRIVATE`.
CURLcode reel_shim_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);
/// `curl_multi_setopt` for options taking a `long`.
CURLMcode reel_shim_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
/// `CURL_WRITEFUNC_PAUSE`: a macro whose value Swift imports with the wrong integer type.
extern const size_t reel_shim_curl_writefunc_pause;
/// `CURLPAUSE_CONT`: a macro built from other macros.
extern const int reel_shim_curlpause_cont;

#endif
