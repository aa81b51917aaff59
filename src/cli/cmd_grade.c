/* grade: hidden tests, technique checks and scores for one submission or a folder of them */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "grade/grade.h"
#include "grade/grade_batch.h"
#include "grade/grade_html.h"
#include "grade/grade_merge.h"
#include "grade/grade_late.h"
#include "grade/grade_report.h"
#include "base/scratch.h"
#include "run/confine.h"
#include "base/util.h"
#include "text/i18n.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const grade_usage = N_(
    "Usage: cltutor grade [LESSON...] [--dir DIR] [--format FORMAT] [-o FILE] [OPTIONS]\n"
    "       cltutor grade LESSON --kernel FILE [--format FORMAT] [OPTIONS]\n"
    "       cltutor grade [LESSON...] --batch DIR [--shard I/N] [-j N] [-o grades.csv] [OPTIONS]\n"
    "       cltutor grade merge [--batch DIR] [-o FILE] REPORT...\n"
    "       cltutor grade similar --batch DIR [LESSON...] [OPTIONS]\n"
    "\n"
    "Grades exercises with hidden tests: inputs drawn fresh from a seed, ragged\n"
    "and degenerate sizes, large sizes, the inputs that expose each chapter's\n"
    "find-the-bug listings, and checks that the kernel uses what the chapter\n"
    "teaches. Only the exercise kernel files are read from a submission; the\n"
    "tests, references and weights come from the installed course. Learner\n"
    "kernels run in worker processes under time and memory limits.\n"
    "\n"
    "LESSON is a chapter number or name; the default is every chapter.\n"
    "\n"
    "  --dir DIR            the submission: a workspace holding exercises/NN-name/\n"
    "                       (default: your own workspace)\n"
    "  --kernel FILE        grade FILE (- for standard input) as the exercise of the\n"
    "                       one LESSON named, e.g. an answer that CodeRunner pipes in\n"
    "                       (implies --exercise-only)\n"
    "  --exercise-only      grade only the tests of each chapter's exercise file,\n"
    "                       without its fixed find-the-bug listings (for a platform\n"
    "                       where students hand in one file)\n"
    "  --format FORMAT      text (default), json, junit, tap, gradescope,\n"
    "                       prairielearn, coderunner or markdown (feedback for the\n"
    "                       student); with --batch, csv (default) or json\n"
    "  --score-only         print only the score as a fraction from 0 to 1 (for\n"
    "                       CodeGrade's captured points); nothing when no grade\n"
    "  -o, --output FILE    write the report to FILE (default: standard output);\n"
    "                       with --batch, the CSV (or JSON) of grades\n"
    "  --pass FRACTION      exit 0 when the score reaches FRACTION (0 to 1) of the\n"
    "                       points, e.g. 0.8 for a GitHub Classroom test (default 1)\n"
    "  --seed N             draw the hidden tests from this seed (default: a fresh\n"
    "                       one, printed, so that a grade can be reproduced); with\n"
    "                       --batch, each student's seed is drawn from N and the\n"
    "                       student's name (the CSV's seed column)\n"
    "  --same-seed          with --batch, grade every student on the seed itself:\n"
    "                       the same hidden inputs for the whole class\n"
    "  --analysis-seed N    draw the size of the race and technique checks from N\n"
    "                       (default: --seed; with --batch, the batch's seed, the\n"
    "                       same for every student: give it to regrade one\n"
    "                       student of a batch alone)\n"
    "  --device SPEC        an index from `cltutor devices` or part of a device name\n"
    "  --timeout SEC        wall-clock limit of one kernel run (default 10)\n"
    "  --cpu-limit SEC      CPU time of one test's worker (default 60 + the\n"
    "                       timeout on every CPU)\n"
    "  --memory-limit MB    data memory of one test's worker (default 2048)\n"
    "  --require-speedup X  also grade a speed-up of X over the previous chapter's\n"
    "                       reference, both timed in this run (needs --device)\n"
    "  --weights LIST       this assignment's points of each chapter's groups of\n"
    "                       tests, e.g. 'tests:60 technique:40 fixes:0' (groups:\n"
    "                       tests, technique, fixes, speed; default: the chapter's\n"
    "                       lesson.ini, else technique 30, fixes 10 and tests the\n"
    "                       rest of 100)\n"
    "  --visibility V       Gradescope visibility of each test: visible (default),\n"
    "                       hidden, after_due_date or after_published\n"
    "  --due TIME           the due date: 2026-12-01 23:59 (local time),\n"
    "                       2026-12-01T15:59Z or @SECONDS; the report says when the\n"
    "                       submission was handed in (its newest file's time, an\n"
    "                       archive's own) and how many days late\n"
    "  --late-penalty PCT   with --due, percent of the score taken off per day or\n"
    "                       part of a day late (default 0)\n"
    "  --late-limit DAYS    with --due, no score past this many days late\n"
    "  --submitted TIME     with --due, when this submission was handed in (what\n"
    "                       a platform says), instead of its files' time\n"
    "  --hidden-inputs WHEN when students see the hidden tests' sizes and inputs:\n"
    "                       after_due_date (default: Gradescope shows those tests\n"
    "                       after the due date; PrairieLearn and CodeRunner name\n"
    "                       them without their inputs) or visible\n"
    "  --plan               list the hidden tests and their points; run nothing\n"
    "  --tests ID,...       run only these tests (ids from --plan), e.g. to regrade\n"
    "                       one test with the seed of a report\n"
    "  --batch DIR          grade every entry of DIR: one folder, .zip or .tar.gz per\n"
    "                       student (archives are unpacked into the temporary\n"
    "                       folder; links, absolute paths, '..', more than 64 MiB or\n"
    "                       2000 entries are refused, as is any other file: each\n"
    "                       refused entry has a row saying why)\n"
    "  --shard I/N          with --batch, grade only the I-th of N slices of the\n"
    "                       class, dealt by the kernel files each student handed\n"
    "                       in so that slices take about as long (needs --seed);\n"
    "                       `grade merge` joins the slices' reports\n"
    "  -j, --jobs N         with --batch, students graded at once (default 1)\n"
    "  --reports DIR        with --batch, where each student's JSON report and\n"
    "                       Markdown feedback go (default: next to the CSV,\n"
    "                       NAME-reports/)\n"
    "  --student-limit SEC  with --batch, wall-clock limit of one student's grading\n"
    "                       (default 1800); past it the student's processes are\n"
    "                       stopped, the CSV says time_limit, the others go on\n"
    "\n"
    "`grade merge` joins the CSV (or JSON) reports of a batch's shards into the\n"
    "report the whole batch would give, with its class summary page.\n"
    "\n"
    "Temporary files live in one folder, cltutor-grade-XXXXXX in $TMPDIR (or /tmp),\n"
    "removed at the end, also on SIGINT or SIGTERM.\n"
    "\n"
    "Exit status: 0 full marks (or --pass reached), 1 some tests failed, 64 usage\n"
    "error, 69 the grader could not run (no usable OpenCL device, a course or\n"
    "chapter that cannot be read): no grade was given, and the report says so the\n"
    "way its platform expects, 128+N stopped by signal N (130 SIGINT, 143 SIGTERM).\n"
    "With --batch: 0 the batch finished (every entry has a row; see its status:\n"
    "ok, no files, time_limit, refused: ... or error: ...), 3 the grader failed\n"
    "for some students (status error), 64 usage error (also an unwritable CSV),\n"
    "69 it failed for every student or could not start, 128+N stopped by signal N.\n"
    "grade merge: 0 merged, 1 merged but students are missing, 64 refused\n"
    "(`cltutor grade merge --help`).\n");

/* "cltutor grade: " and a message on standard error; fmt is translated already. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
    fputs("cltutor grade: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

typedef struct {
    int enabled, shown;
} grade_live;

static void on_test(void *user, const grade_chapter *ch, const grade_test *t, int done, int total) {
    grade_live *gl = user;
    if (!gl->enabled) return;
    fprintf(stderr, "\r\033[K[%d/%d] %s: %.60s", done, total, ch->id, t->name);
    fflush(stderr);
    gl->shown = 1;
}

static void on_batch(void *user, int tests_done, int tests_total, int done, int total, const char *student) {
    grade_live *gl = user;
    if (!gl->enabled) return;
    int width = 30, fill = tests_total ? tests_done * width / tests_total : 0;
    char bar[64];
    for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    fputs("\r\033[K", stderr);
    if (student && *student)
        fprintf(stderr, _("[%s] %d/%d tests, %d/%d students, last: %.40s"), bar, tests_done, tests_total, done, total,
                student);
    else
        fprintf(stderr, _("[%s] %d/%d tests, %d/%d students"), bar, tests_done, tests_total, done, total);
    fflush(stderr);
    gl->shown = 1;
}

static void live_clear(grade_live *gl) {
    if (gl->shown) fprintf(stderr, "\r\033[K");
    fflush(stderr);
    gl->shown = 0;
}

static int write_out(const char *path, const char *text) {
    if (!path || !strcmp(path, "-")) {
        fputs(text, stdout);
        fflush(stdout);
        return 0;
    }
    if (util_write_file_atomic(path, text, strlen(text)) != 0) {
        say(_("cannot write %s"), path);
        return -1;
    }
    return 0;
}

static int print_plan(const grade_options *o, int json) {
    grade_chapter *chs = calloc((size_t)(o->n_lessons ? o->n_lessons : 1), sizeof *chs);
    int n = 0, rc = 0;
    for (int i = 0; i < o->n_lessons; i++) {
        char err[1400];
        if (grade_plan(o, o->lessons[i], &chs[n], err, sizeof err) != 0) {
            say("%s", err);
            rc = EXIT_USAGE;
            break;
        }
        n++;
    }
    if (rc == 0 && json) {
        cJSON *j = grade_plan_json(chs, n, o->seed);
        cli_print_json(j);
        cJSON_Delete(j);
    } else if (rc == 0) {
        for (int i = 0; i < n; i++) {
            const grade_chapter *ch = &chs[i];
            char a[32];
            grade_format_points(ch->max_score, a, sizeof a);
            printf(_("Chapter %d: %s  (%s points)"), ch->number,
                   !strcmp(i18n_lang(), "zh") && ch->title_zh[0] ? ch->title_zh : ch->title, a);
            printf("\n");
            for (int k = 0; k < ch->n_tests; k++) {
                const grade_test *t = &ch->tests[k];
                int other = strcmp(t->file, o->lessons[i]->exercise) != 0;
                grade_format_points(t->max_score, a, sizeof a);
                printf("  %6s  %-24s %s%s%s%s", a, t->id, t->name, other ? "  [" : "", other ? t->file : "",
                       other ? "]" : "");
                if (t->kind == GT_SAFETY || t->kind == GT_TECHNIQUE) printf(_("  (at %s)"), t->size);
                if (t->scale_size[0]) printf(_(" and %s"), t->scale_size);
                printf("\n");
            }
        }
        printf("\n");
        printf(_("Seed %llu: the sizes and inputs change with the seed."), (unsigned long long)o->seed);
        printf("\n");
    }
    for (int i = 0; i < n; i++) free(chs[i].tests);
    free(chs);
    return rc;
}

typedef struct {
    grade_options *o;
    const lesson **lessons;
    const char *batch, *output, *reports, *kernel;
    grade_batch_spec spec;
    int json;             /* --batch --format json */
    double pass;          /* the fraction of the points that exits 0 */
    grade_format fmt;
    grade_report_style *st;
    grade_live *live;
} grade_run_ctx;

/* The batch's grades: CSV, or JSON with the whole class's names (for `grade merge`). */
static int write_batch(grade_run_ctx *g, const grade_batch_row *rows, int n) {
    char *text;
    if (g->json) {
        grade_batch_row *all = NULL;
        int na = 0;
        char err[1400];
        const char **names = NULL;
        if (grade_batch_list(g->batch, 0, 0, &all, &na, NULL, err, sizeof err) == 0 &&
            (names = calloc((size_t)na + 1, sizeof *names)))
            for (int i = 0; i < na; i++) names[i] = all[i].student;
        text = grade_batch_json(g->o, &g->spec, rows, n, names, names ? na : 0);
        free(names);
        free(all);
    } else text = grade_batch_csv(g->o, rows, n);
    int rc = write_out(g->output, text ? text : "") == 0 ? 0 : EXIT_USAGE;
    free(text);
    return rc;
}

/* --kernel FILE (or - for standard input): a submission of that one file, as
 * the chapter's exercise, in the scratch folder; 0, or the exit status. */
static int put_kernel(const char *kernel, const lesson *l, const char *scratch, char *dir, size_t len) {
    enum { MAX = 1 << 20 };
    char *text = malloc(MAX + 1);
    size_t n = 0;
    FILE *f = strcmp(kernel, "-") ? fopen(kernel, "rb") : stdin;
    if (!text || !f) {
        free(text);
        say(_("--kernel %s: cannot read it"), kernel);
        return EXIT_USAGE;
    }
    n = fread(text, 1, MAX + 1, f);
    if (f != stdin) fclose(f);
    if (n > MAX) n = MAX; /* more than a kernel may be: the grader refuses it and says why */
    char path[1500];
    snprintf(dir, len, "%s/answer", scratch);
    int ok = util_pathf(path, sizeof path, "%s/exercises/%s", dir, l->id) == 0 && util_mkdirs(path) == 0 &&
             util_pathf(path, sizeof path, "%s/exercises/%s/%s", dir, l->id, l->exercise) == 0 &&
             util_write_file_atomic(path, text, n) == 0;
    free(text);
    if (!ok) {
        say(_("cannot create a temporary folder in %s"), scratch);
        return EXIT_USAGE;
    }
    return 0;
}

/* --batch, in the run's scratch folder: a CSV row and a JSON report per student. */
static int run_batch(void *arg, const char *scratch) {
    (void)scratch; /* the batch's own folders are made in it, through $TMPDIR */
    grade_run_ctx *g = arg;
    const grade_options *o = g->o;
    const char *output = g->output;
    char err[1400], rdir[1400];
    if (g->reports) snprintf(rdir, sizeof rdir, "%s", g->reports);
    else if (output && strcmp(output, "-")) {
        snprintf(rdir, sizeof rdir, "%s", output);
        size_t n = strlen(rdir);
        if (n > 4 && !strcmp(rdir + n - 4, ".csv")) rdir[n - 4] = '\0';
        else if (n > 5 && !strcmp(rdir + n - 5, ".json")) rdir[n - 5] = '\0';
        strncat(rdir, "-reports", sizeof rdir - strlen(rdir) - 1);
    } else snprintf(rdir, sizeof rdir, "grade-reports");
    say(_("batch %s, seed %llu (--seed %llu grades the same tests), %d at a time"), g->batch,
        (unsigned long long)o->seed, (unsigned long long)o->seed, g->spec.jobs);
    if (g->spec.shards)
        say(_("shard %d of %d: the students dealt by their kernel files, heaviest first, each to the lightest shard"),
            g->spec.shard, g->spec.shards);
    grade_batch_row *rows = NULL;
    int n = 0;
    double t0 = util_now();
    if (grade_batch_run(o, g->batch, rdir, &g->spec, g->st, on_batch, g->live, &rows, &n, err, sizeof err) != 0) {
        live_clear(g->live);
        say("%s", err);
        return EXIT_USAGE;
    }
    live_clear(g->live);
    int rc = write_batch(g, rows, n);
    char page[1400];
    if (util_pathf(page, sizeof page, "%s/index.html", rdir) != 0)
        say(_("cannot write the class summary %s/index.html"), rdir);
    else if (grade_html_write_class(page, g->batch, rows, n, err, sizeof err) != 0)
        say("%s", err);
    int errors = 0, empty = 0, late = 0, refused = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].refused) {
            refused++;
            say(_("not graded: %s"), rows[i].error);
        } else if (rows[i].time_limit) {
            late++;
            say("%s: %s", rows[i].student, rows[i].error);
        } else if (!rows[i].graded) {
            errors++;
            say("%s: %s", rows[i].student, rows[i].error);
        }
    for (int i = 0; i < n; i++)
        if (rows[i].graded && !rows[i].submitted) {
            if (!empty++) fprintf(stderr, "cltutor grade: %s", _("none of the exercise files was found for:"));
            fprintf(stderr, " %s", rows[i].student);
        }
    if (empty) {
        char ex[1200];
        snprintf(ex, sizeof ex, "exercises/%s/%s", g->lessons[0]->id, g->lessons[0]->exercise);
        fprintf(stderr, "\n  ");
        fprintf(stderr, _("(status \"no files\"). Each student's folder should hold the files as in the workspace, "
                          "e.g. STUDENT/%s."), ex);
        fprintf(stderr, "\n");
    }
    int graded = n - errors - late - refused;
    if (refused)
        say(P_("%d entry was not graded (status \"refused\" in the grades, with the reason)",
               "%d entries were not graded (status \"refused\" in the grades, with the reason)", refused), refused);
    double took = util_now() - t0;
    if (output && strcmp(output, "-")) {
        if (late)
            say(P_("%d student graded in %.0f s (some stopped at --student-limit: status time_limit); grades in %s; "
                   "reports in %s/",
                   "%d students graded in %.0f s (some stopped at --student-limit: status time_limit); grades in %s; "
                   "reports in %s/", graded), graded, took, output, rdir);
        else
            say(P_("%d student graded in %.0f s; grades in %s; reports in %s/",
                   "%d students graded in %.0f s; grades in %s; reports in %s/", graded), graded, took, output, rdir);
    } else if (late) {
        say(P_("%d student graded in %.0f s (some stopped at --student-limit: status time_limit); reports in %s/",
               "%d students graded in %.0f s (some stopped at --student-limit: status time_limit); reports in %s/",
               graded), graded, took, rdir);
    } else {
        say(P_("%d student graded in %.0f s; reports in %s/", "%d students graded in %.0f s; reports in %s/", graded),
            graded, took, rdir);
    }
    if (errors && rc == 0) rc = errors == n - refused ? GRADE_EXIT_CANNOT_RUN : EXIT_CRASH;
    grade_batch_free(rows, n);
    return rc;
}

/* One submission, in the run's scratch folder. */
static int run_single(void *arg, const char *scratch) {
    grade_run_ctx *g = arg;
    grade_options o = *g->o;
    const char *output = g->output;
    char work[1200];
    snprintf(work, sizeof work, "%s/work", scratch);
    if (util_mkdirs(work) != 0) {
        say(_("cannot create a temporary folder in %s"), scratch);
        return EXIT_USAGE;
    }
    o.work_dir = work;
    char answer[1200];
    if (g->kernel) {
        int krc = put_kernel(g->kernel, g->lessons[0], scratch, answer, sizeof answer);
        if (krc) return krc;
        o.submission = answer;
        o.student = strcmp(g->kernel, "-") ? g->kernel : "stdin";
    }
    if ((g->fmt != GF_TEXT && g->fmt != GF_SCORE) || (output && strcmp(output, "-")))
        say(_("seed %llu (--seed %llu grades the same tests)"), (unsigned long long)o.seed, (unsigned long long)o.seed);
    grade_result r;
    grade_run(&o, on_test, g->live, NULL, &r);
    live_clear(g->live);
    grade_remove_tree(work);
    g->st->color = g->fmt == GF_TEXT && !(output && strcmp(output, "-")) && isatty(1) && !getenv("NO_COLOR");
    char *text = grade_report_render(&r, g->fmt, g->st);
    int rc = write_out(output, text ? text : "") == 0 ? 0 : EXIT_USAGE;
    free(text);
    if (r.fatal) say(_("the grader could not run: %s"), r.fatal_msg);
    else if ((g->fmt != GF_TEXT && g->fmt != GF_SCORE) || (output && strcmp(output, "-"))) {
        char a[32], b[32];
        grade_format_points(r.score, a, sizeof a);
        grade_format_points(r.max_score, b, sizeof b);
        say(_("%s / %s (%d passed, %d failed, %d skipped)"), a, b, r.n_passed, r.n_failed, r.n_skipped);
    }
    if (rc == 0 && r.fatal) rc = r.fatal >= 128 ? r.fatal : GRADE_EXIT_CANNOT_RUN;
    else if (rc == 0) rc = grade_fraction(&r) >= g->pass - 1e-9 && (r.n_failed == 0 || g->pass < 1) ? 0 : EXIT_WRONG;
    grade_result_free(&r);
    return rc;
}

enum { O_SEED = 256, O_ANALYSIS_SEED, O_TIMEOUT, O_CPU, O_MEM, O_SPEED, O_VIS, O_PLAN, O_BATCH, O_REPORTS, O_DIR, O_FORMAT,
       O_DEVICE, O_TESTS, O_STUDENT_LIMIT, O_KERNEL, O_SCORE_ONLY, O_PASS, O_HIDDEN, O_SHARD, O_SAME_SEED,
       O_EXERCISE_ONLY, O_DUE, O_SUBMITTED, O_LATE_PENALTY, O_LATE_LIMIT, O_WEIGHTS };

/* What the command line asked for. */
typedef struct {
    grade_options o;
    const char *dir, *output, *batch, *reports, *visibility, *kernel;
    grade_format fmt;
    grade_hidden hidden;
    int plan, have_seed, have_format, csv, shard, shards, same_seed, exercise_only, late_options;
    double jobs, student_limit, pass;
} grade_args;

/* --shard I/N: 1 <= I <= N <= 10000. */
static int parse_shard(const char *arg, grade_args *a) {
    char *end;
    long i = strtol(arg, &end, 10), n = 0;
    if (end != arg && *end == '/') {
        const char *q = end + 1;
        n = strtol(q, &end, 10);
        if (end == q) n = 0;
    }
    if (*end || i < 1 || n < 1 || i > n || n > 10000)
        return cli_usage_error("grade", _("--shard '%s': give I/N with 1 <= I <= N, e.g. 2/4"), arg);
    a->shard = (int)i;
    a->shards = (int)n;
    return -1;
}

/* A due date's options into a; returns -1 to go on, else the exit status. */
static int late_option(int ch, const char *arg, grade_args *a) {
    double v;
    switch (ch) {
    case O_DUE:
    case O_SUBMITTED:
        if (grade_parse_time(arg, ch == O_DUE ? &a->o.due : &a->o.submitted) != 0)
            return cli_usage_error("grade", _("%s '%s': give a date and time, e.g. 2026-12-01 23:59 (local time), "
                                              "2026-12-01T15:59Z, or @SECONDS since 1970"),
                                   ch == O_DUE ? "--due" : "--submitted", arg);
        return -1;
    case O_LATE_PENALTY:
        if (cli_parse_double("grade", "--late-penalty", arg, 0, 100, &v)) return EXIT_USAGE;
        a->o.late_penalty = v / 100;
        a->late_options++;
        return -1;
    case O_LATE_LIMIT:
        if (cli_parse_double("grade", "--late-limit", arg, 0, 3650, &v)) return EXIT_USAGE;
        a->o.late_limit_days = (int)v;
        a->late_options++;
        return -1;
    }
    return -1;
}

/* One option into a; returns -1 to go on, else the exit status. */
static int grade_option(int ch, const char *arg, grade_args *a) {
    double v;
    if (ch >= O_DUE && ch <= O_LATE_LIMIT) return late_option(ch, arg, a);
    switch (ch) {
    case O_DIR: a->dir = arg; break;
    case O_FORMAT:
        a->have_format = 1;
        if (!strcmp(arg, "csv")) a->csv = 1;
        else if (grade_format_parse(arg, &a->fmt) != 0)
            return cli_usage_error("grade", _("--format '%s': use text, json, junit, tap, gradescope, prairielearn, "
                                              "coderunner or markdown (with --batch: csv or json)"), arg);
        break;
    case O_SCORE_ONLY: a->fmt = GF_SCORE; break;
    case O_KERNEL: a->kernel = arg; break;
    case O_PASS: return cli_parse_double("grade", "--pass", arg, 0, 1, &a->pass) ? EXIT_USAGE : -1;
    case O_HIDDEN:
        if (grade_hidden_parse(arg, &a->hidden) != 0)
            return cli_usage_error("grade", _("--hidden-inputs '%s': use after_due_date or visible"), arg);
        break;
    case O_SHARD: return parse_shard(arg, a);
    case O_SAME_SEED: a->same_seed = 1; break;
    case O_EXERCISE_ONLY: a->exercise_only = 1; break;
    case 'o': a->output = arg; break;
    case O_SEED:
    case O_ANALYSIS_SEED: {
        const char *name = ch == O_SEED ? "--seed" : "--analysis-seed";
        char *end;
        unsigned long long s = strtoull(arg, &end, 10);
        if (!*arg || *end || arg[0] == '-' || s == 0 || s > (1ull << 53))
            return cli_usage_error("grade", _("%s '%s': give a whole number from 1 to 2^53"), name, arg);
        if (ch == O_SEED) a->o.seed = s, a->have_seed = 1;
        else a->o.analysis_seed = s;
        break;
    }
    case O_DEVICE: a->o.device_spec = arg; break;
    case O_TIMEOUT: return cli_parse_double("grade", "--timeout", arg, 0.1, 3600, &a->o.timeout_s) ? EXIT_USAGE : -1;
    case O_CPU:
        if (cli_parse_double("grade", "--cpu-limit", arg, 1, 86400, &v)) return EXIT_USAGE;
        a->o.cpu_s = (long)v;
        break;
    case O_MEM:
        if (cli_parse_double("grade", "--memory-limit", arg, 64, 1 << 20, &v)) return EXIT_USAGE;
        a->o.memory_mb = (long)v;
        break;
    case O_SPEED:
        return cli_parse_double("grade", "--require-speedup", arg, 0.001, 1e6, &a->o.require_speedup) ? EXIT_USAGE : -1;
    case O_WEIGHTS: {
        char err[512];
        if (grade_weights_check(arg, err, sizeof err) != 0) return cli_usage_error("grade", "%s", err);
        a->o.weights = arg;
        break;
    }
    case O_VIS:
        if (!grade_visibility_ok(arg))
            return cli_usage_error("grade", _("--visibility '%s': use visible, hidden, after_due_date or "
                                              "after_published"), arg);
        a->visibility = arg;
        break;
    case O_PLAN: a->plan = 1; break;
    case O_BATCH: a->batch = arg; break;
    case 'j': return cli_parse_double("grade", "--jobs", arg, 1, 64, &a->jobs) ? EXIT_USAGE : -1;
    case O_REPORTS: a->reports = arg; break;
    case O_TESTS: a->o.only = arg; break;
    case O_STUDENT_LIMIT:
        return cli_parse_double("grade", "--student-limit", arg, 1, 7 * 86400, &a->student_limit) ? EXIT_USAGE : -1;
    }
    return -1;
}

/* Parses the options and checks how they combine; -1 to go on, else the exit status. */
static int grade_options_from(int argc, char **argv, grade_args *a) {
    static const struct option opts[] = {
        {"dir", required_argument, 0, O_DIR},          {"format", required_argument, 0, O_FORMAT},
        {"output", required_argument, 0, 'o'},         {"seed", required_argument, 0, O_SEED},
        {"analysis-seed", required_argument, 0, O_ANALYSIS_SEED},
        {"device", required_argument, 0, O_DEVICE},    {"timeout", required_argument, 0, O_TIMEOUT},
        {"cpu-limit", required_argument, 0, O_CPU},    {"memory-limit", required_argument, 0, O_MEM},
        {"require-speedup", required_argument, 0, O_SPEED}, {"visibility", required_argument, 0, O_VIS},
        {"weights", required_argument, 0, O_WEIGHTS},
        {"plan", no_argument, 0, O_PLAN},              {"batch", required_argument, 0, O_BATCH},
        {"jobs", required_argument, 0, 'j'},           {"reports", required_argument, 0, O_REPORTS},
        {"tests", required_argument, 0, O_TESTS},      {"student-limit", required_argument, 0, O_STUDENT_LIMIT},
        {"kernel", required_argument, 0, O_KERNEL},    {"score-only", no_argument, 0, O_SCORE_ONLY},
        {"pass", required_argument, 0, O_PASS},        {"hidden-inputs", required_argument, 0, O_HIDDEN},
        {"shard", required_argument, 0, O_SHARD},      {"same-seed", no_argument, 0, O_SAME_SEED},
        {"exercise-only", no_argument, 0, O_EXERCISE_ONLY},
        {"due", required_argument, 0, O_DUE},          {"submitted", required_argument, 0, O_SUBMITTED},
        {"late-penalty", required_argument, 0, O_LATE_PENALTY}, {"late-limit", required_argument, 0, O_LATE_LIMIT},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "o:j:h", opts, NULL)) != -1) {
        if (ch == 'h') return fputs(_(grade_usage), stdout), 0;
        if (ch == '?' || ch == ':') return cli_usage_error("grade", _("unknown option %s"), argv[optind - 1]);
        int rc = grade_option(ch, optarg, a);
        if (rc >= 0) return rc;
    }
    if ((a->batch != NULL) + (a->dir != NULL) + (a->kernel != NULL) > 1)
        return cli_usage_error("grade", "%s", _("--batch, --dir and --kernel cannot be used together"));
    if ((a->o.submitted > 0 || a->late_options) && a->o.due <= 0)
        return cli_usage_error("grade", "%s", _("--submitted, --late-penalty and --late-limit need --due"));
    if (a->o.submitted > 0 && a->batch)
        return cli_usage_error("grade", "%s", _("--submitted is for one submission: in a batch each entry's own "
                                                "time counts (an archive's, or the newest file of a folder)"));
    if (a->plan && a->fmt != GF_TEXT && a->fmt != GF_JSON)
        return cli_usage_error("grade", "%s", _("--plan prints text or, with --format json, JSON"));
    if (a->batch && a->fmt != GF_TEXT && a->fmt != GF_JSON)
        return cli_usage_error("grade", "%s", _("--batch writes a CSV (or with --format json, JSON) and a JSON report "
                                                "per student; the other formats are for one submission"));
    if (a->csv && !a->batch) return cli_usage_error("grade", "%s", _("--format csv is for --batch"));
    if (a->batch && (a->pass < 1 || a->fmt == GF_SCORE))
        return cli_usage_error("grade", _("%s is for one submission; a batch's grades are in its CSV"),
                               a->pass < 1 ? "--pass" : "--score-only");
    if (!a->batch && (a->reports || a->jobs != 1 || a->student_limit > 0 || a->shards || a->same_seed))
        return cli_usage_error("grade", _("%s needs --batch"), a->reports ? "--reports" : a->jobs != 1 ? "--jobs"
                               : a->shards ? "--shard" : a->same_seed ? "--same-seed" : "--student-limit");
    if (a->shards && !a->have_seed)
        return cli_usage_error("grade", "%s", _("--shard needs --seed: every shard of a batch must draw from the same "
                                                "seed"));
    if (a->o.require_speedup > 0 && !a->o.device_spec)
        return cli_usage_error("grade", "%s",
                               _("--require-speedup needs --device: a speed requirement holds on a named device"));
    return -1;
}

/* The chapters named (each once), else every chapter; NULL after saying why. */
static const lesson **grade_lessons(cli_ctx *cx, int argc, char **argv, int *n) {
    const lesson **lessons = calloc((size_t)(cx->cat.count + argc + 1), sizeof *lessons);
    if (!lessons) return NULL;
    *n = 0;
    for (int i = optind; i < argc; i++) {
        const lesson *l = cli_find_lesson(cx, "grade", argv[i]);
        if (!l) return free(lessons), NULL;
        int dup = 0;
        for (int k = 0; k < *n; k++) dup |= lessons[k] == l;
        if (!dup) lessons[(*n)++] = l;
    }
    for (int i = 0; *n == 0 && i < cx->cat.count; i++) lessons[i] = &cx->cat.items[i];
    if (*n == 0) *n = cx->cat.count;
    return lessons;
}

/* A report in the asked format that says the grader could not run (msg: why), as
 * each platform expects a failure; returns status. */
static int cannot_run(const grade_args *a, const char *msg, int status) {
    say(_("the grader could not run: %s"), msg);
    if (a->batch || a->plan || a->fmt == GF_TEXT) return status;
    grade_result r;
    memset(&r, 0, sizeof r);
    r.fatal = GRADE_EXIT_CANNOT_RUN;
    r.seed = a->o.seed;
    snprintf(r.fatal_msg, sizeof r.fatal_msg, "%s", msg);
    snprintf(r.student, sizeof r.student, "%s", a->dir ? a->dir : a->kernel ? a->kernel : "");
    grade_report_style st = {.visibility = a->visibility, .version = CLT_VERSION, .hidden = a->hidden};
    char *text = grade_report_render(&r, a->fmt, &st);
    write_out(a->output, text ? text : "");
    free(text);
    return status;
}

/* --exercise-only: the ids of the tests that grade each chapter's exercise file
 * (every test but the fixed listings'), as --tests takes them, into *ids
 * (malloc'd); 0, or the exit status after saying why. */
static int exercise_only_ids(const grade_args *a, char **ids) {
    *ids = NULL;
    util_sappend(ids, "%s", "");
    for (int i = 0; i < a->o.n_lessons; i++) {
        grade_chapter ch;
        char err[1400];
        memset(&ch, 0, sizeof ch);
        if (grade_plan(&a->o, a->o.lessons[i], &ch, err, sizeof err) != 0) {
            free(ch.tests);
            return cannot_run(a, err, GRADE_EXIT_CANNOT_RUN);
        }
        for (int k = 0; k < ch.n_tests; k++)
            if (!strcmp(ch.tests[k].file, a->o.lessons[i]->exercise))
                util_sappend(ids, "%s%s", **ids ? "," : "", ch.tests[k].id);
        free(ch.tests);
    }
    return 0;
}

/* Grades one submission or a batch, every temporary file in one scratch
 * folder removed at the end, also on SIGINT or SIGTERM. */
static int grade_submissions(cli_ctx *cx, grade_args *a, const lesson **lessons, grade_report_style *st,
                             grade_live *live) {
    char err[1400], subm[1200];
    grade_run_ctx g = {.o = &a->o, .lessons = lessons, .batch = a->batch, .output = a->output,
                       .reports = a->reports, .kernel = a->kernel, .json = a->fmt == GF_JSON, .pass = a->pass,
                       .fmt = a->fmt, .st = st, .live = live};
    g.spec = (grade_batch_spec){.jobs = (int)a->jobs, .student_limit_s = a->student_limit > 0 ? a->student_limit : 1800,
                                .shard = a->shard, .shards = a->shards, .same_seed = a->same_seed};
    if (!a->batch && !a->kernel) {
        snprintf(subm, sizeof subm, "%s", a->dir ? a->dir : cx->paths.workspace);
        if (!util_is_dir(subm)) return cli_usage_error("grade", _("--dir %s: no such folder"), subm);
        a->o.submission = subm;
    }
    int rc = scratch_run("cltutor-grade", a->batch ? run_batch : run_single, &g, err, sizeof err);
    if (rc < 0) {
        say("%s", err);
        rc = EXIT_USAGE;
    } else if (rc > 128 && rc < 160) {
        fputc('\n', stderr);
        say(_("stopped by signal %d; temporary files removed"), rc - 128);
    }
    return rc;
}

int cmd_grade(cli_ctx *cx, int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "merge")) return cmd_grade_merge(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "similar")) return cmd_grade_similar(cx, argc - 1, argv + 1);
    grade_args a = {.visibility = "visible", .fmt = GF_TEXT, .jobs = 1, .pass = 1, .hidden = GH_AFTER_DUE_DATE};
    grade_options_defaults(&a.o);
    int rc = grade_options_from(argc, argv, &a);
    if (rc >= 0) return rc;
    a.o.device_spec = cli_device(cx, a.o.device_spec);
    if (cli_load_course(cx))
        return cannot_run(&a, _("the installed course could not be read (the grader's standard error says why)"),
                          GRADE_EXIT_CANNOT_RUN);
    if (!paths_have_solutions(&cx->paths)) {
        char msg[1400];
        snprintf(msg, sizeof msg, _("the instructor withheld the reference solutions from this install (it has no "
                                    "%s/kernels/); grading compares with them, so grade on an instructor's install."),
                 cx->paths.data);
        /* the grader's install, not the student's work: 69, which platforms report as the grader's failure */
        return cannot_run(&a, msg, GRADE_EXIT_CANNOT_RUN);
    }
    int nl = 0;
    const lesson **lessons = grade_lessons(cx, argc, argv, &nl);
    if (!lessons) return EXIT_USAGE;
    if (a.kernel && (nl != 1 || optind >= argc)) {
        free(lessons);
        return cli_usage_error("grade", "%s", _("--kernel grades one chapter's exercise: name that one LESSON"));
    }
    a.o.cat = &cx->cat;
    a.o.lessons = lessons;
    a.o.n_lessons = nl;
    a.o.course = cx->paths.data;
    if (!a.have_seed) a.o.seed = grade_fresh_seed();
    grade_report_style st = {.color = 0, .visibility = a.visibility, .version = CLT_VERSION, .hidden = a.hidden};
    char *ids = NULL;
    if ((a.exercise_only || a.kernel) && !a.o.only) {
        if ((rc = exercise_only_ids(&a, &ids))) {
            free(lessons);
            return rc;
        }
        a.o.only = ids;
    }
    grade_live live = {.enabled = isatty(2)};
    char err[1400];
    if (!a.plan) { /* what a kernel could reach here, said before it runs */
        confine_support cs;
        confine_support_probe(&cs);
        confine_support_warning(&cs, err, sizeof err);
        if (err[0]) fprintf(stderr, "cltutor grade: %s %s\n", _("warning:"), err);
    }
    int count = a.plan ? 0 : grade_count(&a.o, err, sizeof err);
    if (a.plan) rc = print_plan(&a.o, a.fmt == GF_JSON);
    else if (count < 0) rc = cannot_run(&a, err, GRADE_EXIT_CANNOT_RUN);
    else if (count == 0 && a.o.only)
        rc = cli_usage_error("grade", _("--tests %s: no test of these chapters has that id (see --plan)"), a.o.only);
    else rc = grade_submissions(cx, &a, lessons, &st, &live);
    free(lessons);
    free(ids);
    return rc;
}
