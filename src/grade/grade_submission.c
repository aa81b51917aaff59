/* grade_submission — reading a submission: where its exercise files are,
 * and that each is a kernel's text (no includes, nothing binary, not too big). */
#define _GNU_SOURCE
#include "grade/grade.h"
#include "base/exitcode.h"
#include "gpumodel/gpumodel.h"
#include "problem/problem.h"
#include "base/rng.h"
#include "gpumodel/technique.h"
#include "run/srcpolicy.h"
#include "base/util.h"
#include "text/i18n.h"
#include "grade/verdict.h"
#include "run/wproto.h"

#include <ctype.h>
#include <pthread.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KERNEL_MAX_BYTES (256 * 1024)

static int open_dir_at(int dirfd, const char *name) {
    return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static int is_chapter_name(const char *n) {
    return isdigit((unsigned char)n[0]) && isdigit((unsigned char)n[1]) && n[2] == '-' && n[3];
}

int grade_find_exercises(const char *dir, char *buf, size_t len, char *err, size_t errlen) {
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) {
        util_errf(err, errlen, _("%s: not a folder"), dir);
        return -1;
    }
    int fd = open_dir_at(root, "exercises");
    if (fd >= 0) {
        close(fd);
        close(root);
        snprintf(buf, len, "%s/exercises", dir);
        return 0;
    }
    /* the folder itself holds NN-name folders, or exactly one subfolder holds exercises/ */
    DIR *d = fdopendir(root);
    if (!d) {
        close(root);
        util_errf(err, errlen, _("%s: cannot list the folder"), dir);
        return -1;
    }
    struct dirent *e;
    int chapters = 0, found = 0;
    char one[256] = "", loose[256] = "";
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t nl = strlen(e->d_name);
        if (!loose[0] && nl > 3 && !strcmp(e->d_name + nl - 3, ".cl")) snprintf(loose, sizeof loose, "%s", e->d_name);
        int sub = open_dir_at(dirfd(d), e->d_name);
        if (sub < 0) continue;
        if (is_chapter_name(e->d_name)) chapters++;
        int ex = open_dir_at(sub, "exercises");
        if (ex >= 0) {
            found++;
            snprintf(one, sizeof one, "%s", e->d_name);
            close(ex);
        }
        close(sub);
    }
    closedir(d);
    if (chapters) {
        snprintf(buf, len, "%s", dir);
        return 0;
    }
    if (found == 1) {
        snprintf(buf, len, "%s/%s/exercises", dir, one);
        return 0;
    }
    if (found > 1)
        util_errf(err, errlen, _("%s holds no exercises/ folder (several subfolders have one: give one of them)"),
                  dir);
    else if (loose[0])
        util_errf(err, errlen,
                  _("%s holds %s loose, with no exercises/ folder: hand in the exercises/ folder itself, each file "
                    "in its chapter's folder (exercises/02-atomic/histogram.cl), or, when one chapter is graded, "
                    "that chapter's file under its own name (histogram.cl)"), dir, loose);
    else
        util_errf(err, errlen, _("%s holds no exercises/ folder"), dir);
    return -1;
}

int grade_find_include(const char *src) {
    srcpolicy_finding f;
    return srcpolicy_check(src, NULL, NULL, SRCPOLICY_FILES, &f) == 0 ? 0 : f.line > 0 ? f.line : 1;
}

static int valid_text(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\0') return 0;
    return 1;
}

char *grade_read_kernel(const char *exercises_dir, const char *id, const char *file, const char *build_options,
                        int *refused, char *err, size_t errlen) {
    *refused = 0;
    char shown[300];
    if (!strcmp(id, ".")) snprintf(shown, sizeof shown, "%s", file);
    else snprintf(shown, sizeof shown, "exercises/%s/%s", id, file);
    int root = open(exercises_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) {
        util_errf(err, errlen, "%s", _("no exercises/ folder in the submission"));
        return NULL;
    }
    int dir = open_dir_at(root, id);
    int saved = errno;
    close(root);
    if (dir < 0) {
        if (saved == ELOOP || saved == ENOTDIR) {
            *refused = 1;
            util_errf(err, errlen, _("exercises/%s is not a plain folder (a symbolic link?); it was not read"), id);
        } else {
            util_errf(err, errlen, _("%s is not in the submission"), shown);
        }
        return NULL;
    }
    int fd = openat(dir, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    saved = errno;
    close(dir);
    if (fd < 0) {
        if (saved == ELOOP) {
            *refused = 1;
            util_errf(err, errlen, _("%s is a symbolic link; only plain files are graded"), shown);
        } else {
            util_errf(err, errlen, _("%s is not in the submission"), shown);
        }
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        *refused = 1;
        util_errf(err, errlen, _("%s is not a plain file; it was not read"), shown);
        return NULL;
    }
    if (st.st_size > KERNEL_MAX_BYTES) {
        close(fd);
        *refused = 1;
        util_errf(err, errlen, _("%s is %lld bytes, more than the %d a kernel file may have"), shown,
                  (long long)st.st_size, KERNEL_MAX_BYTES);
        return NULL;
    }
    char *text = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (text && got < (size_t)st.st_size) {
        ssize_t r = read(fd, text + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (!text) {
        util_errf(err, errlen, "%s", _("out of memory"));
        return NULL;
    }
    text[got] = '\0';
    if (!valid_text(text, got)) {
        free(text);
        *refused = 1;
        util_errf(err, errlen, _("%s is not a text file"), shown);
        return NULL;
    }
    char names_buf[512];
    const char *names[33];
    srcpolicy_option_macros(build_options, names_buf, sizeof names_buf, names, 33);
    srcpolicy_finding f;
    if (srcpolicy_check(text, shown, names, SRCPOLICY_ALL, &f) != 0) {
        free(text);
        *refused = 1;
        util_errf(err, errlen, "%s", f.message);
        return NULL;
    }
    return text;
}
