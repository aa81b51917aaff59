/* grade merge: one class's grades and class summary from the reports of its shards */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "grade/grade_batch.h"
#include "grade/grade_html.h"
#include "grade/grade_merge.h"
#include "base/util.h"
#include "text/i18n.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const merge_usage = N_(
    "Usage: cltutor grade merge [--batch DIR] [-o FILE] [--html FILE] REPORT...\n"
    "\n"
    "Joins the CSV (or JSON) reports of a batch's shards (`grade --batch --shard\n"
    "I/N`) into the report the whole batch would give, rows sorted by student.\n"
    "A student found in two reports keeps the later report's row (a regraded\n"
    "student given after the class's report), and merge says so. The students\n"
    "of the class that no report has are named (the class comes from JSON\n"
    "reports, or from --batch DIR).\n"
    "\n"
    "  --batch DIR   the batch's submissions, to name the students no report has\n"
    "  -o FILE       write the merged report there (default: standard output);\n"
    "                JSON reports are written as the class's CSV when FILE ends\n"
    "                in .csv\n"
    "  --html FILE   write the class summary page there (default with -o: the\n"
    "                same name ending in .html): the spread of scores, each\n"
    "                chapter, the tests failed most often, and a link to each\n"
    "                student's feedback page beside their JSON report\n"
    "\n"
    "Exit status: 0 merged, 1 merged but students are missing, 64 refused.\n");

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
    fputs("cltutor grade merge: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The summary page's name: --html, else the output's with .html for its extension. */
static int summary_path(const char *output, const char *html, char *out, size_t len) {
    if (html) return util_copy_text(out, len, html) == 0;
    if (!output || !strcmp(output, "-")) return 0;
    const char *slash = strrchr(output, '/'), *dot = strrchr(output, '.');
    int stem = dot && (!slash || dot > slash + 1) ? (int)(dot - output) : (int)strlen(output);
    return util_pathf(out, len, "%.*s.html", stem, output) == 0;
}

/* The class summary of the merged grades: the CSV read back (JSON reports merged again as CSV). */
static int write_summary(const char *path, const char *title, const char *merged, int is_csv,
                         char **files, int n_files, const char *batch) {
    char err[1400];
    char *csv = NULL;
    if (!is_csv) {
        grade_merge_info info;
        csv = grade_merge((const char *const *)files, n_files, batch, 1, &info, err, sizeof err);
        if (csv) grade_merge_info_free(&info);
    }
    grade_batch_row *rows = NULL;
    int n = 0, rc = -1;
    if ((is_csv || csv) && grade_merge_rows(is_csv ? merged : csv, &rows, &n, err, sizeof err) == 0)
        rc = grade_html_write_class(path, title, rows, n, err, sizeof err);
    if (rc != 0) say("%s", err);
    else say(_("class summary in %s"), path);
    grade_batch_free(rows, n);
    free(csv);
    return rc;
}

int cmd_grade_merge(int argc, char **argv) {
    static const struct option opts[] = {{"batch", required_argument, 0, 'b'}, {"output", required_argument, 0, 'o'},
                                         {"html", required_argument, 0, 'H'},  {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *batch = NULL, *output = NULL, *html = NULL;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        if (ch == 'h') return fputs(_(merge_usage), stdout), 0;
        if (ch == '?' || ch == ':') return cli_usage_error("grade merge", _("unknown option %s"), argv[optind - 1]);
        if (ch == 'b') batch = optarg;
        else if (ch == 'H') html = optarg;
        else output = optarg;
    }
    if (optind >= argc) return cli_usage_error("grade merge", "%s", _("name the shards' reports to merge"));
    grade_merge_info info;
    char err[1400];
    size_t ol = output ? strlen(output) : 0;
    int to_csv = ol > 4 && !strcmp(output + ol - 4, ".csv"); /* JSON shards into the class's CSV */
    char *text = grade_merge((const char *const *)argv + optind, argc - optind, batch, to_csv, &info, err,
                             sizeof err);
    if (!text) {
        say("%s", err);
        return EXIT_USAGE;
    }
    int rc = 0;
    if (!output || !strcmp(output, "-")) {
        fputs(text, stdout);
        fflush(stdout);
    } else if (util_write_file_atomic(output, text, strlen(text)) != 0) {
        say(_("cannot write %s"), output);
        rc = EXIT_USAGE;
    }
    for (int i = 0; i < info.n_replaced; i++) {
        char *f[3] = {info.replaced[i], NULL, NULL};
        f[1] = strchr(f[0], '\t');
        f[2] = f[1] ? strchr(f[1] + 1, '\t') : NULL;
        if (!f[2]) continue;
        *f[1]++ = '\0';
        *f[2]++ = '\0';
        say(_("%s: the row from %s replaces the one from %s (a student in two reports keeps the later one)"), f[0],
            f[1], f[2]);
    }
    char page[1400];
    if (rc == 0 && summary_path(output, html, page, sizeof page) &&
        write_summary(page, batch ? batch : output, text, text[0] != '{', argv + optind, argc - optind, batch) != 0)
        rc = EXIT_USAGE;
    free(text);
    if (info.n_missing) {
        fprintf(stderr, "cltutor grade merge: ");
        fprintf(stderr, P_("%d student of the class is in no report:", "%d students of the class are in no report:",
                           info.n_missing), info.n_missing);
        for (int i = 0; i < info.n_missing; i++) fprintf(stderr, " %s", info.missing[i]);
        fprintf(stderr, "\n");
        if (rc == 0) rc = 1;
    } else if (!info.class_known)
        say("%s", _("the class is not known from CSV reports: give --batch DIR, or merge the JSON reports, to check "
                    "that no student is missing"));
    say(P_("%d student merged", "%d students merged", info.rows), info.rows);
    grade_merge_info_free(&info);
    return rc;
}
