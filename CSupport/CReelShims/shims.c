#include "CReelShims.h"

int reel_shim_averror(int posix_errno) { return AVERROR(posix_errno); }
const int reel_shim_averror_eof = AVERROR_EOF;
const int reel_shim_averror_exit = AVERROR_EXIT;
const int reel_shim_averror_invaliddata = AVERROR_INVALIDDATA;
const int64_t reel_shim_av_nopts_value = AV_NOPTS_VALUE;

void reel_shim_set_io_hooks(AVFormatContext *ctx,
                            int (*io_open)(AVFormatContext *, AVIOContext **, const char *, int, AVDictionary **),
                            int (*io_close2)(AVFormatContext *, AVIOContext *)) {
    ctx->io_open = io_open;
    ctx->io_close2 = io_close2;
}

// Written once by `reel_shim_av_log_install` while other threads may already be logging through
// FFmpeg (whose own hand-off of the callback pointer is not synchronized): atomics, so the sink
// and level a logging thread sees are complete (the thread sanitizer caught the plain globals).
static reel_shim_log_sink reel_log_sink = NULL;
static int reel_log_max_level = AV_LOG_WARNING;

static void reel_log_callback(void *avcl, int level, const char *fmt, va_list vl) {
    reel_shim_log_sink sink = __atomic_load_n(&reel_log_sink, __ATOMIC_ACQUIRE);
    if (sink == NULL || level > __atomic_load_n(&reel_log_max_level, __ATOMIC_RELAXED)) return;
    char line[1024];
    int print_prefix = 1;
    av_log_format_line2(avcl, level, fmt, vl, line, sizeof line, &print_prefix);
    sink(level, line);
}

void reel_shim_av_log_install(reel_shim_log_sink sink, int max_level) {
    __atomic_store_n(&reel_log_max_level, max_level, __ATOMIC_RELAXED);
    __atomic_store_n(&reel_log_sink, sink, __ATOMIC_RELEASE);
    av_log_set_level(max_level);
    av_log_set_callback(reel_log_callback);
}

CURLcode reel_shim_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode reel_shim_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode reel_shim_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode reel_shim_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
CURLcode reel_shim_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode reel_shim_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode reel_shim_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLMcode reel_shim_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
const size_t reel_shim_curl_writefunc_pause = CURL_WRITEFUNC_PAUSE;
const int reel_shim_curlpause_cont = CURLPAUSE_CONT;
