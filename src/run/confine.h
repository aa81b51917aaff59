/* confine — locks a worker process down before learner code runs: no core
 * files, writes only where allowed (Landlock), no network, debugging or new
 * programs (seccomp). */
#ifndef CLT_CONFINE_H
#define CLT_CONFINE_H
#include <stddef.h>

/* How far a process is confined. */
typedef enum {
    CONFINE_NONE = 0,
    CONFINE_NETWORK,     /* seccomp: no sockets, ptrace, cross-process memory, mounts, modules, clocks, ... */
    CONFINE_PROCESSES,   /* and also no execve/execveat, fork/vfork or clone without CLONE_THREAD */
} confine_level;

typedef struct {
    int landlock_abi;        /* the Landlock ABI in force; 0 when the kernel lacks it or it is disabled */
    int landlock_scoped;     /* signals and abstract sockets are kept inside the worker (ABI 6 and later) */
    confine_level level;     /* the seccomp filters in force */
    char note[256];          /* why Landlock is not in force, when it is not */
    unsigned long long disk_bytes; /* the scratch folder is a tmpfs of this size of its own, 0: not */
    long disk_files;         /* and at most this many files and folders in it */
    char disk_note[256];     /* why not, when it is not */
} confine_state;

/* In the worker, first thing, before any OpenCL call (Landlock binds the
 * calling thread and the threads it starts later, so the runtime's threads
 * must not exist yet): no core files, no new privileges, and, where the
 * kernel has Landlock, writes only beneath the NULL-terminated `writable`
 * paths, /dev/null and the GPU device files; signals and abstract UNIX
 * sockets stay inside the worker (Landlock ABI 6). A kernel without Landlock
 * is not an error: st->landlock_abi stays 0 and st->note says why. Returns
 * 0, or -1 with err when a step that must work failed. */
int confine_begin(confine_state *st, const char *const *writable, char *err, size_t errlen);
/* (confine_begin keeps what confine_private_folder set in st.) */

/* In the worker, before confine_begin and while it has one thread: gives the
 * process a mount namespace of its own (a user namespace too where it is not
 * root and the kernel allows unprivileged ones) and mounts over `dir` a
 * tmpfs of `bytes` and `files` inodes, the one budget for what it writes
 * there. Returns 1 when in force, 0 with st->disk_note saying why not. */
int confine_private_folder(confine_state *st, const char *dir, unsigned long long bytes, long files);

/* Installs the seccomp filters up to `level` on every thread of the process
 * (TSYNC); a denied call fails with EPERM (clone3 with ENOSYS, so that the C
 * library falls back to clone, whose flags a filter can see). Levels only
 * rise. Returns 0, or -1 with err. */
int confine_seccomp(confine_state *st, confine_level level, char *err, size_t errlen);

/* The Landlock ABI this kernel offers, 0 if none. */
int confine_landlock_abi(void);

/* What a worker's confinement can hold on this machine, found out without
 * starting one (a forked child tries the private folder). */
typedef struct {
    int landlock_abi;        /* reads and writes confined: 1 and later; signals: 6 and later */
    int private_folder;      /* one budget for writes (confine_private_folder works here) */
    char why_not[256];       /* why the private folder does not */
    int as_root;             /* the process runs as root, not acknowledged (CONFINE_ROOT_ENV) */
} confine_support;
/* Set to 1 where grading as root is meant (a container made for one
 * submission): the warning about it is then left out. */
#define CONFINE_ROOT_ENV "CLTUTOR_GRADE_AS_ROOT"
void confine_support_probe(confine_support *s);

/* Sentences for an instructor about what does not hold here ("" when all
 * does), in buf. */
void confine_support_warning(const confine_support *s, char *buf, size_t len);

/* One line for people: "seccomp: ... ; Landlock: ...; writes: ...". */
void confine_describe(const confine_state *st, char *buf, size_t len);
/* The same without the writes' budget. */
void confine_describe_access(const confine_state *st, char *buf, size_t len);

#endif
