/* confine — locks a worker process down before learner code runs: no core
 * files, reads and writes only where allowed (Landlock), no network,
 * debugging or new programs (seccomp). */
#define _GNU_SOURCE
#include "run/confine.h"
#include "base/util.h"
#include "text/i18n.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Landlock rights and fields newer than the oldest headers we build with. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)     /* ABI 2 */
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#endif
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)               /* ABI 6 */

/* struct landlock_ruleset_attr as of ABI 6; older kernels take a prefix of it. */
typedef struct {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
} ll_ruleset_attr;

int confine_landlock_abi(void) {
#ifdef SYS_landlock_create_ruleset
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return v > 0 ? (int)v : 0;
#else
    return 0;
#endif
}

/* Everything that changes the file system, as far as this ABI can tell. */
static uint64_t ll_write_rights(int abi) {
    uint64_t r = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                 LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2) r |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) r |= LANDLOCK_ACCESS_FS_TRUNCATE;
    return r;
}

/* Reading files and folders, and running programs (a runtime's linker). */
static const uint64_t ll_read_rights =
    LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE;

/* Allows rights beneath path (a folder) or on it (a file); a missing path is skipped. */
static void ll_allow(int ruleset, const char *path, uint64_t rights) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) == 0) {
        const uint64_t file_rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
                                     LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE;
        struct landlock_path_beneath_attr pb = {
            .allowed_access = S_ISDIR(st.st_mode) ? rights : rights & file_rights,
            .parent_fd = fd,
        };
        if (pb.allowed_access) syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
    }
    close(fd);
}

/* The device files a GPU runtime opens for writing (NVIDIA, DRM render
 * nodes, AMD's KFD); /dev as a whole stays closed (block devices). */
static void ll_allow_gpu_devices(int ruleset, uint64_t rights) {
    ll_allow(ruleset, "/dev/null", rights);
    ll_allow(ruleset, "/dev/dri", rights);
    ll_allow(ruleset, "/dev/kfd", rights);
    DIR *d = opendir("/dev");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, "nvidia", 6)) {
            char p[300];
            snprintf(p, sizeof p, "/dev/%s", e->d_name);
            ll_allow(ruleset, p, rights);
        }
    closedir(d);
}

/* What an OpenCL runtime reads wherever it is installed: its libraries and
 * programs, the system's settings, the kernel's views of devices and
 * processes, translations. Nothing of /home, /tmp, /root, /srv, /var or
 * /usr/share beyond these, so no other submission, reference or report. */
static const char *const system_readable[] = {
    "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32", "/usr/libexec", "/usr/bin", "/usr/sbin", "/usr/include",
    "/usr/local/lib", "/usr/local/lib64", "/usr/local/cuda", "/usr/local/nvidia", "/usr/share/pocl",
    "/usr/share/locale", "/usr/share/zoneinfo", "/usr/share/glvnd", "/usr/share/nvidia", "/usr/share/OpenCL",
    "/usr/share/clc", "/usr/lib/oclgrind", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt",
    "/proc", "/sys", "/dev", "/run", NULL};

/* The folder part of path into buf ("." for none). */
static void dir_of(const char *path, char *buf, size_t len) {
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(buf, len, ".");
    else snprintf(buf, len, "%.*s", (int)(slash == path ? 1 : slash - path), path);
}

/* Each path of a colon-separated list (LD_LIBRARY_PATH, OCL_ICD_FILENAMES), readable;
 * files: their folder (a library's neighbours load with it). */
static void ll_allow_list(int ruleset, const char *list, int folders_of_files) {
    char one[PATH_MAX];
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ":");
        if (n > 0 && n < sizeof one) {
            snprintf(one, sizeof one, "%.*s", (int)n, p);
            struct stat st;
            if (folders_of_files && stat(one, &st) == 0 && !S_ISDIR(st.st_mode)) {
                char dir[PATH_MAX];
                dir_of(one, dir, sizeof dir);
                ll_allow(ruleset, dir, ll_read_rights);
            } else ll_allow(ruleset, one, ll_read_rights);
        }
        p += n + (p[n] == ':');
    }
}

/* The ICD loader's vendor files (OCL_ICD_VENDORS: a folder or one file;
 * else /etc/OpenCL/vendors): each names a runtime library, readable with its folder. */
static void ll_allow_icds(int ruleset) {
    const char *vendors = getenv("OCL_ICD_VENDORS");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", vendors && *vendors ? vendors : "/etc/OpenCL/vendors");
    ll_allow(ruleset, path, ll_read_rights);
    struct stat st;
    if (stat(path, &st) != 0) return;
    const char *files[64];
    char names[64][PATH_MAX + 256];
    int n = 0;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && n < 64 && (e = readdir(d)))
            if (e->d_name[0] != '.') {
                snprintf(names[n], sizeof names[n], "%s/%s", path, e->d_name);
                files[n] = names[n];
                n++;
            }
        if (d) closedir(d);
    } else files[n++] = path;
    for (int i = 0; i < n; i++) {
        char *text = util_read_file(files[i], NULL);
        if (!text) continue;
        text[strcspn(text, "\r\n")] = '\0';
        ll_allow_list(ruleset, text, 1);
        free(text);
    }
}

/* Where this program's own files are: its folder (a build: the plugin and
 * translations), and PREFIX/share/locale and PREFIX/lib/cltutor beside PREFIX/bin. */
static void ll_allow_own(int ruleset) {
    char exe[PATH_MAX], dir[PATH_MAX], p[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = '\0';
    dir_of(exe, dir, sizeof dir);
    ll_allow(ruleset, dir, ll_read_rights);
    snprintf(p, sizeof p, "%s/../share/locale", dir);
    ll_allow(ruleset, p, ll_read_rights);
    snprintf(p, sizeof p, "%s/../lib/cltutor", dir);
    ll_allow(ruleset, p, ll_read_rights);
}

/* Writes text to a file of /proc (a user namespace's maps). */
static int write_proc(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

int confine_private_folder(confine_state *st, const char *dir, unsigned long long bytes, long files) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWNS) != 0) {
        /* not root: a user namespace of its own, with this user mapped to itself */
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
            util_errf(st->disk_note, sizeof st->disk_note,
                      _("no mount namespace of its own (%s): this kernel allows no unprivileged user namespaces"),
                      strerror(errno));
            return 0;
        }
        char map[64];
        snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
        int ok = write_proc("/proc/self/uid_map", map) == 0;
        ok = ok && write_proc("/proc/self/setgroups", "deny") == 0;
        snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
        ok = ok && write_proc("/proc/self/gid_map", map) == 0;
        if (!ok) {
            util_errf(st->disk_note, sizeof st->disk_note, _("mapping the user into its namespace failed: %s"),
                      strerror(errno));
            return 0;
        }
    }
    char opts[128];
    snprintf(opts, sizeof opts, "size=%llu,nr_inodes=%ld,mode=0700", bytes, files);
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("cltutor-worker", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0) {
        util_errf(st->disk_note, sizeof st->disk_note, _("mounting a tmpfs on the scratch folder failed: %s"),
                  strerror(errno));
        return 0;
    }
    st->disk_bytes = bytes;
    st->disk_files = files;
    return 1;
}

int confine_begin(confine_state *st, const char *const *writable, char *err, size_t errlen) {
    unsigned long long disk_bytes = st->disk_bytes;
    long disk_files = st->disk_files;
    char disk_note[sizeof st->disk_note];
    memcpy(disk_note, st->disk_note, sizeof disk_note);
    memset(st, 0, sizeof *st);
    st->disk_bytes = disk_bytes;
    st->disk_files = disk_files;
    memcpy(st->disk_note, disk_note, sizeof disk_note);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        util_errf(err, errlen, _("prctl(PR_SET_NO_NEW_PRIVS) failed: %s"), strerror(errno));
        return -1;
    }
    int abi = confine_landlock_abi();
    if (abi <= 0) {
        util_errf(st->note, sizeof st->note, "%s", _("this kernel has no Landlock (Linux 5.13 or later, with landlock "
                                                     "among its security modules)"));
        return 0;
    }
    ll_ruleset_attr attr = {.handled_access_fs = ll_write_rights(abi) | ll_read_rights};
    size_t attr_size = sizeof attr.handled_access_fs;
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
        attr_size = sizeof attr;
    }
    int rs = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
    if (rs < 0) {
        util_errf(st->note, sizeof st->note, _("landlock_create_ruleset failed: %s"), strerror(errno));
        return 0;
    }
    for (const char *const *p = writable; p && *p; p++) ll_allow(rs, *p, attr.handled_access_fs);
    ll_allow_gpu_devices(rs, attr.handled_access_fs);
    for (const char *const *p = system_readable; *p; p++) ll_allow(rs, *p, ll_read_rights);
    ll_allow_own(rs);
    ll_allow_icds(rs);
    ll_allow_list(rs, getenv("OCL_ICD_FILENAMES"), 1);
    ll_allow_list(rs, getenv("LD_LIBRARY_PATH"), 0);
    ll_allow_list(rs, getenv("LD_PRELOAD"), 1);
    ll_allow_list(rs, getenv("OCLGRIND_PLUGINS"), 1);
    if (syscall(SYS_landlock_restrict_self, rs, 0) != 0) {
        util_errf(st->note, sizeof st->note, _("landlock_restrict_self failed: %s"), strerror(errno));
        close(rs);
        return 0;
    }
    close(rs);
    st->landlock_abi = abi;
    st->landlock_scoped = abi >= 6;
    return 0;
}

/* Adds "fail with errno" for a system call; one this architecture lacks is skipped. */
static int deny(scmp_filter_ctx ctx, int nr, int errno_value) {
    if (nr < 0) return 0; /* libseccomp's pseudo-number: not on this architecture */
    return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(errno_value), nr, 0);
}

static int load(scmp_filter_ctx ctx, const char *what, char *err, size_t errlen) {
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0) rc = seccomp_load(ctx);
    if (rc != 0) util_errf(err, errlen, _("installing the seccomp filter (%s) failed: %s"), _(what), strerror(-rc));
    seccomp_release(ctx);
    return rc == 0 ? 0 : -1;
}

/* No sockets (a runtime opens what it needs while it starts, before this),
 * no debugging or reading other processes, nothing only an administrator
 * does, no leaving the worker's process group. */
static int filter_network(char *err, size_t errlen) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        util_errf(err, errlen, "%s", _("seccomp_init failed"));
        return -1;
    }
    static const int denied[] = {
        SCMP_SYS(socket), SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
        SCMP_SYS(pidfd_getfd), SCMP_SYS(kcmp), SCMP_SYS(setsid), SCMP_SYS(setpgid),
        SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot), SCMP_SYS(unshare),
        SCMP_SYS(setns), SCMP_SYS(open_by_handle_at), SCMP_SYS(name_to_handle_at), SCMP_SYS(fsopen),
        SCMP_SYS(fsmount), SCMP_SYS(fsconfig), SCMP_SYS(fspick), SCMP_SYS(move_mount), SCMP_SYS(open_tree),
        SCMP_SYS(mount_setattr), SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module),
        SCMP_SYS(kexec_load), SCMP_SYS(kexec_file_load), SCMP_SYS(reboot), SCMP_SYS(swapon), SCMP_SYS(swapoff),
        SCMP_SYS(bpf), SCMP_SYS(perf_event_open), SCMP_SYS(userfaultfd), SCMP_SYS(keyctl), SCMP_SYS(add_key),
        SCMP_SYS(request_key), SCMP_SYS(iopl), SCMP_SYS(ioperm), SCMP_SYS(settimeofday),
        SCMP_SYS(clock_settime), SCMP_SYS(clock_adjtime), SCMP_SYS(adjtimex), SCMP_SYS(acct),
        SCMP_SYS(quotactl), SCMP_SYS(sethostname), SCMP_SYS(setdomainname), SCMP_SYS(fanotify_init),
    };
    int rc = 0;
    for (size_t i = 0; i < CLT_ARRAY_LEN(denied) && rc == 0; i++) rc = deny(ctx, denied[i], EPERM);
    /* clone3 passes its flags in memory a filter cannot read: report it
     * missing, and the C library starts threads with clone instead */
    if (rc == 0) rc = deny(ctx, SCMP_SYS(clone3), ENOSYS);
    if (rc != 0) {
        util_errf(err, errlen, _("building the seccomp filter failed: %s"), strerror(-rc));
        seccomp_release(ctx);
        return -1;
    }
    return load(ctx, N_("network"), err, errlen);
}

/* No new programs and no new processes; threads (clone with CLONE_THREAD) stay allowed. */
static int filter_processes(char *err, size_t errlen) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        util_errf(err, errlen, "%s", _("seccomp_init failed"));
        return -1;
    }
    int rc = 0;
    static const int denied[] = {SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork)};
    for (size_t i = 0; i < CLT_ARRAY_LEN(denied) && rc == 0; i++) rc = deny(ctx, denied[i], EPERM);
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
    if (rc == 0) rc = deny(ctx, SCMP_SYS(clone3), ENOSYS);
    if (rc != 0) {
        util_errf(err, errlen, _("building the seccomp filter failed: %s"), strerror(-rc));
        seccomp_release(ctx);
        return -1;
    }
    return load(ctx, N_("processes"), err, errlen);
}

int confine_seccomp(confine_state *st, confine_level level, char *err, size_t errlen) {
    if (level >= CONFINE_NETWORK && st->level < CONFINE_NETWORK) {
        if (filter_network(err, errlen) != 0) return -1;
        st->level = CONFINE_NETWORK;
    }
    if (level >= CONFINE_PROCESSES && st->level < CONFINE_PROCESSES) {
        if (filter_processes(err, errlen) != 0) return -1;
        st->level = CONFINE_PROCESSES;
    }
    return 0;
}

static void describe_disk(const confine_state *st, char *buf, size_t len) {
    size_t u = strlen(buf);
    if (st->disk_bytes)
        snprintf(buf + u, len - u, _("; writes: a tmpfs of %llu MB and %ld files of its own"), st->disk_bytes >> 20,
                 st->disk_files);
    else
        snprintf(buf + u, len - u, _("; writes: no budget of their own (%s)"),
                 st->disk_note[0] ? st->disk_note : _("not asked for"));
}

void confine_describe(const confine_state *st, char *buf, size_t len) {
    confine_describe_access(st, buf, len);
    describe_disk(st, buf, len);
}

void confine_describe_access(const confine_state *st, char *buf, size_t len) {
    const char *sc = _(st->level == CONFINE_PROCESSES ? N_("no sockets, exec or new processes")
                     : st->level == CONFINE_NETWORK ? N_("no sockets") : N_("off"));
    if (st->landlock_abi > 0 && st->landlock_scoped)
        snprintf(buf, len, _("seccomp: %s; Landlock ABI %d: reads only the runtime's files, writes only to the "
                             "scratch folder and caches, signals kept inside"), sc, st->landlock_abi);
    else if (st->landlock_abi > 0)
        snprintf(buf, len, _("seccomp: %s; Landlock ABI %d: reads only the runtime's files, writes only to the scratch "
                             "folder and caches"), sc,
                 st->landlock_abi);
    else
        snprintf(buf, len, _("seccomp: %s; Landlock: off (%s)"), sc, st->note[0] ? st->note : _("not asked for"));
}

void confine_support_probe(confine_support *s) {
    memset(s, 0, sizeof *s);
    s->landlock_abi = confine_landlock_abi();
    const char *root_ok = getenv(CONFINE_ROOT_ENV);
    s->as_root = geteuid() == 0 && !(root_ok && !strcmp(root_ok, "1"));
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/cltutor-probe-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(s->why_not, sizeof s->why_not, "%s", strerror(errno));
        return;
    }
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        rmdir(dir);
        return;
    }
    pid_t pid = fork();
    if (pid == 0) { /* in a child of its own: the namespace and the mount go with it */
        close(pipefd[0]);
        confine_state st;
        memset(&st, 0, sizeof st);
        int ok = confine_private_folder(&st, dir, 1 << 20, 16);
        if (!ok && write(pipefd[1], st.disk_note, strlen(st.disk_note)) < 0) _exit(2);
        _exit(ok ? 0 : 1);
    }
    close(pipefd[1]);
    int status = 0;
    if (pid > 0) {
        ssize_t n = read(pipefd[0], s->why_not, sizeof s->why_not - 1);
        s->why_not[n > 0 ? n : 0] = '\0';
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        s->private_folder = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    close(pipefd[0]);
    rmdir(dir);
}

void confine_support_warning(const confine_support *s, char *buf, size_t len) {
    buf[0] = '\0';
    if (s->landlock_abi <= 0)
        util_textf(buf, len, "%s", _("This Linux kernel has no Landlock (5.13 or later, with landlock among its "
                                     "security modules): a kernel run by the grader can read whatever the grader's "
                                     "user can, other submissions included, and write outside its folder. "));
    if (s->as_root) {
        size_t u = strlen(buf);
        if (s->landlock_abi > 0)
            util_textf(buf + u, len - u, _("The grader runs as root: its workers start as root, and a kernel on a CPU "
                                           "device runs with root's powers, held back only by Landlock and seccomp. "
                                           "Grade as an ordinary user (or set %s=1 in a container made for one "
                                           "submission). "), CONFINE_ROOT_ENV);
        else
            util_textf(buf + u, len - u, _("The grader runs as root without Landlock: a kernel on a CPU device runs "
                                           "with root's powers and passes every file permission check. Grade as an "
                                           "ordinary user (or set %s=1 in a container made for one submission). "),
                       CONFINE_ROOT_ENV);
    }
    if (!s->private_folder) {
        size_t u = strlen(buf);
        util_textf(buf + u, len - u, _("Workers get no mount namespace here (%s): what a kernel writes is capped per "
                                       "file, not in total. "), s->why_not[0] ? s->why_not : _("unknown"));
    }
    if (buf[0]) {
        size_t u = strlen(buf);
        util_textf(buf + u, len - u, "%s", _("See \"What a kernel can reach\" in the instructor guide."));
    }
}
