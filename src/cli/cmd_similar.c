/* grade similar: the pairs of a batch's submissions that share the most code beyond the starting files */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "base/scratch.h"
#include "base/util.h"
#include "grade/grade.h"
#include "grade/grade_batch.h"
#include "grade/grade_unpack.h"
#include "grade/similarity.h"
#include "problem/problem.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const similar_usage = N_(
    "Usage: cltutor grade similar --batch DIR [LESSON...] [--top N] [--common PCT]\n"
    "                             [--min-shared N] [--json] [-o FILE]\n"
    "\n"
    "Lists the pairs of submissions in a batch that share the most kernel code,\n"
    "closest first, with the lines that match. Each kernel file is cut into\n"
    "fingerprints: runs of 12 tokens, with comments, layout and the names of\n"
    "variables left out, so that renaming or reformatting a copy changes nothing.\n"
    "Set aside first: what the chapter's starting file holds, and what more than\n"
    "PCT percent of the class writes alike (a short answer most students find).\n"
    "A pair's score is the share of the smaller side's own fingerprints that the\n"
    "other holds too. A high score asks for a look at the lines, not a verdict.\n"
    "\n"
    "  --batch DIR       the submissions, as for `grade --batch`: a folder, a\n"
    "                    .zip or a .tar.gz per student\n"
    "  LESSON...         the chapters compared (default: all), each with its\n"
    "                    exercise and its find-the-bug listings\n"
    "  --top N           pairs shown with their lines (default 10; 0: all)\n"
    "  --common PCT      set aside what more than PCT percent of the students\n"
    "                    who handed a file in hold, and more than 3 of them\n"
    "                    (default 20)\n"
    "  --min-shared N    list a pair only when it shares at least N\n"
    "                    fingerprints (default 10: two or three lines)\n"
    "  --json            every pair listed, with its files and line ranges\n"
    "  -o, --output FILE write there instead of standard output\n"
    "\n"
    "Exit status: 0, 1 when a submission could not be read (named on standard\n"
    "error; the others are compared), 64 usage error.\n");

typedef struct {
    cli_ctx *cx;
    const char *batch, *output;
    int top, min_shared, json;
    double common;
    const lesson **lessons;     /* the chapter of each file */
    const char **names;         /* each file: its name in the chapter's folder */
    int n_files;
} similar_args;

/* The class's texts and fingerprints, read in the scratch folder. */
typedef struct {
    grade_batch_row *rows;
    int n;
    char **texts;               /* rows x files; NULL: not handed in */
    sim_class cls;
    sim_prints *starting;
    int unreadable;
} class_files;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cltutor grade similar: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Reads student i's copy of each file (an archive unpacked into scratch first). */
static void read_student(const similar_args *a, class_files *cf, int i, const char *scratch) {
    grade_batch_row *row = &cf->rows[i];
    char exercises[1400], err[1024];
    if (!row->refused && row->archive != UNPACK_NONE) grade_batch_unpack(row, i, scratch); /* refused: it says why */
    if (row->refused || grade_find_exercises(row->dir, exercises, sizeof exercises, err, sizeof err) != 0) {
        say("%s: %s", row->student, row->refused ? row->error : err);
        cf->unreadable++;
        return;
    }
    for (int f = 0; f < a->n_files; f++) {
        int refused = 0;
        char options[512];
        problem_build_options(a->lessons[f], options, sizeof options);
        char *text = grade_read_kernel(exercises, a->lessons[f]->id, a->names[f], options, &refused, err, sizeof err);
        if (!text) continue; /* not handed in, or refused: the grade says why */
        cf->texts[i * a->n_files + f] = text;
        if (sim_fingerprint(text, &cf->cls.files[i * a->n_files + f]) != 0) say("%s", _("out of memory"));
    }
}

/* Prints up to 6 of the lines in ranges r of text, each with its number (blank lines say nothing). */
static void print_lines(FILE *out, const char *who, const char *text, const sim_range *r, int n) {
    int shown = 0, total = 0;
    fprintf(out, "      %s:\n", who);
    const char *line = text;
    for (int no = 1; line && *line; no++) {
        const char *end = strchr(line, '\n');
        int len = end ? (int)(end - line) : (int)strlen(line);
        int in = strspn(line, " \t\r") < (size_t)len ? 0 : -1;
        for (int k = 0; k < n && in == 0; k++) in = no >= r[k].first && no <= r[k].last;
        if (in == 1 && total++ < 6) {
            fprintf(out, "        %4d | %.*s\n", no, len > 100 ? 100 : len, line);
            shown++;
        }
        line = end ? end + 1 : NULL;
    }
    if (total > shown) fprintf(out, "        …\n");
}

/* "12-30, 41-44" */
static void ranges_text(const sim_range *r, int n, char *buf, size_t len) {
    buf[0] = '\0';
    for (int k = 0; k < n; k++) {
        size_t used = strlen(buf);
        if (r[k].first == r[k].last) snprintf(buf + used, len - used, "%s%d", k ? ", " : "", r[k].first);
        else snprintf(buf + used, len - used, "%s%d-%d", k ? ", " : "", r[k].first, r[k].last);
    }
}

static void print_text(FILE *out, const similar_args *a, const class_files *cf, const sim_pair *p, int n) {
    int handed = 0;
    for (int i = 0; i < cf->n; i++) handed += !cf->rows[i].refused;
    fprintf(out, _("Similarity of %d submissions over %d kernel files: runs of %d tokens, with comments, layout and "
                   "names left out; set aside, what the starting files hold and what more than %g%% of the class "
                   "writes alike.\n"),
            handed, a->n_files, SIM_TOKENS, a->common * 100);
    if (n == 0) {
        fprintf(out, _("No two submissions share %d fingerprints beyond that.\n"), a->min_shared);
        return;
    }
    int shown = a->top > 0 && a->top < n ? a->top : n;
    for (int i = 0; i < shown; i++) {
        const char *sa = cf->rows[p[i].a].student, *sb = cf->rows[p[i].b].student;
        fprintf(out, "\n%d. %s ~ %s: %.0f%% ", i + 1, sa, sb, p[i].score * 100);
        fprintf(out, _("(%d of %d fingerprints)\n"), p[i].shared, p[i].smaller);
        for (int k = 0; k < p[i].n_files; k++) {
            const sim_file_match *m = &p[i].files[k];
            char ra[256], rb[256];
            ranges_text(m->a_lines, m->n_a, ra, sizeof ra);
            ranges_text(m->b_lines, m->n_b, rb, sizeof rb);
            fprintf(out, "   %s/%s: ", a->lessons[m->file]->id, a->names[m->file]);
            fprintf(out, _("%d of %d; %s lines %s, %s lines %s\n"), m->shared, m->smaller, sa, ra, sb, rb);
            if (k >= 2) continue; /* the lines of the two files that share the most */
            print_lines(out, sa, cf->texts[p[i].a * a->n_files + m->file], m->a_lines, m->n_a);
            print_lines(out, sb, cf->texts[p[i].b * a->n_files + m->file], m->b_lines, m->n_b);
        }
    }
    if (shown < n)
        fprintf(out, _("\n%d more pairs share at least %d fingerprints (--top 0 shows them all).\n"), n - shown,
                a->min_shared);
}

static cJSON *ranges_json(const sim_range *r, int n) {
    cJSON *arr = cJSON_CreateArray();
    for (int k = 0; k < n; k++) {
        cJSON *one = cJSON_CreateArray();
        cJSON_AddItemToArray(one, cJSON_CreateNumber(r[k].first));
        cJSON_AddItemToArray(one, cJSON_CreateNumber(r[k].last));
        cJSON_AddItemToArray(arr, one);
    }
    return arr;
}

static char *json_text(const similar_args *a, const class_files *cf, const sim_pair *p, int n) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", "cltutor-similarity");
    cJSON_AddNumberToObject(o, "tokens", SIM_TOKENS);
    cJSON_AddNumberToObject(o, "common_fraction", a->common);
    cJSON_AddNumberToObject(o, "min_shared", a->min_shared);
    cJSON *students = cJSON_AddArrayToObject(o, "students");
    for (int i = 0; i < cf->n; i++) cJSON_AddItemToArray(students, cJSON_CreateString(cf->rows[i].student));
    cJSON *pairs = cJSON_AddArrayToObject(o, "pairs");
    for (int i = 0; i < n; i++) {
        cJSON *pj = cJSON_CreateObject();
        cJSON_AddStringToObject(pj, "a", cf->rows[p[i].a].student);
        cJSON_AddStringToObject(pj, "b", cf->rows[p[i].b].student);
        cJSON_AddNumberToObject(pj, "score", p[i].score);
        cJSON_AddNumberToObject(pj, "shared", p[i].shared);
        cJSON_AddNumberToObject(pj, "smaller", p[i].smaller);
        cJSON *files = cJSON_AddArrayToObject(pj, "files");
        for (int k = 0; k < p[i].n_files; k++) {
            const sim_file_match *m = &p[i].files[k];
            cJSON *fj = cJSON_CreateObject();
            char name[256];
            snprintf(name, sizeof name, "%s/%s", a->lessons[m->file]->id, a->names[m->file]);
            cJSON_AddStringToObject(fj, "file", name);
            cJSON_AddNumberToObject(fj, "shared", m->shared);
            cJSON_AddNumberToObject(fj, "smaller", m->smaller);
            cJSON_AddItemToObject(fj, "a_lines", ranges_json(m->a_lines, m->n_a));
            cJSON_AddItemToObject(fj, "b_lines", ranges_json(m->b_lines, m->n_b));
            cJSON_AddItemToArray(files, fj);
        }
        cJSON_AddItemToArray(pairs, pj);
    }
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    return s;
}

/* In the scratch folder: reads the class, compares, writes the report. */
static int compare_class(void *arg, const char *scratch) {
    similar_args *a = arg;
    class_files cf = {0};
    char err[1400];
    if (grade_batch_list(a->batch, 0, 0, &cf.rows, &cf.n, NULL, err, sizeof err) != 0) {
        say("%s", err);
        return EXIT_USAGE;
    }
    size_t cells = (size_t)cf.n * (size_t)a->n_files;
    cf.texts = calloc(cells ? cells : 1, sizeof *cf.texts);
    cf.cls = (sim_class){.n_students = cf.n, .n_files = a->n_files, .files = calloc(cells ? cells : 1, sizeof(sim_prints))};
    cf.starting = calloc((size_t)a->n_files, sizeof *cf.starting);
    if (!cf.texts || !cf.cls.files || !cf.starting) {
        say("%s", _("out of memory"));
        return 1;
    }
    for (int f = 0; f < a->n_files; f++) {
        char path[1400];
        util_pathf(path, sizeof path, "%s/exercises/%s/%s", a->cx->paths.data, a->lessons[f]->id, a->names[f]);
        char *text = util_read_file(path, NULL);
        if (text) sim_fingerprint(text, &cf.starting[f]);
        free(text);
    }
    for (int i = 0; i < cf.n; i++) read_student(a, &cf, i, scratch);
    sim_pair *pairs = NULL;
    int n = sim_compare(&cf.cls, cf.starting, a->common, a->min_shared, &pairs);
    int rc = cf.unreadable ? 1 : 0;
    FILE *out = a->output ? fopen(a->output, "w") : stdout;
    if (n < 0) {
        say("%s", _("out of memory"));
        rc = 1;
    } else if (!out) {
        say(_("cannot write %s"), a->output);
        rc = EXIT_USAGE;
    } else if (a->json) {
        char *s = json_text(a, &cf, pairs, n);
        if (s) fprintf(out, "%s\n", s);
        free(s);
    } else {
        print_text(out, a, &cf, pairs, n);
    }
    if (out && out != stdout && fclose(out) != 0) {
        say(_("cannot write %s"), a->output);
        rc = EXIT_USAGE;
    }
    sim_pairs_free(pairs, n > 0 ? n : 0);
    for (size_t k = 0; k < cells; k++) {
        free(cf.texts[k]);
        sim_prints_free(&cf.cls.files[k]);
    }
    for (int f = 0; f < a->n_files; f++) sim_prints_free(&cf.starting[f]);
    free(cf.texts);
    free(cf.cls.files);
    free(cf.starting);
    grade_batch_free(cf.rows, cf.n);
    return rc;
}

int cmd_grade_similar(cli_ctx *cx, int argc, char **argv) {
    static const struct option opts[] = {
        {"batch", required_argument, 0, 'b'}, {"top", required_argument, 0, 't'},
        {"common", required_argument, 0, 'c'}, {"min-shared", required_argument, 0, 'm'},
        {"json", no_argument, 0, 'j'},        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    similar_args a = {.cx = cx, .top = 10, .min_shared = 10, .common = 0.2};
    double v;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'h': return fputs(_(similar_usage), stdout), 0;
        case 'b': a.batch = optarg; break;
        case 'o': a.output = optarg; break;
        case 'j': a.json = 1; break;
        case 't':
            if (cli_parse_double("grade similar", "--top", optarg, 0, 100000, &v)) return EXIT_USAGE;
            a.top = (int)v;
            break;
        case 'm':
            if (cli_parse_double("grade similar", "--min-shared", optarg, 1, 100000, &v)) return EXIT_USAGE;
            a.min_shared = (int)v;
            break;
        case 'c':
            if (cli_parse_double("grade similar", "--common", optarg, 0, 100, &v)) return EXIT_USAGE;
            a.common = v / 100;
            break;
        default: return cli_usage_error("grade similar", _("unknown option %s"), argv[optind - 1]);
        }
    }
    if (!a.batch) return cli_usage_error("grade similar", "%s", _("give the submissions with --batch DIR"));
    if (cli_load_catalog(cx)) return EXIT_USAGE;
    int *selected = calloc((size_t)cx->cat.count + 1, sizeof *selected);
    if (!selected || cli_select_lessons(cx, "grade similar", argc - optind, argv + optind, selected) < 0) {
        free(selected);
        return EXIT_USAGE;
    }
    int cap = cx->cat.count * (LESSON_MAX_BUGS + 1) + 1;
    a.lessons = calloc((size_t)cap, sizeof *a.lessons);
    a.names = calloc((size_t)cap, sizeof *a.names);
    for (int i = 0; a.lessons && a.names && i < cx->cat.count; i++) {
        const lesson *l = &cx->cat.items[i];
        if (!selected[i]) continue;
        a.lessons[a.n_files] = l;
        a.names[a.n_files++] = l->exercise;
        for (int b = 0; b < l->n_bugs; b++) {
            a.lessons[a.n_files] = l;
            a.names[a.n_files++] = l->bugs[b].file;
        }
    }
    char err[1024];
    int rc = a.lessons && a.names ? scratch_run("cltutor-similar", compare_class, &a, err, sizeof err) : -1;
    if (rc < 0) {
        say("%s", a.lessons && a.names ? err : _("out of memory"));
        rc = 1;
    }
    free(selected);
    free(a.lessons);
    free(a.names);
    return rc;
}
