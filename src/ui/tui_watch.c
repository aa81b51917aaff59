/* tui_watch — notices when a file is saved, from any editor: inotify on its
 * folder (editors that save by renaming are caught too), else polling. */
#define _GNU_SOURCE
#include "ui/tui_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_stamp(const char *path, long long st_out[4]) {
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    st_out[0] = (long long)st.st_mtim.tv_sec;
    st_out[1] = (long long)st.st_mtim.tv_nsec;
    st_out[2] = (long long)st.st_size;
    st_out[3] = (long long)st.st_ino;
    return 1;
}

int tui_watch_open(tui_watch *w, const char *path, int force_poll) {
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->wd = -1;
    w->poll_s = 0.25;
    if (!path || !*path) return -1;
    snprintf(w->path, sizeof w->path, "%s", path);
    char tmp[1400], dir[1400];
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(w->name, sizeof w->name, "%s", basename(tmp));
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(dir, sizeof dir, "%s", dirname(tmp));
    w->exists = read_stamp(path, w->stamp);
    if (force_poll) return 0;
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return 0;
    int wd = inotify_add_watch(fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_ATTRIB);
    if (wd < 0) {
        close(fd);
        return 0;
    }
    w->fd = fd;
    w->wd = wd;
    return 0;
}

void tui_watch_close(tui_watch *w) {
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    w->wd = -1;
}

int tui_watch_fd(const tui_watch *w) { return w->fd; }

void tui_watch_mark_seen(tui_watch *w) { w->exists = read_stamp(w->path, w->stamp); }

int tui_watch_check(tui_watch *w, double now) {
    if (!w->path[0]) return 0;
    int look = 0;
    if (w->fd >= 0) {
        char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
        for (;;) {
            ssize_t n = read(w->fd, buf, sizeof buf);
            if (n <= 0) break;
            for (char *p = buf; p < buf + n;) {
                struct inotify_event *ev = (struct inotify_event *)p;
                if (ev->len && !strcmp(ev->name, w->name)) look = 1;
                if (ev->mask & IN_Q_OVERFLOW) look = 1;
                p += sizeof *ev + ev->len;
            }
        }
    } else if (now >= w->next_poll) {
        w->next_poll = now + w->poll_s;
        look = 1;
    }
    if (!look) return 0;
    long long st[4];
    int exists = read_stamp(w->path, st);
    int changed = exists && (!w->exists || memcmp(st, w->stamp, sizeof st) != 0);
    w->exists = exists;
    if (exists) memcpy(w->stamp, st, sizeof st);
    return changed;
}
