/* worker_cache — the worker's copy of the runtime's compiled kernels:
 * copied into its own tmpfs before the runtime starts, handed back to the
 * parent (W_CACHEFILE records) after the runs. */
#define _GNU_SOURCE
#include "run/worker_cache.h"
#include "run/worker.h"
#include "base/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A file name the cache may hold: no leftovers of a compile, no lock. */
static int name_kept(const char *name) {
    return name[0] != '.' && strncmp(name, "tempfile_", 9) != 0;
}

/* Copies the regular files and folders of src into dst (which exists),
 * while *bytes and *files last. */
void worker_cache_copy(const char *src, const char *dst, long long *bytes, int *files, int depth) {
    DIR *d = depth < 8 ? opendir(src) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)) && *files > 0) {
        if (!name_kept(e->d_name)) continue;
        char from[PATH_MAX], to[PATH_MAX];
        if (util_pathf(from, sizeof from, "%s/%s", src, e->d_name) != 0 ||
            util_pathf(to, sizeof to, "%s/%s", dst, e->d_name) != 0)
            continue;
        struct stat st;
        if (lstat(from, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            if (mkdir(to, 0700) == 0) worker_cache_copy(from, to, bytes, files, depth + 1);
        } else if (S_ISREG(st.st_mode) && st.st_size <= *bytes) {
            size_t len = 0;
            char *data = util_read_file(from, &len);
            if (data && util_write_file_atomic(to, data, len) == 0) *bytes -= (long long)len;
            free(data);
        } else continue;
        (*files)--;
    }
    if (d) closedir(d);
}

/* Hands the runtime's compiled kernels (beneath dir, rel its path from the
 * cache's root) back to the parent, while *bytes and *files last. */
void worker_cache_send(int fd, const char *dir, const char *rel, long long *bytes, int *files, int depth) {
    DIR *d = depth < 8 ? opendir(dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)) && *files > 0) {
        if (!name_kept(e->d_name)) continue;
        char path[PATH_MAX], sub[PATH_MAX];
        if (util_pathf(path, sizeof path, "%s/%s", dir, e->d_name) != 0 ||
            util_pathf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name) != 0)
            continue;
        struct stat st;
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            worker_cache_send(fd, path, sub, bytes, files, depth + 1);
            continue;
        }
        if (!S_ISREG(st.st_mode) || st.st_size > *bytes) continue;
        size_t len = 0, nlen = strlen(sub) + 1;
        char *data = util_read_file(path, &len);
        char *rec = data ? malloc(nlen + len) : NULL;
        if (rec) {
            memcpy(rec, sub, nlen);
            memcpy(rec + nlen, data, len);
            blob_put(fd, W_CACHEFILE, rec, nlen + len);
            *bytes -= (long long)len;
            (*files)--;
        }
        free(rec);
        free(data);
    }
    if (d) closedir(d);
}
