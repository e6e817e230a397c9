#ifndef LOCALDYNAMO_CCURL_SHIM_H
#define LOCALDYNAMO_CCURL_SHIM_H

#include <curl/curl.h>

/*
 * Typed wrappers for libcurl's variadic calls, which Swift cannot call directly.
 *
 * Each wrapper passes exactly the argument type the option's documentation names
 * (long, char *, curl_off_t, a pointer, a function pointer), so no option is ever
 * handed a value of the wrong width.
 */

/// `curl_global_init(CURL_GLOBAL_DEFAULT)`; the macro is not importable into Swift.
static inline CURLcode ld_curl_global_init_default(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// An option that takes a `long` (flags, timeouts, sizes that fit a long).
static inline CURLcode ld_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a `curl_off_t` (the `_LARGE` sizes).
static inline CURLcode ld_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a NUL-terminated string; libcurl copies it.
static inline CURLcode ld_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes an object pointer (`CURLOPT_WRITEDATA`, `CURLOPT_POSTFIELDS`, ...).
static inline CURLcode ld_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a `struct curl_slist *` (`CURLOPT_HTTPHEADER`).
static inline CURLcode ld_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// `CURLOPT_WRITEFUNCTION` or `CURLOPT_HEADERFUNCTION`: both take a `curl_write_callback`.
static inline CURLcode ld_curl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                                          curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// `CURLOPT_XFERINFOFUNCTION`.
static inline CURLcode ld_curl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/// An info item that yields a `long` (`CURLINFO_RESPONSE_CODE`, ...).
static inline CURLcode ld_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// An info item that yields a `double` (`CURLINFO_TOTAL_TIME`, ...).
static inline CURLcode ld_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// An info item that yields a string owned by the handle (`CURLINFO_EFFECTIVE_URL`, ...).
static inline CURLcode ld_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
