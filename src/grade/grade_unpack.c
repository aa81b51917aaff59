/* grade_unpack — unpacks a .zip or .tar.gz handed in by a student into a fresh folder,
 * refusing what could escape it or fill the disk (libarchive reads, we write). */
#define _GNU_SOURCE
#include "grade/grade_unpack.h"
#include "base/util.h"
#include "text/i18n.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void unpack_limits_default(unpack_limits *l) {
    l->max_bytes = 64ll << 20;
    l->max_entries = 2000;
}

static int ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), t = strlen(tail);
    return n > t && !strcasecmp(s + n - t, tail);
}

unpack_kind unpack_kind_of(const char *name) {
    if (ends_with(name, ".zip")) return UNPACK_ZIP;
    if (ends_with(name, ".tar.gz") || ends_with(name, ".tgz")) return UNPACK_TAR_GZ;
    return UNPACK_NONE;
}

void unpack_stem(const char *name, char *buf, size_t len) {
    snprintf(buf, len, "%s", name);
    size_t n = strlen(buf);
    static const char *const tails[] = {".tar.gz", ".tgz", ".zip"};
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++)
        if (ends_with(buf, tails[i])) {
            buf[n - strlen(tails[i])] = '\0';
            return;
        }
}

/* A path an entry may have: relative, not empty, no "..", no control characters.
 * Returns NULL, or why not (translated). */
static const char *bad_path(const char *p) {
    if (!p || !*p) return _("has no name");
    if (p[0] == '/') return _("has an absolute path");
    for (const unsigned char *c = (const unsigned char *)p; *c; c++)
        if (*c < 0x20 || *c == '\\') return _("has a control character or a backslash in its name");
    const char *s = p;
    while (*s) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 2 && s[0] == '.' && s[1] == '.') return _("has a '..' in its path");
        s += n;
        while (*s == '/') s++;
    }
    return NULL;
}

/* Makes every folder of rel (relative, checked) below dest; the last component too when whole. */
static int make_dirs(const char *dest, const char *rel, int whole) {
    char path[4096];
    if (util_pathf(path, sizeof path, "%s/%s", dest, rel) != 0) return -1;
    size_t base = strlen(dest) + 1;
    for (char *p = path + base; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (whole && mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* Copies the entry's data into dest/rel, counting toward *total. 0, or -1 with err. */
static int write_entry(struct archive *a, const char *dest, const char *rel, const unpack_limits *lim,
                       long long *total, const char *archive, char *err, size_t errlen) {
    char path[4096];
    if (make_dirs(dest, rel, 0) != 0 || util_pathf(path, sizeof path, "%s/%s", dest, rel) != 0) {
        util_errf(err, errlen, _("%s: entry '%s' could not be unpacked (%s)"), archive, rel, strerror(errno));
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == EEXIST)
            util_errf(err, errlen, _("%s: entry '%s' is there twice, or under a file of the same name"), archive, rel);
        else util_errf(err, errlen, _("%s: entry '%s' could not be unpacked (%s)"), archive, rel, strerror(errno));
        return -1;
    }
    char buf[65536];
    la_ssize_t n;
    int rc = 0;
    while ((n = archive_read_data(a, buf, sizeof buf)) > 0) {
        *total += n;
        if (*total > lim->max_bytes) {
            util_errf(err, errlen, _("%s: unpacks to more than %lld MiB (at entry '%s'); a submission is a few "
                                     "kernel files"), archive, lim->max_bytes >> 20, rel);
            rc = -1;
            break;
        }
        if (write(fd, buf, (size_t)n) != n) {
            util_errf(err, errlen, _("%s: entry '%s' could not be unpacked (%s)"), archive, rel, strerror(errno));
            rc = -1;
            break;
        }
    }
    if (rc == 0 && n < 0) {
        util_errf(err, errlen, _("%s: entry '%s' cannot be read: %s"), archive, rel, archive_error_string(a));
        rc = -1;
    }
    close(fd);
    return rc;
}

/* Checks one header: 0 to unpack it, -1 with err. */
static int check_entry(struct archive_entry *e, const char *archive, char *err, size_t errlen) {
    const char *name = archive_entry_pathname(e);
    const char *why = bad_path(name);
    mode_t type = archive_entry_filetype(e);
    if (!why && (archive_entry_hardlink(e) || type == AE_IFLNK || archive_entry_symlink(e)))
        why = _("is a link");
    else if (!why && type != AE_IFREG && type != AE_IFDIR)
        why = _("is neither a file nor a folder");
    if (!why) return 0;
    util_errf(err, errlen, _("%s: entry '%s' %s; a submission holds only files and folders with relative paths"),
              archive, name ? name : "", why);
    return -1;
}

/* Whether a path names an OpenCL C file. */
static int is_kernel_name(const char *name) {
    size_t n = strlen(name);
    return n > 3 && !strcmp(name + n - 3, ".cl");
}

int unpack_count_kernels(const char *archive, int max_entries) {
    struct archive *a = archive_read_new();
    if (!a) return -1;
    archive_read_support_filter_gzip(a);
    archive_read_support_format_zip(a);
    archive_read_support_format_tar(a);
    int count = -1, entries = 0, r;
    struct archive_entry *e;
    if (archive_read_open_filename(a, archive, 65536) == ARCHIVE_OK) {
        count = 0;
        while (entries++ < max_entries && (r = archive_read_next_header(a, &e)) != ARCHIVE_EOF) {
            if (r != ARCHIVE_OK && r != ARCHIVE_WARN) break;
            const char *name = archive_entry_pathname(e);
            count += archive_entry_filetype(e) == AE_IFREG && name && strncmp(name, "__MACOSX/", 9) &&
                     is_kernel_name(name);
        }
    }
    archive_read_free(a);
    return count;
}

int unpack_archive(const char *archive, const char *dest, const unpack_limits *lim, char *err, size_t errlen) {
    struct archive *a = archive_read_new();
    if (!a) {
        util_errf(err, errlen, "%s", _("out of memory"));
        return -1;
    }
    archive_read_support_filter_gzip(a);
    archive_read_support_format_zip(a);
    archive_read_support_format_tar(a);
    const char *shown = strrchr(archive, '/') ? strrchr(archive, '/') + 1 : archive;
    if (archive_read_open_filename(a, archive, 65536) != ARCHIVE_OK) {
        util_errf(err, errlen, _("%s: not a readable .zip or .tar.gz (%s)"), shown, archive_error_string(a));
        archive_read_free(a);
        return -1;
    }
    struct archive_entry *e;
    long long total = 0;
    int entries = 0, rc = 0, r;
    while (rc == 0 && (r = archive_read_next_header(a, &e)) != ARCHIVE_EOF) {
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            util_errf(err, errlen, _("%s: not a readable .zip or .tar.gz (%s)"), shown, archive_error_string(a));
            rc = -1;
            break;
        }
        if (++entries > lim->max_entries) {
            util_errf(err, errlen, _("%s: holds more than %d files and folders; a submission is a few kernel files"),
                      shown, lim->max_entries);
            rc = -1;
            break;
        }
        if (check_entry(e, shown, err, errlen) != 0) { rc = -1; break; }
        const char *name = archive_entry_pathname(e);
        if (!strncmp(name, "__MACOSX/", 9) || !strcmp(name, "__MACOSX")) continue; /* macOS's resource forks */
        if (archive_entry_filetype(e) == AE_IFDIR) {
            if (make_dirs(dest, name, 1) != 0) {
                util_errf(err, errlen, _("%s: entry '%s' could not be unpacked (%s)"), shown, name, strerror(errno));
                rc = -1;
            }
        } else rc = write_entry(a, dest, name, lim, &total, shown, err, errlen);
    }
    archive_read_free(a);
    return rc;
}
