/* gpulock — first come, first served use of one device for timing, across
 * processes and users (a lab's shared GPU): each waiter holds a ticket file
 * in a shared folder, and the oldest live ticket takes the device's lock.
 * A ticket is an flock'd file: a waiter that dies frees its place. */
#ifndef CLT_GPULOCK_H
#define CLT_GPULOCK_H
#include <stddef.h>

typedef struct {
    char dir[512];
    char key[128];           /* the device, as a file name */
    char ticket[700];        /* this waiter's ticket file */
    int ticket_fd, lock_fd;  /* -1 when not open */
    int held;
} gpulock;

/* The file name for a device ("Portable Computing Language/cpu-..." -> a
 * short, safe name that is the same in every process). */
void gpulock_key(const char *platform, const char *device, char *out, size_t len);

/* Takes a ticket for the device key in dir (created, shared by every user,
 * when missing). Returns 0, or -1 with err (the caller times without the queue). */
int gpulock_enqueue(gpulock *g, const char *dir, const char *key, char *err, size_t errlen);
/* Takes the device when this ticket is first in line: 1 held; 0 not yet,
 * with *ahead the waiters (and the holder) before it. Never blocks. */
int gpulock_try(gpulock *g, int *ahead);
/* Frees the device and the ticket. Safe to call twice. */
void gpulock_release(gpulock *g);

#endif
