/* frame_mem.c — a frame's large buffers, kept for the next frame so that writing it does not fault their pages in. */
/* SPDX-License-Identifier: MIT */
#include "frame_mem.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Each buffer starts with its capacity; the caller's bytes follow, as aligned as malloc's. */
typedef union head {
    size_t cap;
    max_align_t align;
} head;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static head *kept[HK_FRAME_MEM_SLOTS];
static int kept_count;
static int holders; /* series of frames open: buffers are kept while there is one */

void *hk_frame_alloc(size_t bytes)
{
    if (bytes >= HK_FRAME_MEM_MIN) {
        /* the smallest kept buffer that holds bytes and is at most twice as large */
        pthread_mutex_lock(&lock);
        int best = -1;
        for (int i = 0; i < kept_count; i++)
            if (kept[i]->cap >= bytes && kept[i]->cap / 2 <= bytes && (best < 0 || kept[i]->cap < kept[best]->cap))
                best = i;
        head *h = NULL;
        if (best >= 0) {
            h = kept[best];
            kept[best] = kept[--kept_count];
        }
        pthread_mutex_unlock(&lock);
        if (h) return h + 1;
    }
    if (bytes > SIZE_MAX - sizeof(head)) return NULL;
    head *h = malloc(sizeof(head) + bytes);
    if (!h) return NULL;
    h->cap = bytes;
    return h + 1;
}

void *hk_frame_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    void *p = hk_frame_alloc(n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

/* h kept (the lock held): returns the buffer to free instead, if any (the smallest, where every slot is taken). */
static head *keep_locked(head *h)
{
    if (kept_count < HK_FRAME_MEM_SLOTS) {
        kept[kept_count++] = h;
        return NULL;
    }
    int least = 0;
    for (int i = 1; i < kept_count; i++)
        if (kept[i]->cap < kept[least]->cap) least = i;
    if (kept[least]->cap >= h->cap) return h;
    head *out = kept[least];
    kept[least] = h;
    return out;
}

void hk_frame_free(void *p)
{
    if (!p) return;
    head *h = (head *)p - 1;
    if (h->cap >= HK_FRAME_MEM_MIN) {
        pthread_mutex_lock(&lock);
        if (holders > 0) h = keep_locked(h);
        pthread_mutex_unlock(&lock);
    }
    free(h);
}

/* Every kept buffer freed; the lock held. */
static void trim_locked(void)
{
    for (int i = 0; i < kept_count; i++) free(kept[i]);
    kept_count = 0;
}

void hk_frame_mem_hold(void)
{
    pthread_mutex_lock(&lock);
    holders++;
    pthread_mutex_unlock(&lock);
}

void hk_frame_mem_release(void)
{
    pthread_mutex_lock(&lock);
    HK_ASSERT(holders > 0);
    if (--holders == 0) trim_locked();
    pthread_mutex_unlock(&lock);
}

void hk_frame_mem_trim(void)
{
    pthread_mutex_lock(&lock);
    trim_locked();
    pthread_mutex_unlock(&lock);
}

int hk_frame_mem_kept(size_t *bytes)
{
    pthread_mutex_lock(&lock);
    const int n = kept_count;
    size_t sum = 0;
    for (int i = 0; i < n; i++) sum += kept[i]->cap;
    pthread_mutex_unlock(&lock);
    if (bytes) *bytes = sum;
    return n;
}
