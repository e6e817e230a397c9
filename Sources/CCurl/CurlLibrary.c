#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* The functions the wrappers call, looked up by name in the opened library. */
struct ld_curl_library {
    void *handle;
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
    char *(*version)(void);
};

/* Looks up `name` into `*slot`; false with the reason in `error` when the library lacks it. */
static bool look_up(void *handle, const char *file, const char *name, void **slot, char *error, size_t error_size) {
    dlerror();
    *slot = dlsym(handle, name);
    if (*slot != NULL) return true;
    const char *reason = dlerror();
    snprintf(error, error_size, "%s has no %s (%s)", file, name, reason ? reason : "symbol not found");
    return false;
}

ld_curl_library *ld_curl_library_open(const char *file, char *error, size_t error_size) {
    if (error_size > 0) error[0] = 0;
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason ? reason : file);
        return NULL;
    }
    ld_curl_library *library = calloc(1, sizeof *library);
    if (library == NULL) {
        snprintf(error, error_size, "out of memory");
        dlclose(handle);
        return NULL;
    }
    library->handle = handle;
    struct {
        const char *name;
        void **slot;
    } symbols[] = {
        {"curl_global_init", (void **)&library->global_init},
        {"curl_easy_init", (void **)&library->easy_init},
        {"curl_easy_cleanup", (void **)&library->easy_cleanup},
        {"curl_easy_reset", (void **)&library->easy_reset},
        {"curl_easy_perform", (void **)&library->easy_perform},
        {"curl_easy_setopt", (void **)&library->easy_setopt},
        {"curl_easy_getinfo", (void **)&library->easy_getinfo},
        {"curl_easy_strerror", (void **)&library->easy_strerror},
        {"curl_slist_append", (void **)&library->slist_append},
        {"curl_slist_free_all", (void **)&library->slist_free_all},
        {"curl_version", (void **)&library->version},
    };
    for (size_t index = 0; index < sizeof symbols / sizeof symbols[0]; index++) {
        if (!look_up(handle, file, symbols[index].name, symbols[index].slot, error, error_size)) {
            ld_curl_library_close(library);
            return NULL;
        }
    }
    return library;
}

void ld_curl_library_close(ld_curl_library *library) {
    if (library == NULL) return;
    dlclose(library->handle);
    free(library);
}

const char *ld_curl_library_version(const ld_curl_library *library) { return library->version(); }

/* The library ld_curl_load installed (published with release order, read with acquire). */
static ld_curl_library *installed;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];

#if defined(__APPLE__)
static const char *const candidates[] = {"libcurl.4.dylib", "/usr/lib/libcurl.4.dylib"};
static const char *const install_hint = "";
#else
/* The runtime package's soname first; the unversioned name only exists with libcurl-dev. */
static const char *const candidates[] = {"libcurl.so.4", "libcurl.so"};
static const char *const install_hint = "; install libcurl (Debian/Ubuntu: apt-get install libcurl4)";
#endif

static void load(void) {
    char reason[384] = "";
    for (size_t index = 0; index < sizeof candidates / sizeof candidates[0]; index++) {
        char attempt[384];
        ld_curl_library *library = ld_curl_library_open(candidates[index], attempt, sizeof attempt);
        if (library == NULL) {
            /* Report the first candidate's reason: it is the library that should be there. */
            if (reason[0] == 0) snprintf(reason, sizeof reason, "%s", attempt);
            continue;
        }
        CURLcode code = library->global_init(CURL_GLOBAL_DEFAULT);
        if (code != CURLE_OK) {
            snprintf(load_error, sizeof load_error, "libcurl could not be initialized: curl_global_init returned %d",
                     (int)code);
            ld_curl_library_close(library);
            return;
        }
        __atomic_store_n(&installed, library, __ATOMIC_RELEASE);
        return;
    }
    snprintf(load_error, sizeof load_error, "libcurl could not be loaded (%s)%s", reason, install_hint);
}

bool ld_curl_load(void) {
    pthread_once(&load_once, load);
    return __atomic_load_n(&installed, __ATOMIC_ACQUIRE) != NULL;
}

const char *ld_curl_load_error(void) {
    pthread_once(&load_once, load);
    return load_error;
}

static ld_curl_library *library(void) { return __atomic_load_n(&installed, __ATOMIC_ACQUIRE); }

CURL *ld_curl_easy_init(void) {
    ld_curl_library *curl = library();
    return curl ? curl->easy_init() : NULL;
}

void ld_curl_easy_cleanup(CURL *handle) {
    ld_curl_library *curl = library();
    if (curl) curl->easy_cleanup(handle);
}

void ld_curl_easy_reset(CURL *handle) {
    ld_curl_library *curl = library();
    if (curl) curl->easy_reset(handle);
}

CURLcode ld_curl_easy_perform(CURL *handle) {
    ld_curl_library *curl = library();
    return curl ? curl->easy_perform(handle) : CURLE_FAILED_INIT;
}

const char *ld_curl_easy_strerror(CURLcode code) {
    ld_curl_library *curl = library();
    return curl ? curl->easy_strerror(code) : "libcurl is not loaded";
}

struct curl_slist *ld_curl_slist_append(struct curl_slist *list, const char *string) {
    ld_curl_library *curl = library();
    return curl ? curl->slist_append(list, string) : NULL;
}

void ld_curl_slist_free_all(struct curl_slist *list) {
    ld_curl_library *curl = library();
    if (curl) curl->slist_free_all(list);
}

/* Every setopt / getinfo wrapper: the call with the value's exact type, or CURLE_FAILED_INIT. */
#define LD_CURL_CALL(function, handle, key, value)                 \
    do {                                                            \
        ld_curl_library *curl = library();                          \
        return curl ? curl->function(handle, key, value) : CURLE_FAILED_INIT; \
    } while (0)

CURLcode ld_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    LD_CURL_CALL(easy_setopt, handle, option, value);
}

CURLcode ld_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    LD_CURL_CALL(easy_setopt, handle, option, value);
}

CURLcode ld_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    LD_CURL_CALL(easy_setopt, handle, option, value);
}

CURLcode ld_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    LD_CURL_CALL(easy_setopt, handle, option, value);
}

CURLcode ld_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    LD_CURL_CALL(easy_setopt, handle, option, value);
}

CURLcode ld_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    LD_CURL_CALL(easy_setopt, handle, option, callback);
}

CURLcode ld_curl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    LD_CURL_CALL(easy_setopt, handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode ld_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    LD_CURL_CALL(easy_getinfo, handle, info, value);
}
