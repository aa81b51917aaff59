/* util — small helpers: strings, files, time, error buffers. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void util_errf(char *buf, size_t len, const char *fmt, ...) {
    if (!buf || len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

int util_pathf(char *buf, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < len) return 0;
    if (len) buf[0] = '\0';
    errno = ENAMETOOLONG;
    return -1;
}

/* The longest prefix of s[0..n) that ends on a whole UTF-8 character. */
static size_t utf8_whole(const char *s, size_t n) {
    size_t start = n;
    while (start > 0 && ((unsigned char)s[start - 1] & 0xC0) == 0x80) start--;
    if (start == 0) return n; /* no lead byte: not UTF-8, keep the bytes */
    unsigned char lead = (unsigned char)s[start - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return n - (start - 1) >= need ? n : start - 1;
}

int util_copy_text(char *dst, size_t len, const char *src) {
    if (!len) return 1;
    size_t n = strlen(src);
    int cut = n >= len;
    if (cut) n = utf8_whole(src, len - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
    return cut;
}

int util_textf(char *buf, size_t len, const char *fmt, ...) {
    if (!len) return 1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < len) return 0;
    buf[utf8_whole(buf, strlen(buf))] = '\0'; /* a character cut in two goes */
    return 1;
}

int util_exe_dir(char *buf, size_t len) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || len == 0) return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = '\0';
    return util_pathf(buf, len, "%s", slash == exe ? "/" : exe);
}

char *util_read_file(const char *path, size_t *len_out) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) { fclose(f); errno = ENOMEM; return NULL; }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
        if (cap - len - 1 == 0) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) { free(buf); errno = EIO; return NULL; }
    buf[len] = '\0';
    if (len_out) *len_out = len;
    return buf;
}

/* Writes all of data to fd; 0, or -1 with errno. */
static int write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int util_write_file_atomic(const char *path, const void *data, size_t len) {
    /* a device or a pipe (/dev/null, /dev/stdout, a FIFO) is written to, never
     * renamed over: as root that would put a file in place of /dev/null */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) return errno = EISDIR, -1;
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0) return -1;
        int rc = write_all(fd, data, len);
        int saved = errno;
        if (close(fd) != 0 && rc == 0) return -1;
        errno = saved;
        return rc;
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) return -1;
    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) { free(tmp); return -1; }
    if (write_all(fd, data, len) != 0) goto fail;
    if (fsync(fd) != 0) goto fail;
    if (fchmod(fd, 0644) != 0) goto fail;
    if (close(fd) != 0) { fd = -1; goto fail; }
    fd = -1;
    if (rename(tmp, path) != 0) goto fail;
    free(tmp);
    return 0;
fail: {
        int saved = errno;
        if (fd >= 0) close(fd);
        unlink(tmp);
        free(tmp);
        errno = saved;
        return -1;
    }
}

int util_copy_file(const char *src, const char *dst) {
    size_t len;
    char *data = util_read_file(src, &len);
    if (!data) return -1;
    int rc = util_write_file_atomic(dst, data, len);
    free(data);
    return rc;
}

int util_mkdirs(const char *path) {
    char buf[PATH_MAX];
    if (strlen(path) >= sizeof buf) { errno = ENAMETOOLONG; return -1; }
    strcpy(buf, path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
    return util_is_dir(buf) ? 0 : -1;
}

int util_mkdirs_private(const char *path) {
    if (util_is_dir(path)) return 0;
    char parent[PATH_MAX];
    if (strlen(path) >= sizeof parent) { errno = ENAMETOOLONG; return -1; }
    strcpy(parent, path);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = '\0';
        if (util_mkdirs(parent) != 0) return -1;
    }
    if (mkdir(path, 0700) != 0 && errno != EEXIST) return -1;
    return util_is_dir(path) ? 0 : -1;
}

int util_is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int util_relative_path(const char *from_dir, const char *to, char *out, size_t len) {
    char from[PATH_MAX], dir[PATH_MAX], there[PATH_MAX];
    const char *slash = strrchr(to, '/');
    const char *base = slash ? slash + 1 : to;
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - to) > 0 ? (int)(slash - to) : 1, to);
    else snprintf(dir, sizeof dir, ".");
    if (!realpath(from_dir, from) || !realpath(dir, there)) return util_copy_text(out, len, to);
    /* the folders both paths share, whole components only */
    size_t common = 0;
    for (size_t i = 0;; i++) {
        int end_a = from[i] == '\0' || from[i] == '/', end_b = there[i] == '\0' || there[i] == '/';
        if (end_a && end_b) common = i;
        if (from[i] != there[i] || from[i] == '\0') break;
    }
    out[0] = '\0';
    size_t n = 0;
    for (const char *p = from + common; *p; p++)
        if (*p == '/' && p[1]) n += (size_t)snprintf(out + n, n < len ? len - n : 0, "../");
    if (there[common] == '/' && there[common + 1]) n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s/", there + common + 1);
    n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s", base);
    return n < len ? 0 : -1;
}

int util_is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

double util_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *util_strdup(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* environ is the process's own, so its lock is too */
static pthread_mutex_t env_mutex = PTHREAD_MUTEX_INITIALIZER;

void util_env_lock(void) { pthread_mutex_lock(&env_mutex); }

void util_env_unlock(void) { pthread_mutex_unlock(&env_mutex); }

void util_sappend(char **s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int add = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (add < 0) return;
    size_t old = *s ? strlen(*s) : 0;
    char *n = realloc(*s, old + (size_t)add + 1);
    if (!n) return;
    va_start(ap, fmt);
    vsnprintf(n + old, (size_t)add + 1, fmt, ap);
    va_end(ap);
    *s = n;
}

int util_contains_ci(const char *h, const char *n) {
    size_t nl = strlen(n);
    if (nl == 0) return 1;
    for (; *h; h++) {
        size_t i = 0;
        while (i < nl && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)n[i])) i++;
        if (i == nl) return 1;
    }
    return 0;
}

int util_parse_count(const char *s, long *out) {
    if (!s || !isdigit((unsigned char)*s)) return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno) return -1;
    long long mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = 1024LL; end++; break;
    case 'M': mul = 1024LL * 1024; end++; break;
    case 'G': mul = 1024LL * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end != '\0') return -1;
    if (v > LONG_MAX / mul) return -1;
    *out = (long)(v * mul);
    return 0;
}

void util_rstrip(char *s) {
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
}

void util_touch_pages(void *p, size_t len) {
    volatile unsigned char *b = p;
    for (size_t i = 0; i < len; i += 4096) b[i] = 0;
    if (len) b[len - 1] = 0;
}

uint64_t util_hash64(const void *data, size_t len) {
    /* four independent lanes of multiply and rotate over 8-byte words, then the tail */
    const unsigned char *p = data;
    const uint64_t k = 0x9e3779b97f4a7c15ull;
    uint64_t h[4] = {k ^ len, 0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull};
    size_t i = 0;
    for (; i + 32 <= len; i += 32)
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * l, 8);
            h[l] = (h[l] ^ w) * k;
            h[l] = (h[l] << 31) | (h[l] >> 33);
        }
    uint64_t x = h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7);
    for (; i < len; i++) x = (x ^ p[i]) * 0x100000001b3ull;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* Empties the folder open as dirfd (which it closes), never following a link. */
static int remove_contents(int dirfd) {
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (unlinkat(dirfd, e->d_name, 0) == 0) continue;
        int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0 || remove_contents(sub) != 0 || unlinkat(dirfd, e->d_name, AT_REMOVEDIR) != 0) rc = -1;
    }
    closedir(d);
    return rc;
}

int util_remove_tree(const char *path) {
    if (unlink(path) == 0) return 0;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 0 : -1;
    int rc = remove_contents(fd);
    return rmdir(path) == 0 ? rc : -1;
}

unsigned long long util_hash_text(const char *s) { return util_hash64(s ? s : "", s ? strlen(s) : 0); }

static unsigned long long tree_bytes_at(int dirfd, int depth) {
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return 0;
    }
    unsigned long long total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (S_ISREG(st.st_mode)) total += (unsigned long long)st.st_size;
        else if (S_ISDIR(st.st_mode) && depth < 16) {
            int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) total += tree_bytes_at(sub, depth + 1);
        }
    }
    closedir(d);
    return total;
}

unsigned long long util_tree_bytes(const char *path) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return fd < 0 ? 0 : tree_bytes_at(fd, 0);
}

void util_fmt_ms(char *buf, size_t len, double ms) {
    if (ms <= 0) snprintf(buf, len, "-");
    else if (ms >= 1000) snprintf(buf, len, "%.2f s", ms / 1000);
    else if (ms >= 1) snprintf(buf, len, "%.3f ms", ms);
    else snprintf(buf, len, "%.1f us", ms * 1000);
}
