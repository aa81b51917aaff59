/* gpulock — a first-come, first-served queue for a device's timing runs,
 * shared by every user of the machine (see gpulock.h). */
#define _GNU_SOURCE
#include "run/gpulock.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void gpulock_key(const char *platform, const char *device, char *out, size_t len) {
    char both[512];
    snprintf(both, sizeof both, "%s/%s", platform ? platform : "", device ? device : "");
    char name[48];
    size_t n = 0;
    for (const char *p = device ? device : ""; *p && n + 1 < sizeof name; p++)
        name[n++] = (char)((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '_');
    name[n] = '\0';
    snprintf(out, len, "%s-%016llx", name, (unsigned long long)util_hash64(both, strlen(both)));
}

/* A file every user may open (the umask aside), created when missing. */
static int open_shared(const char *path) {
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd >= 0) {
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_uid == geteuid()) fchmod(fd, 0666);
    }
    return fd;
}

int gpulock_enqueue(gpulock *g, const char *dir, const char *key, char *err, size_t errlen) {
    memset(g, 0, sizeof *g);
    g->ticket_fd = g->lock_fd = -1;
    snprintf(g->dir, sizeof g->dir, "%s", dir);
    snprintf(g->key, sizeof g->key, "%s", key);
    if (mkdir(dir, 01777) == 0) chmod(dir, 01777); /* a shared folder, like /tmp */
    char lock[700], tmp[700];
    snprintf(lock, sizeof lock, "%s/%s.lock", dir, key);
    g->lock_fd = open_shared(lock);
    /* the ticket is named by when it was taken; it is locked before it is
     * visible under that name, so that no other waiter takes it for dead */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(tmp, sizeof tmp, "%s/.%s.new.%d", dir, key, (int)getpid());
    snprintf(g->ticket, sizeof g->ticket, "%s/%s.t.%019lld.%d", dir, key,
             (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec, (int)getpid());
    g->ticket_fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (g->lock_fd < 0 || g->ticket_fd < 0 || flock(g->ticket_fd, LOCK_EX) != 0 || rename(tmp, g->ticket) != 0) {
        util_errf(err, errlen, "cannot queue for the device in %s (%s)", dir, strerror(errno));
        unlink(tmp);
        gpulock_release(g);
        return -1;
    }
    return 0;
}

/* A ticket file whose owner is alive (its flock is held). Removes a dead one. */
static int ticket_alive(const char *dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return 0;
    int alive = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    if (!alive) unlink(path); /* its owner died: it holds no place */
    close(fd);
    return alive;
}

int gpulock_try(gpulock *g, int *ahead) {
    *ahead = 0;
    if (g->held) return 1;
    if (g->lock_fd < 0) return 1;
    const char *mine = strrchr(g->ticket, '/') + 1;
    char prefix[160];
    snprintf(prefix, sizeof prefix, "%s.t.", g->key);
    DIR *d = opendir(g->dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || strcmp(e->d_name, mine) >= 0) continue;
        *ahead += ticket_alive(g->dir, e->d_name);
    }
    if (d) closedir(d);
    if (*ahead > 0) return 0;
    if (flock(g->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        *ahead = 1; /* a holder that took the device without a ticket (an older cltutor) */
        return 0;
    }
    g->held = 1;
    return 1;
}

void gpulock_release(gpulock *g) {
    if (g->lock_fd >= 0) {
        if (g->held) flock(g->lock_fd, LOCK_UN);
        close(g->lock_fd);
    }
    if (g->ticket_fd >= 0) {
        unlink(g->ticket);
        close(g->ticket_fd);
    }
    g->lock_fd = g->ticket_fd = -1;
    g->held = 0;
}
