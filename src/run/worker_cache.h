/* worker_cache — the worker's copy of the runtime's compiled kernels:
 * copied into its own tmpfs before the runtime starts, handed back to the
 * parent (W_CACHEFILE records) after the runs. */
#ifndef CLT_WORKER_CACHE_H
#define CLT_WORKER_CACHE_H

/* Copies the regular files and folders of src into dst (which exists),
 * while *bytes and *files last; leftovers of a compile and locks stay. */
void worker_cache_copy(const char *src, const char *dst, long long *bytes, int *files, int depth);

/* Hands the files beneath dir back to the parent on fd, each named by its
 * path under rel (rel "" for the cache's root), while *bytes and *files last. */
void worker_cache_send(int fd, const char *dir, const char *rel, long long *bytes, int *files, int depth);

#endif
