#ifndef LOCALDYNAMO_CCURL_H
#define LOCALDYNAMO_CCURL_H

/*
 * libcurl, loaded on first use.
 *
 * Nothing links libcurl: the first call of any function here opens the system's
 * libcurl (`libcurl.so.4`) with dlopen and looks up the few functions below. A server that never
 * talks to S3 or Kinesis, and a client that never sends a request, never map libcurl and the TLS,
 * LDAP and Kerberos libraries it pulls in (about 5 MB resident and a third of the start-up's
 * dynamic loading). Without libcurl on the machine, the init answers CURLE_FAILED_INIT and
 * `ld_curl_load_error` says why; every other wrapper then fails the way its libcurl function
 * fails when it cannot allocate (a null handle, a null list, CURLE_FAILED_INIT).
 *
 * The typed setopt and getinfo wrappers exist because Swift cannot call libcurl's variadic
 * functions: each passes exactly the argument type the option's documentation names.
 */

#if __has_include(<curl/curl.h>)
#include <curl/curl.h>

/// Loads libcurl once (thread-safe) and runs `curl_global_init(CURL_GLOBAL_DEFAULT)`: the call
/// every user makes before any other. CURLE_FAILED_INIT when libcurl could not be loaded.
CURLcode ld_curl_global_init_default(void);

/// Why loading libcurl failed (dlerror's words), or NULL when it is loaded (loads it first).
const char *ld_curl_load_error(void);

CURL *ld_curl_easy_init(void);
void ld_curl_easy_cleanup(CURL *handle);
void ld_curl_easy_reset(CURL *handle);
CURLcode ld_curl_easy_perform(CURL *handle);
const char *ld_curl_easy_strerror(CURLcode code);
struct curl_slist *ld_curl_slist_append(struct curl_slist *list, const char *value);
void ld_curl_slist_free_all(struct curl_slist *list);

/// An option that takes a `long` (flags, timeouts, sizes that fit a long).
CURLcode ld_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// An option that takes a `curl_off_t` (the `_LARGE` sizes).
CURLcode ld_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// An option that takes a NUL-terminated string; libcurl copies it.
CURLcode ld_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
/// An option that takes an object pointer (`CURLOPT_WRITEDATA`, `CURLOPT_POSTFIELDS`, ...).
CURLcode ld_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// An option that takes a `struct curl_slist *` (`CURLOPT_HTTPHEADER`).
CURLcode ld_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
/// `CURLOPT_WRITEFUNCTION` or `CURLOPT_HEADERFUNCTION`: both take a `curl_write_callback`.
CURLcode ld_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);
/// `CURLOPT_XFERINFOFUNCTION`.
CURLcode ld_curl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);
/// An info item that yields a `long` (`CURLINFO_RESPONSE_CODE`, ...).
CURLcode ld_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// An info item that yields a `double` (`CURLINFO_TOTAL_TIME`, ...).
CURLcode ld_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
/// An info item that yields a string owned by the handle (`CURLINFO_EFFECTIVE_URL`, ...).
CURLcode ld_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);

#endif
#endif
