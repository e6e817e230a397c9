#ifndef LOCALDYNAMO_CCURL_H
#define LOCALDYNAMO_CCURL_H

#include <stdbool.h>
#include <stddef.h>
#include <curl/curl.h>

/*
 * libcurl, loaded on first use.
 *
 * Nothing links libcurl: `ld_curl_load` opens `libcurl.so.4` with `dlopen` the first time a
 * transfer needs it and looks up the handful of functions below, so a process that never makes
 * an outgoing HTTP call (a server that exports nothing to S3, streams nothing to Kinesis) never
 * maps libcurl or the TLS, LDAP, SSH ... libraries it depends on. curl/curl.h still comes from
 * libcurl-dev, for the types and constants only.
 *
 * Call libcurl only through these `ld_curl_*` functions: a direct `curl_*` call does not link
 * (nothing provides the symbol). Every function but `ld_curl_load`, `ld_curl_load_error` and
 * `ld_curl_library_*` needs a successful `ld_curl_load` first; before it they fail
 * (`CURLE_FAILED_INIT`, `NULL`) instead of calling anything.
 *
 * The setopt / getinfo wrappers exist because the calls are variadic, which Swift cannot call:
 * each passes exactly the argument type the option's documentation names (long, char *,
 * curl_off_t, a pointer, a function pointer), so no option is ever handed a value of the wrong
 * width.
 */

/// Loads libcurl (`libcurl.so.4`, else `libcurl.so`) and runs `curl_global_init(CURL_GLOBAL_DEFAULT)`,
/// once per process; later calls return the first call's result at once. Thread-safe.
bool ld_curl_load(void);

/// Why `ld_curl_load` failed, naming the library and what to install; "" when it succeeded or has
/// not run.
const char *ld_curl_load_error(void);

/// One opened libcurl: the `dlopen` handle and the functions looked up in it.
typedef struct ld_curl_library ld_curl_library;

/// Opens the library `file` (a name the dynamic loader searches for, or a path) and looks up every
/// function the wrappers call; `NULL` with the reason in `error` (NUL-terminated, at most
/// `error_size` bytes) when it cannot. Does not initialize libcurl. `ld_curl_load` is built on it.
ld_curl_library *ld_curl_library_open(const char *file, char *error, size_t error_size);

/// Closes a library from `ld_curl_library_open` (never the one `ld_curl_load` installed).
void ld_curl_library_close(ld_curl_library *library);

/// The version string of an opened library (`curl_version()`), e.g. "libcurl/7.88.1 OpenSSL/3.0.15 ...".
const char *ld_curl_library_version(const ld_curl_library *library);

/// `curl_easy_init`.
CURL *ld_curl_easy_init(void);

/// `curl_easy_cleanup`.
void ld_curl_easy_cleanup(CURL *handle);

/// `curl_easy_reset`: clears the options, keeps the connection, DNS and TLS session caches.
void ld_curl_easy_reset(CURL *handle);

/// `curl_easy_perform`.
CURLcode ld_curl_easy_perform(CURL *handle);

/// `curl_easy_strerror`.
const char *ld_curl_easy_strerror(CURLcode code);

/// `curl_slist_append`.
struct curl_slist *ld_curl_slist_append(struct curl_slist *list, const char *string);

/// `curl_slist_free_all`.
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

#endif
