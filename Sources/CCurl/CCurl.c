#include "CCurl.h"

#if __has_include(<curl/curl.h>)
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* The functions looked up in libcurl; all null until `load` succeeds. */
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *value);
    void (*slist_free_all)(struct curl_slist *list);
} library;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static CURLcode init_result = CURLE_FAILED_INIT;
static const char *load_error = NULL;
static bool loaded = false;

/* Looks up one symbol; false (and the reason in load_error) when it is missing. */
static bool find(void *image, const char *name, void **slot) {
    *slot = dlsym(image, name);
    if (*slot == NULL) {
        load_error = dlerror();
        return false;
    }
    return true;
}

static void load(void) {
    /* The handle is kept for the life of the process: libcurl and OpenSSL register exit
       handlers and keep threads' state, so unloading them is never safe. */
    void *image = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (image == NULL) image = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (image == NULL) {
        load_error = dlerror();
        return;
    }
    bool found = find(image, "curl_global_init", (void **)&library.global_init)
        && find(image, "curl_easy_init", (void **)&library.easy_init)
        && find(image, "curl_easy_cleanup", (void **)&library.easy_cleanup)
        && find(image, "curl_easy_reset", (void **)&library.easy_reset)
        && find(image, "curl_easy_perform", (void **)&library.easy_perform)
        && find(image, "curl_easy_strerror", (void **)&library.easy_strerror)
        && find(image, "curl_easy_setopt", (void **)&library.easy_setopt)
        && find(image, "curl_easy_getinfo", (void **)&library.easy_getinfo)
        && find(image, "curl_slist_append", (void **)&library.slist_append)
        && find(image, "curl_slist_free_all", (void **)&library.slist_free_all);
    if (!found) return;
    loaded = true;
    init_result = library.global_init(CURL_GLOBAL_DEFAULT);
}

/* Loads on the first call of any wrapper (pthread_once orders the table's writes before every
   reader), so no call can see a half-filled table. */
static bool ready(void) {
    pthread_once(&load_once, load);
    return loaded;
}

CURLcode ld_curl_global_init_default(void) {
    pthread_once(&load_once, load);
    return init_result;
}

const char *ld_curl_load_error(void) {
    pthread_once(&load_once, load);
    return load_error;
}

CURL *ld_curl_easy_init(void) { return ready() ? library.easy_init() : NULL; }

void ld_curl_easy_cleanup(CURL *handle) {
    if (ready()) library.easy_cleanup(handle);
}

void ld_curl_easy_reset(CURL *handle) {
    if (ready()) library.easy_reset(handle);
}

CURLcode ld_curl_easy_perform(CURL *handle) { return ready() ? library.easy_perform(handle) : CURLE_FAILED_INIT; }

const char *ld_curl_easy_strerror(CURLcode code) {
    if (ready()) return library.easy_strerror(code);
    return load_error != NULL ? load_error : "libcurl is not loaded";
}

struct curl_slist *ld_curl_slist_append(struct curl_slist *list, const char *value) {
    return ready() ? library.slist_append(list, value) : NULL;
}

void ld_curl_slist_free_all(struct curl_slist *list) {
    if (ready()) library.slist_free_all(list);
}

#define LD_SETOPT(handle, option, value) (ready() ? library.easy_setopt(handle, option, value) : CURLE_FAILED_INIT)
#define LD_GETINFO(handle, info, value) (ready() ? library.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT)

CURLcode ld_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return LD_SETOPT(handle, option, value);
}

CURLcode ld_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return LD_SETOPT(handle, option, value);
}

CURLcode ld_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return LD_SETOPT(handle, option, value);
}

CURLcode ld_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return LD_SETOPT(handle, option, value);
}

CURLcode ld_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return LD_SETOPT(handle, option, value);
}

CURLcode ld_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return LD_SETOPT(handle, option, callback);
}

CURLcode ld_curl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return LD_SETOPT(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode ld_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) { return LD_GETINFO(handle, info, value); }

CURLcode ld_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return LD_GETINFO(handle, info, value);
}

CURLcode ld_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return LD_GETINFO(handle, info, value);
}

#endif
