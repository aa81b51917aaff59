/* grade: hidden tests, technique checks and scores for one submission or a folder of them */
#define _DEFAULT_SOURCE
#include "cli/cli.h"
#include "grade/grade.h"
#include "grade/grade_batch.h"
#include "grade/grade_report.h"
#include "base/scratch.h"
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
    "       cltutor grade [LESSON...] --batch DIR [-j N] [-o grades.csv] [OPTIONS]\n"
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
    "  --format FORMAT      text (default), json, junit, tap or gradescope\n"
    "  -o, --output FILE    write the report to FILE (default: standard output);\n"
    "                       with --batch, the CSV of grades\n"
    "  --seed N             draw the hidden tests from this seed (default: a fresh\n"
    "                       one, printed, so that a grade can be reproduced)\n"
    "  --device SPEC        an index from `cltutor devices` or part of a device name\n"
    "  --timeout SEC        wall-clock limit of one kernel run (default 10)\n"
    "  --cpu-limit SEC      CPU time of one test's worker (default 60 + the\n"
    "                       timeout on every CPU)\n"
    "  --memory-limit MB    data memory of one test's worker (default 2048)\n"
    "  --require-speedup X  also grade a speed-up of X over the previous chapter's\n"
    "                       reference, both timed in this run (needs --device)\n"
    "  --visibility V       Gradescope visibility of each test: visible (default),\n"
    "                       hidden, after_due_date or after_published\n"
    "  --plan               list the hidden tests and their points; run nothing\n"
    "  --tests ID,...       run only these tests (ids from --plan), e.g. to regrade\n"
    "                       one test with the seed of a report\n"
    "  --batch DIR          grade every subfolder of DIR (one per student)\n"
    "  -j, --jobs N         with --batch, students graded at once (default 1)\n"
    "  --reports DIR        with --batch, where each student's JSON report goes\n"
    "                       (default: next to the CSV, NAME-reports/)\n"
    "  --student-limit SEC  with --batch, wall-clock limit of one student's grading\n"
    "                       (default 1800); past it the student's processes are\n"
    "                       stopped, the CSV says time_limit, the others go on\n"
    "\n"
    "Temporary files live in one folder, cltutor-grade-XXXXXX in $TMPDIR (or /tmp),\n"
    "removed at the end, also on SIGINT or SIGTERM.\n"
    "\n"
    "Exit status: 0 full marks, 1 some tests failed, 64 usage error, 69 no usable\n"
    "OpenCL device, 128+N stopped by signal N (130 SIGINT, 143 SIGTERM).\n"
    "With --batch: 0 the batch finished (every student has a CSV row; see its\n"
    "status: ok, no files, time_limit or error), 3 the grader failed for some\n"
    "students (status error), 64 usage error (also an unwritable CSV), 69 it\n"
    "failed for every student (no usable OpenCL device?), 128+N stopped by signal N.\n");

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
                printf("  %6s  %-24s %s%s%s%s\n", a, t->id, t->name, other ? "  [" : "", other ? t->file : "",
                       other ? "]" : "");
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
    const char *batch, *output, *reports;
    int jobs;
    double student_limit;
    grade_format fmt;
    grade_report_style *st;
    grade_live *live;
} grade_run_ctx;

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
        strncat(rdir, "-reports", sizeof rdir - strlen(rdir) - 1);
    } else snprintf(rdir, sizeof rdir, "grade-reports");
    say(_("batch %s, seed %llu (--seed %llu grades the same tests), %d at a time"), g->batch,
        (unsigned long long)o->seed, (unsigned long long)o->seed, g->jobs);
    grade_batch_row *rows = NULL;
    int n = 0;
    double t0 = util_now();
    if (grade_batch_run(o, g->batch, rdir, g->jobs, g->student_limit, g->st, on_batch, g->live, &rows, &n, err,
                        sizeof err) != 0) {
        live_clear(g->live);
        say("%s", err);
        return EXIT_USAGE;
    }
    live_clear(g->live);
    char *csv = grade_batch_csv(o, rows, n);
    int rc = write_out(output, csv) == 0 ? 0 : EXIT_USAGE;
    free(csv);
    int errors = 0, empty = 0, late = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].time_limit) {
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
    int graded = n - errors - late;
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
    if (errors && rc == 0) rc = errors == n ? EXIT_NO_DEVICE : EXIT_CRASH;
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
    if (g->fmt != GF_TEXT || (output && strcmp(output, "-")))
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
    else if (g->fmt != GF_TEXT || (output && strcmp(output, "-"))) {
        char a[32], b[32];
        grade_format_points(r.score, a, sizeof a);
        grade_format_points(r.max_score, b, sizeof b);
        say(_("%s / %s (%d passed, %d failed, %d skipped)"), a, b, r.n_passed, r.n_failed, r.n_skipped);
    }
    if (rc == 0) rc = r.fatal ? r.fatal : r.n_failed ? EXIT_WRONG : 0;
    grade_result_free(&r);
    return rc;
}

enum { O_SEED = 256, O_TIMEOUT, O_CPU, O_MEM, O_SPEED, O_VIS, O_PLAN, O_BATCH, O_REPORTS, O_DIR, O_FORMAT,
       O_DEVICE, O_TESTS, O_STUDENT_LIMIT };

/* What the command line asked for. */
typedef struct {
    grade_options o;
    const char *dir, *output, *batch, *reports, *visibility;
    grade_format fmt;
    int plan, have_seed;
    double jobs, student_limit;
} grade_args;

/* One option into a; returns -1 to go on, else the exit status. */
static int grade_option(int ch, const char *arg, grade_args *a) {
    double v;
    switch (ch) {
    case O_DIR: a->dir = arg; break;
    case O_FORMAT:
        if (grade_format_parse(arg, &a->fmt) != 0)
            return cli_usage_error("grade", _("--format '%s': use text, json, junit, tap or gradescope"), arg);
        break;
    case 'o': a->output = arg; break;
    case O_SEED: {
        char *end;
        unsigned long long s = strtoull(arg, &end, 10);
        if (!*arg || *end || arg[0] == '-' || s == 0 || s > (1ull << 53))
            return cli_usage_error("grade", _("--seed '%s': give a whole number from 1 to 2^53"), arg);
        a->o.seed = s;
        a->have_seed = 1;
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
        {"device", required_argument, 0, O_DEVICE},    {"timeout", required_argument, 0, O_TIMEOUT},
        {"cpu-limit", required_argument, 0, O_CPU},    {"memory-limit", required_argument, 0, O_MEM},
        {"require-speedup", required_argument, 0, O_SPEED}, {"visibility", required_argument, 0, O_VIS},
        {"plan", no_argument, 0, O_PLAN},              {"batch", required_argument, 0, O_BATCH},
        {"jobs", required_argument, 0, 'j'},           {"reports", required_argument, 0, O_REPORTS},
        {"tests", required_argument, 0, O_TESTS},      {"student-limit", required_argument, 0, O_STUDENT_LIMIT},
        {"help", no_argument, 0, 'h'},                 {0, 0, 0, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "o:j:h", opts, NULL)) != -1) {
        if (ch == 'h') return fputs(_(grade_usage), stdout), 0;
        if (ch == '?' || ch == ':') return cli_usage_error("grade", _("unknown option %s"), argv[optind - 1]);
        int rc = grade_option(ch, optarg, a);
        if (rc >= 0) return rc;
    }
    if (a->batch && a->dir) return cli_usage_error("grade", "%s", _("--batch and --dir cannot be used together"));
    if (a->plan && a->fmt != GF_TEXT && a->fmt != GF_JSON)
        return cli_usage_error("grade", "%s", _("--plan prints text or, with --format json, JSON"));
    if (a->batch && a->fmt != GF_TEXT)
        return cli_usage_error("grade", "%s",
                               _("--batch writes a CSV and a JSON report per student; --format is for one submission"));
    if (!a->batch && (a->reports || a->jobs != 1 || a->student_limit > 0))
        return cli_usage_error("grade", _("%s needs --batch"), a->reports ? "--reports" : a->jobs != 1 ? "--jobs"
                               : "--student-limit");
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

/* Grades one submission or a batch, every temporary file in one scratch
 * folder removed at the end, also on SIGINT or SIGTERM. */
static int grade_submissions(cli_ctx *cx, grade_args *a, const lesson **lessons, grade_report_style *st,
                             grade_live *live) {
    char err[1400], subm[1200];
    grade_run_ctx g = {.o = &a->o, .lessons = lessons, .batch = a->batch, .output = a->output,
                       .reports = a->reports, .jobs = (int)a->jobs,
                       .student_limit = a->student_limit > 0 ? a->student_limit : 1800, .fmt = a->fmt, .st = st,
                       .live = live};
    if (!a->batch) {
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
    grade_args a = {.visibility = "visible", .fmt = GF_TEXT, .jobs = 1};
    grade_options_defaults(&a.o);
    int rc = grade_options_from(argc, argv, &a);
    if (rc >= 0) return rc;
    a.o.device_spec = cli_device(cx, a.o.device_spec);
    if ((rc = cli_load_course(cx))) return rc;
    if (!paths_have_solutions(&cx->paths)) {
        say(_("the instructor withheld the reference solutions from this install (it has no %s/kernels/); grading "
              "compares with them, so grade on an instructor's install."), cx->paths.data);
        return EXIT_USAGE;
    }
    int nl = 0;
    const lesson **lessons = grade_lessons(cx, argc, argv, &nl);
    if (!lessons) return EXIT_USAGE;
    a.o.cat = &cx->cat;
    a.o.lessons = lessons;
    a.o.n_lessons = nl;
    a.o.course = cx->paths.data;
    if (!a.have_seed) a.o.seed = grade_fresh_seed();
    grade_report_style st = {.color = 0, .visibility = a.visibility, .version = CLT_VERSION};
    grade_live live = {.enabled = isatty(2)};
    char err[1400];
    int count = a.plan ? 0 : grade_count(&a.o, err, sizeof err);
    if (a.plan) rc = print_plan(&a.o, a.fmt == GF_JSON);
    else if (count < 0) rc = (say("%s", err), EXIT_USAGE);
    else if (count == 0 && a.o.only)
        rc = cli_usage_error("grade", _("--tests %s: no test of these chapters has that id (see --plan)"), a.o.only);
    else rc = grade_submissions(cx, &a, lessons, &st, &live);
    free(lessons);
    return rc;
}
