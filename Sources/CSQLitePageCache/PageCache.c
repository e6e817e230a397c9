// LocalDynamo's page cache layer: see include/CSQLitePageCache.h for why it exists.
//
// Every call goes to SQLite's default page cache (taken with SQLITE_CONFIG_GETPCACHE2); the layer
// only keeps a bound on the keys that can be live so that xTruncate can return without the
// default cache's walk. The invariant: every page in the inner cache has a key <= `highest`, or
// is listed in `moved` with its key (or `highest` was raised to cover it when `moved` was full).
// The bound may be too high (a purgeable cache recycles pages without telling us), never too low.

#include "CSQLitePageCache.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>

enum { movedCapacity = 8 };

typedef struct MovedPage {
    sqlite3_pcache_page *page;
    unsigned int key;
} MovedPage;

typedef struct LayerCache {
    sqlite3_pcache *inner;
    /// No page created by a fetch has a key above this (truncations lower it).
    unsigned int highest;
    /// Pages a rekey put above `highest` and that are still there.
    int movedCount;
    MovedPage moved[movedCapacity];
} LayerCache;

static sqlite3_pcache_methods2 innerMethods;
static pthread_once_t installOnce = PTHREAD_ONCE_INIT;
static bool installed = false;
static _Thread_local uint64_t truncationsSkipped = 0;
static _Thread_local uint64_t truncationsPassed = 0;

static sqlite3_pcache *layerCreate(int pageSize, int extraSize, int purgeable) {
    LayerCache *cache = sqlite3_malloc(sizeof(LayerCache));
    if (cache == NULL) return NULL;
    cache->inner = innerMethods.xCreate(pageSize, extraSize, purgeable);
    if (cache->inner == NULL) {
        sqlite3_free(cache);
        return NULL;
    }
    cache->highest = 0;
    cache->movedCount = 0;
    return (sqlite3_pcache *)cache;
}

static void layerCachesize(sqlite3_pcache *p, int size) {
    LayerCache *cache = (LayerCache *)p;
    innerMethods.xCachesize(cache->inner, size);
}

static int layerPagecount(sqlite3_pcache *p) {
    LayerCache *cache = (LayerCache *)p;
    return innerMethods.xPagecount(cache->inner);
}

static void forgetMoved(LayerCache *cache, sqlite3_pcache_page *page) {
    for (int i = 0; i < cache->movedCount; i++) {
        if (cache->moved[i].page == page) {
            cache->moved[i] = cache->moved[--cache->movedCount];
            return;
        }
    }
}

static sqlite3_pcache_page *layerFetch(sqlite3_pcache *p, unsigned int key, int createFlag) {
    LayerCache *cache = (LayerCache *)p;
    sqlite3_pcache_page *page = innerMethods.xFetch(cache->inner, key, createFlag);
    // A page found or made at `key`; one listed as moved is covered by its entry already.
    if (page != NULL && key > cache->highest) {
        bool listed = false;
        for (int i = 0; i < cache->movedCount; i++) {
            if (cache->moved[i].page == page && cache->moved[i].key == key) listed = true;
        }
        if (!listed) cache->highest = key;
    }
    return page;
}

static void layerUnpin(sqlite3_pcache *p, sqlite3_pcache_page *page, int discard) {
    LayerCache *cache = (LayerCache *)p;
    if (discard && cache->movedCount > 0) forgetMoved(cache, page);
    innerMethods.xUnpin(cache->inner, page, discard);
}

static void layerRekey(sqlite3_pcache *p, sqlite3_pcache_page *page, unsigned int oldKey, unsigned int newKey) {
    LayerCache *cache = (LayerCache *)p;
    innerMethods.xRekey(cache->inner, page, oldKey, newKey);
    if (cache->movedCount > 0) forgetMoved(cache, page);
    if (newKey <= cache->highest) return;
    if (cache->movedCount < movedCapacity) {
        cache->moved[cache->movedCount++] = (MovedPage){.page = page, .key = newKey};
    } else {
        cache->highest = newKey;
    }
}

static void layerTruncate(sqlite3_pcache *p, unsigned int limit) {
    LayerCache *cache = (LayerCache *)p;
    bool anyAbove = cache->highest >= limit;
    for (int i = 0; !anyAbove && i < cache->movedCount; i++) {
        if (cache->moved[i].key >= limit) anyAbove = true;
    }
    if (!anyAbove) {
        truncationsSkipped++;
        return;
    }
    truncationsPassed++;
    innerMethods.xTruncate(cache->inner, limit);
    if (limit == 0) {
        cache->highest = 0;
    } else if (cache->highest >= limit) {
        cache->highest = limit - 1;
    }
    for (int i = 0; i < cache->movedCount;) {
        if (cache->moved[i].key >= limit) {
            cache->moved[i] = cache->moved[--cache->movedCount];
        } else {
            i++;
        }
    }
}

static void layerDestroy(sqlite3_pcache *p) {
    LayerCache *cache = (LayerCache *)p;
    innerMethods.xDestroy(cache->inner);
    sqlite3_free(cache);
}

static void layerShrink(sqlite3_pcache *p) {
    LayerCache *cache = (LayerCache *)p;
    innerMethods.xShrink(cache->inner);
}

static void install(void) {
    if (sqlite3_config(SQLITE_CONFIG_GETPCACHE2, &innerMethods) != SQLITE_OK) return;
    if (innerMethods.xCreate == NULL) return;
    static sqlite3_pcache_methods2 layerMethods;
    layerMethods = innerMethods;
    layerMethods.xCreate = layerCreate;
    layerMethods.xCachesize = layerCachesize;
    layerMethods.xPagecount = layerPagecount;
    layerMethods.xFetch = layerFetch;
    layerMethods.xUnpin = layerUnpin;
    layerMethods.xRekey = layerRekey;
    layerMethods.xTruncate = layerTruncate;
    layerMethods.xDestroy = layerDestroy;
    layerMethods.xShrink = layerShrink;
    installed = sqlite3_config(SQLITE_CONFIG_PCACHE2, &layerMethods) == SQLITE_OK;
}

bool localdynamo_page_cache_install(void) {
    pthread_once(&installOnce, install);
    return installed;
}

void localdynamo_page_cache_thread_counts(uint64_t *skipped, uint64_t *passed) {
    *skipped = truncationsSkipped;
    *passed = truncationsPassed;
}
