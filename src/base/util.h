/* util — small helpers: strings, files, time, error buffers. */
#ifndef CLT_UTIL_H
#define CLT_UTIL_H
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>

#define CLT_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Formats into buf (always terminated); a NULL or empty buf is ignored. */
void util_errf(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Formats a path (or a name that must stay whole) into buf: returns 0, or
 * -1 with buf "" and errno ENAMETOOLONG when it does not fit, since a cut
 * path names another file. */
int util_pathf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Copies text for people into dst (always terminated), cut at a character
 * boundary where it does not fit; returns 1 when it was cut. */
int util_copy_text(char *dst, size_t len, const char *src);
/* Formats text for people into buf, cut like util_copy_text where it does
 * not fit; returns 1 when it was cut. */
int util_textf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The folder this program's file is in (from /proc/self/exe); -1 when it cannot be told. */
int util_exe_dir(char *buf, size_t len);

/* Reads a whole file; returns malloc'd, NUL-terminated text or NULL with errno. */
char *util_read_file(const char *path, size_t *len_out);

/* Writes a file atomically (temp file in the same folder, fsync, rename);
 * a path that is a device or a pipe (/dev/null, a FIFO) is written to in
 * place, never replaced. */
int util_write_file_atomic(const char *path, const void *data, size_t len);

/* Copies src to dst atomically. */
int util_copy_file(const char *src, const char *dst);

/* mkdir -p; returns 0 on success. */
int util_mkdirs(const char *path);
/* util_mkdirs, the last folder made readable by its owner only (0700) when it is new: a learner's
 * workspace, which classmates must not read where homes are 0755. */
int util_mkdirs_private(const char *path);

/* The path of `to` as seen from the folder from_dir ("../b/x.html"), both
 * resolved (the folders must exist); `to` as given when either cannot be.
 * 0, or -1 when it does not fit. */
int util_relative_path(const char *from_dir, const char *to, char *out, size_t len);

int util_is_dir(const char *path);
int util_is_file(const char *path);

/* A duration for reports: "-" for none, then s, ms (three decimals) or us. */
void util_fmt_ms(char *buf, size_t len, double ms);

/* Monotonic clock in seconds. */
/* Writes to every page of a fresh allocation, so that timing what fills it
 * later counts no page faults (memset(0) after malloc may become calloc). */
void util_touch_pages(void *p, size_t len);
double util_now(void);

/* Duplicates a string (NULL stays NULL). */
char *util_strdup(const char *s);

/* Appends formatted text to a growing malloc'd string. */
void util_sappend(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The process's environment is one array for every thread: setenv may move
 * it while another thread reads it. Writers (the language switch) and
 * readers that walk `environ` (a worker's variables) hold this lock. */
void util_env_lock(void);
void util_env_unlock(void);

/* Case-insensitive substring test. */
int util_contains_ci(const char *haystack, const char *needle);

/* Parses a non-negative integer with optional K/M/G (binary) suffix. */
int util_parse_count(const char *s, long *out);

/* Removes trailing whitespace in place. */
void util_rstrip(char *s);

/* A 64-bit hash of len bytes (not cryptographic: it tells outputs apart). */
uint64_t util_hash64(const void *data, size_t len);

/* du: the bytes of the regular files beneath path, never following a link (0 when missing). */
unsigned long long util_tree_bytes(const char *path);

/* rm -r: removes path and everything beneath it, never following a link; 0 on success. */
int util_remove_tree(const char *path);
/* util_hash64 of a text (NULL hashes as ""), to tell versions of a file apart. */
unsigned long long util_hash_text(const char *s);

#endif
