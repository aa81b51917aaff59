/* test_unpack — unit tests of what a batch takes from a student's archive
 * (grade_unpack) and of each student's seed (grade_student_seed). */
#define _DEFAULT_SOURCE
#include "suites.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/scratch.h"
#include "base/util.h"
#include "grade/grade.h"
#include "grade/grade_unpack.h"

typedef struct {
    const char *name;
    mode_t type;          /* AE_IFREG, AE_IFDIR, AE_IFLNK */
    const char *data;     /* file data, or a link's target */
    size_t size;          /* 0: strlen(data) */
    const char *hardlink; /* a hard link's target, else NULL */
} entry;

/* Writes entries into an archive at path: zip, or a gzipped tar. */
static void make_archive(const char *path, int zip, const entry *e, int n) {
    struct archive *a = archive_write_new();
    if (zip) archive_write_set_format_zip(a);
    else {
        archive_write_set_format_pax_restricted(a);
        archive_write_add_filter_gzip(a);
    }
    ck_assert_int_eq(archive_write_open_filename(a, path), ARCHIVE_OK);
    for (int i = 0; i < n; i++) {
        struct archive_entry *ae = archive_entry_new();
        archive_entry_set_pathname(ae, e[i].name);
        archive_entry_set_filetype(ae, e[i].type);
        archive_entry_set_perm(ae, 0644);
        size_t size = e[i].type == AE_IFREG ? (e[i].size ? e[i].size : strlen(e[i].data)) : 0;
        if (e[i].type == AE_IFLNK) archive_entry_set_symlink(ae, e[i].data);
        if (e[i].hardlink) archive_entry_set_hardlink(ae, e[i].hardlink);
        archive_entry_set_size(ae, (la_int64_t)size);
        archive_write_header(a, ae);
        if (size && e[i].size) { /* zeros, in pieces */
            static char zeros[1 << 16];
            for (size_t done = 0; done < size; done += sizeof zeros)
                archive_write_data(a, zeros, size - done < sizeof zeros ? size - done : sizeof zeros);
        } else if (size) archive_write_data(a, e[i].data, size);
        archive_entry_free(ae);
    }
    archive_write_close(a);
    archive_write_free(a);
}

/* Unpacks path into a fresh folder below dir; returns unpack_archive's result. */
static int unpack_into(const char *dir, const char *path, const unpack_limits *lim, char *out, char *err) {
    static int n;
    snprintf(out, 1024, "%s/out-%d", dir, n++);
    ck_assert_int_eq(util_mkdirs(out), 0);
    return unpack_archive(path, out, lim, err, 1024);
}

static char tdir[256];

static void setup(void) {
    snprintf(tdir, sizeof tdir, "/tmp/cltutor-unpack-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tdir));
}
static void teardown(void) { scratch_remove(tdir); }

START_TEST(good_archives_unpack) {
    const entry good[] = {{"exercises/", AE_IFDIR, NULL, 0, NULL},
                          {"exercises/01-serial/histogram.cl", AE_IFREG, "__kernel void k() {}\n", 0, NULL}};
    unpack_limits lim;
    unpack_limits_default(&lim);
    for (int zip = 0; zip < 2; zip++) {
        char path[512], out[1024], err[1024] = "", file[1200];
        snprintf(path, sizeof path, "%s/good.%s", tdir, zip ? "zip" : "tar.gz");
        make_archive(path, zip, good, 2);
        ck_assert_msg(unpack_into(tdir, path, &lim, out, err) == 0, "%s", err);
        snprintf(file, sizeof file, "%s/exercises/01-serial/histogram.cl", out);
        char *text = util_read_file(file, NULL);
        ck_assert_ptr_nonnull(text);
        ck_assert_str_eq(text, "__kernel void k() {}\n");
        free(text);
    }
}
END_TEST

/* Each bad entry is refused with a reason that names it, in a zip and in a tar.gz. */
START_TEST(bad_entries_are_refused) {
    static const struct {
        entry e;
        const char *why;
    } cases[] = {
        {{"/tmp/escape.cl", AE_IFREG, "x", 0, NULL}, "absolute path"},
        {{"exercises/../../escape.cl", AE_IFREG, "x", 0, NULL}, "'..'"},
        {{"..", AE_IFDIR, NULL, 0, NULL}, "'..'"},
        {{"exercises/histogram.cl", AE_IFLNK, "/etc/passwd", 0, NULL}, "is a link"},
        {{"exercises/h.cl", AE_IFREG, "", 0, "exercises/other.cl"}, "is a link"},
    };
    unpack_limits lim;
    unpack_limits_default(&lim);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int zip = 0; zip < 2; zip++) {
            if (zip && cases[c].e.hardlink) continue; /* zip has no hard links */
            char path[512], out[1024], err[1024] = "";
            snprintf(path, sizeof path, "%s/bad-%zu.%s", tdir, c, zip ? "zip" : "tar.gz");
            make_archive(path, zip, &cases[c].e, 1);
            ck_assert_int_eq(unpack_into(tdir, path, &lim, out, err), -1);
            ck_assert_msg(strstr(err, cases[c].why) != NULL, "case %zu (%s): %s", c, zip ? "zip" : "tar", err);
        }
    struct stat st;
    ck_assert_int_ne(lstat("/tmp/escape.cl", &st) == 0 && st.st_size == 1, 1);
}
END_TEST

START_TEST(limits_hold) {
    unpack_limits lim = {.max_bytes = 1 << 20, .max_entries = 5};
    char path[512], out[1024], err[1024] = "";
    const entry big[] = {{"zeros.bin", AE_IFREG, NULL, (size_t)4 << 20, NULL}};
    snprintf(path, sizeof path, "%s/bomb.zip", tdir);
    make_archive(path, 1, big, 1);
    ck_assert_int_eq(unpack_into(tdir, path, &lim, out, err), -1);
    ck_assert_msg(strstr(err, "more than 1 MiB") != NULL, "%s", err);
    entry many[8];
    char names[8][16];
    for (int i = 0; i < 8; i++) {
        snprintf(names[i], sizeof names[i], "f%d", i);
        many[i] = (entry){names[i], AE_IFREG, "x", 0, NULL};
    }
    snprintf(path, sizeof path, "%s/many.tar.gz", tdir);
    make_archive(path, 0, many, 8);
    ck_assert_int_eq(unpack_into(tdir, path, &lim, out, err), -1);
    ck_assert_msg(strstr(err, "more than 5 files") != NULL, "%s", err);
    const entry twice[] = {{"a.cl", AE_IFREG, "x", 0, NULL}, {"a.cl", AE_IFREG, "y", 0, NULL}};
    snprintf(path, sizeof path, "%s/twice.tar.gz", tdir);
    make_archive(path, 0, twice, 2);
    ck_assert_int_eq(unpack_into(tdir, path, &lim, out, err), -1);
    ck_assert_msg(strstr(err, "twice") != NULL, "%s", err);
    snprintf(path, sizeof path, "%s/not.zip", tdir);
    ck_assert_int_eq(util_write_file_atomic(path, "not an archive", 14), 0);
    ck_assert_int_eq(unpack_into(tdir, path, &lim, out, err), -1);
    ck_assert_msg(strstr(err, "not a readable") != NULL, "%s", err);
}
END_TEST

START_TEST(names_and_kinds) {
    char s[64];
    ck_assert_int_eq(unpack_kind_of("ada.zip"), UNPACK_ZIP);
    ck_assert_int_eq(unpack_kind_of("ada.TAR.GZ"), UNPACK_TAR_GZ);
    ck_assert_int_eq(unpack_kind_of("ada.tgz"), UNPACK_TAR_GZ);
    ck_assert_int_eq(unpack_kind_of("ada.rar"), UNPACK_NONE);
    ck_assert_int_eq(unpack_kind_of(".zip"), UNPACK_NONE);
    unpack_stem("ada.tar.gz", s, sizeof s);
    ck_assert_str_eq(s, "ada");
    unpack_stem("bob.zip", s, sizeof s);
    ck_assert_str_eq(s, "bob");
}
END_TEST

START_TEST(student_seeds) {
    uint64_t a = grade_student_seed(42, "ada"), b = grade_student_seed(42, "bob");
    ck_assert_uint_eq(a, grade_student_seed(42, "ada")); /* reproducible */
    ck_assert_uint_ne(a, b);                                /* different for each student */
    ck_assert_uint_ne(a, grade_student_seed(43, "ada"));  /* and for each batch seed */
    ck_assert_uint_ne(a, 42);
    /* a class of 1000: all different, all from 1 to 4e9 (exact in JSON, short to type) */
    uint64_t *s = malloc(1000 * sizeof *s);
    for (int i = 0; i < 1000; i++) {
        char name[32];
        snprintf(name, sizeof name, "student%d", i);
        s[i] = grade_student_seed(7, name);
        ck_assert(s[i] >= 1 && s[i] <= 4000000000ull);
        for (int k = 0; k < i; k++) ck_assert_uint_ne(s[i], s[k]);
    }
    free(s);
}
END_TEST

Suite *unpack_suite(void) {
    Suite *s = suite_create("unpack");
    TCase *tc = tcase_create("unpack");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, good_archives_unpack);
    tcase_add_test(tc, bad_entries_are_refused);
    tcase_add_test(tc, limits_hold);
    tcase_add_test(tc, names_and_kinds);
    tcase_add_test(tc, student_seeds);
    suite_add_tcase(s, tc);
    return s;
}
