/* tui_watch — notices when a file is saved, from any editor: inotify on its
 * folder (editors that save by renaming are caught too), else polling. */
#ifndef CLT_TUI_WATCH_H
#define CLT_TUI_WATCH_H
#include <sys/types.h>

typedef struct {
    int fd;              /* inotify descriptor, -1 when polling */
    int wd;
    char path[1400];
    char name[256];      /* the file's name within its folder */
    long long stamp[4];  /* mtime s, mtime ns, size, inode when last seen */
    int exists;
    double next_poll;
    double poll_s;
} tui_watch;

/* Starts watching path; force_poll skips inotify. Returns 0 (even when it
 * falls back to polling) or -1 when the path is empty. */
int tui_watch_open(tui_watch *w, const char *path, int force_poll);
void tui_watch_close(tui_watch *w);
/* The descriptor to poll for events, or -1 (then call tui_watch_check on a timer). */
int tui_watch_fd(const tui_watch *w);
/* Drains events and compares the file with what was last seen: 1 when it
 * changed (and now exists), else 0. */
int tui_watch_check(tui_watch *w, double now);
/* Takes the file as it is now as seen (after the UI itself changed it). */
void tui_watch_mark_seen(tui_watch *w);

#endif
