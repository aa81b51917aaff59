/* grade_merge — one class's grades from the reports of its shards (`grade --batch
 * --shard I/N`, graded on several machines): CSV with CSV, JSON with JSON. */
#define _GNU_SOURCE
#include "grade/grade_merge.h"
#include "grade/grade_batch.h"
#include "grade/grade_report.h"
#include "base/csv.h"
#include "base/util.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *student;        /* the name, as the batch sorted it */
    const char *file;     /* the input it came from */
    int order;            /* its place among every input's rows: a later row of a student replaces an earlier one */
    char *text;           /* CSV: the record as written; JSON: unused */
    cJSON *json;          /* JSON: the student's object (owned by its input) */
} merge_row;

typedef struct {
    merge_row *rows;
    int n, cap;
    char **names;         /* the class, when known */
    int n_names;
} merge_set;

static void add_row(merge_set *m, const char *student, const char *file, char *text, cJSON *json) {
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->rows = realloc(m->rows, sizeof *m->rows * (size_t)m->cap);
    }
    m->rows[m->n] = (merge_row){.student = strdup(student), .file = file, .order = m->n, .text = text, .json = json};
    m->n++;
}

static void add_name(merge_set *m, const char *name) {
    for (int i = 0; i < m->n_names; i++)
        if (!strcmp(m->names[i], name)) return;
    m->names = realloc(m->names, sizeof *m->names * (size_t)(m->n_names + 1));
    m->names[m->n_names++] = strdup(name);
}

/* One CSV record's fields (malloc'd, *n of them) from *p, which moves past it. */
static char **csv_fields(const char **p, int *n) {
    char **f = NULL;
    *n = 0;
    const char *q = *p;
    if (!*q) return NULL;
    for (;;) {
        char *v = NULL;
        int quoted = 0;
        util_sappend(&v, "%s", "");
        if (*q == '"') {
            quoted = 1;
            for (q++; *q && !(*q == '"' && q[1] != '"'); q++) {
                if (*q == '"') q++;
                util_sappend(&v, "%c", *q);
            }
            if (*q == '"') q++;
        }
        while (*q && *q != ',' && *q != '\n' && *q != '\r') util_sappend(&v, "%c", *q++);
        /* a value a spreadsheet would read as a formula was written with a ' before it */
        if (quoted && v[0] == '\'' && csv_formula_like(v + 1)) memmove(v, v + 1, strlen(v));
        char **g = realloc(f, (size_t)(*n + 1) * sizeof *f);
        if (!g) { free(v); break; }
        f = g;
        f[(*n)++] = v;
        if (*q != ',') break;
        q++;
    }
    while (*q == '\r' || *q == '\n') q++;
    *p = q;
    return f;
}

static void fields_free(char **f, int n) {
    for (int i = 0; i < n; i++) free(f[i]);
    free(f);
}

/* One record's first field (the student) into key; returns where the next record starts. */
static const char *csv_record(const char *p, char *key, size_t keylen) {
    int n = 0;
    char **f = csv_fields(&p, &n);
    snprintf(key, keylen, "%s", n > 0 ? f[0] : "");
    fields_free(f, n);
    return p;
}

static int read_csv(merge_set *m, const char *file, const char *text, char **header, char *err, size_t errlen) {
    const char *p = strchr(text, '\n');
    if (!p || strncmp(text, "student,", 8)) {
        util_errf(err, errlen, _("%s: not a CSV of grades (its first line is not student,score,...)"), file);
        return -1;
    }
    p++;
    size_t hl = (size_t)(p - text);
    if (!*header) *header = strndup(text, hl);
    else if (strlen(*header) != hl || strncmp(*header, text, hl)) {
        util_errf(err, errlen, _("%s grades other chapters than the files before it (its first line differs); "
                                 "merge the shards of one batch"), file);
        return -1;
    }
    while (*p) {
        char key[512];
        const char *end = csv_record(p, key, sizeof key);
        add_row(m, key, file, strndup(p, (size_t)(end - p)), NULL);
        p = end;
    }
    return 0;
}

static int read_json(merge_set *m, const char *file, cJSON *j, cJSON **first, char *err, size_t errlen) {
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(j, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "cltutor-grade-batch")) {
        util_errf(err, errlen, _("%s: not a batch's JSON (grade --batch --format json writes one)"), file);
        return -1;
    }
    if (*first) {
        const char *keys[] = {"seed", "chapters"};
        for (int i = 0; i < 2; i++) {
            char *a = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(*first, keys[i]));
            char *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, keys[i]));
            int same = a && b && !strcmp(a, b);
            free(a);
            free(b);
            if (!same) {
                util_errf(err, errlen, _("%s has another %s than the files before it; merge the shards of one batch"),
                          file, keys[i]);
                return -1;
            }
        }
    } else *first = j;
    const cJSON *s, *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j, "class"))
        if (cJSON_IsString(c)) add_name(m, c->valuestring);
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(j, "students")) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(s, "student");
        if (cJSON_IsString(name)) add_row(m, name->valuestring, file, NULL, (cJSON *)s);
    }
    return 0;
}

/* By student, and a student's rows in the order given. */
static int by_student_then_order(const void *a, const void *b) {
    const merge_row *x = a, *y = b;
    int c = strcmp(x->student, y->student);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* A student in two inputs: a regrade, or a shard given twice. The later input's row stays; each replaced one is
 * noted in info (for the command to say) and dropped from m. */
static void keep_later_rows(merge_set *m, grade_merge_info *info) {
    int kept = 0;
    for (int i = 0; i < m->n; i++) {
        if (i + 1 < m->n && !strcmp(m->rows[i].student, m->rows[i + 1].student)) {
            char *note = NULL;
            if (asprintf(&note, "%s\t%s\t%s", m->rows[i].student, m->rows[i + 1].file, m->rows[i].file) >= 0) {
                info->replaced = realloc(info->replaced, sizeof *info->replaced * (size_t)(info->n_replaced + 1));
                info->replaced[info->n_replaced++] = note;
            }
            free(m->rows[i].student);
            free(m->rows[i].text);
            continue;
        }
        m->rows[kept++] = m->rows[i];
    }
    m->n = kept;
}

static int by_student(const void *a, const void *b) {
    return strcmp(((const merge_row *)a)->student, ((const merge_row *)b)->student);
}

static void csv_points(char **out, const cJSON *v) {
    char a[32] = "";
    if (cJSON_IsNumber(v)) grade_format_points(v->valuedouble, a, sizeof a);
    util_sappend(out, ",%s", a);
}

/* JSON rows as the batch's CSV, the columns of grade_batch_csv. */
static char *json_to_csv(merge_set *m, cJSON *first) {
    char *out = NULL;
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(first, "chapters"), *id;
    util_sappend(&out, "student,score,max_score,percent");
    cJSON_ArrayForEach(id, ids) util_sappend(&out, ",%s", cJSON_IsString(id) ? id->valuestring : "");
    util_sappend(&out, ",tests,passed,failed,skipped,seed,status,report\n");
    for (int i = 0; i < m->n; i++) {
        const cJSON *r = m->rows[i].json, *score = cJSON_GetObjectItemCaseSensitive(r, "score");
        const cJSON *max = cJSON_GetObjectItemCaseSensitive(r, "max_score");
        const cJSON *chs = cJSON_GetObjectItemCaseSensitive(r, "chapters");
        csv_field(&out, m->rows[i].student);
        csv_points(&out, score);
        csv_points(&out, max);
        if (cJSON_IsNumber(score) && cJSON_IsNumber(max))
            util_sappend(&out, ",%.1f", max->valuedouble > 0 ? 100.0 * score->valuedouble / max->valuedouble : 0.0);
        else util_sappend(&out, ",");
        cJSON_ArrayForEach(id, ids) csv_points(&out, cJSON_GetObjectItemCaseSensitive(chs, id->valuestring));
        const char *counts[] = {"tests", "passed", "failed", "skipped"};
        for (int k = 0; k < 4; k++) {
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, counts[k]);
            if (cJSON_IsNumber(c)) util_sappend(&out, ",%d", c->valueint);
            else util_sappend(&out, ",");
        }
        util_sappend(&out, ",%.0f,", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, "seed")));
        const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "status"));
        const char *rep = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "report"));
        csv_field(&out, st ? st : "");
        util_sappend(&out, ",");
        csv_field(&out, rep ? rep : "");
        util_sappend(&out, "\n");
    }
    return out;
}

/* The output: CSV (header and records) or JSON (the first input's keys, every student). */
static char *merged_text(merge_set *m, const char *header, cJSON *first, int to_csv) {
    char *out = NULL;
    if (!header && to_csv) return json_to_csv(m, first);
    if (header) {
        util_sappend(&out, "%s", header);
        for (int i = 0; i < m->n; i++) util_sappend(&out, "%s", m->rows[i].text);
        return out;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", "cltutor-grade-batch");
    cJSON_AddNumberToObject(o, "format_version", 1);
    cJSON_AddItemToObject(o, "seed", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(first, "seed"), 1));
    cJSON_AddNullToObject(o, "shard");
    cJSON_AddItemToObject(o, "chapters", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(first, "chapters"), 1));
    cJSON *cl = cJSON_AddArrayToObject(o, "class"), *st = cJSON_AddArrayToObject(o, "students");
    for (int i = 0; i < m->n_names; i++) cJSON_AddItemToArray(cl, cJSON_CreateString(m->names[i]));
    for (int i = 0; i < m->n; i++) cJSON_AddItemToArray(st, cJSON_Duplicate(m->rows[i].json, 1));
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    util_sappend(&out, "%s\n", s ? s : "{}");
    free(s);
    return out;
}

/* Reads every input into m; -1 with err. */
static int read_inputs(merge_set *m, const char *const *files, int n, char **header, cJSON **docs, cJSON **first,
                       char *err, size_t errlen) {
    int kind = 0; /* 1 CSV, 2 JSON */
    for (int i = 0; i < n; i++) {
        char *text = util_read_file(files[i], NULL);
        if (!text) {
            util_errf(err, errlen, _("%s: cannot read the file"), files[i]);
            return -1;
        }
        const char *p = text + strspn(text, " \t\r\n");
        int k = *p == '{' ? 2 : 1;
        if (kind && k != kind) {
            free(text);
            util_errf(err, errlen, _("%s: give only CSV files or only JSON files to merge"), files[i]);
            return -1;
        }
        kind = k;
        int rc;
        if (k == 2) {
            docs[i] = cJSON_Parse(text);
            rc = docs[i] ? read_json(m, files[i], docs[i], first, err, errlen)
                         : (util_errf(err, errlen, _("%s: not valid JSON"), files[i]), -1);
        } else rc = read_csv(m, files[i], text, header, err, errlen);
        free(text);
        if (rc) return -1;
    }
    return 0;
}

char *grade_merge(const char *const *files, int n, const char *batch_dir, int to_csv, grade_merge_info *info,
                  char *err, size_t errlen) {
    memset(info, 0, sizeof *info);
    merge_set m = {0};
    char *header = NULL, *out = NULL;
    cJSON **docs = calloc((size_t)n + 1, sizeof *docs), *first = NULL;
    int ok = read_inputs(&m, files, n, &header, docs, &first, err, errlen) == 0;
    if (ok && batch_dir) {
        grade_batch_row *rows = NULL;
        int nr = 0;
        ok = grade_batch_list(batch_dir, 0, 0, &rows, &nr, NULL, err, errlen) == 0;
        for (int i = 0; ok && i < nr; i++) add_name(&m, rows[i].student);
        free(rows);
    }
    if (ok) {
        qsort(m.rows, (size_t)m.n, sizeof *m.rows, by_student_then_order);
        keep_later_rows(&m, info);
    }
    if (ok) {
        out = merged_text(&m, header, first, to_csv);
        info->rows = m.n;
        info->class_known = m.n_names > 0;
        for (int i = 0; i < m.n_names; i++) {
            merge_row key = {.student = m.names[i]};
            if (bsearch(&key, m.rows, (size_t)m.n, sizeof *m.rows, by_student)) continue;
            info->missing = realloc(info->missing, sizeof *info->missing * (size_t)(info->n_missing + 1));
            info->missing[info->n_missing++] = strdup(m.names[i]);
        }
    }
    for (int i = 0; i < m.n; i++) {
        free(m.rows[i].student);
        free(m.rows[i].text);
    }
    for (int i = 0; i < m.n_names; i++) free(m.names[i]);
    for (int i = 0; i < n; i++) cJSON_Delete(docs[i]);
    free(docs);
    free(m.rows);
    free(m.names);
    free(header);
    return out;
}

void grade_merge_info_free(grade_merge_info *info) {
    for (int i = 0; i < info->n_missing; i++) free(info->missing[i]);
    free(info->missing);
    info->missing = NULL;
    info->n_missing = 0;
    for (int i = 0; i < info->n_replaced; i++) free(info->replaced[i]);
    free(info->replaced);
    info->replaced = NULL;
    info->n_replaced = 0;
}

/* A row's fields from its status column, as grade_batch_status wrote it. */
static void row_from_status(grade_batch_row *r, const char *status) {
    int files = 0;
    if (r->graded) {
        r->submitted = !strcmp(status, "ok");
        if (sscanf(status, "refused: %d file", &files) == 1) r->files_refused = files;
    } else if (!strcmp(status, "time_limit")) {
        r->time_limit = 1;
    } else if (!strncmp(status, "refused: ", 9)) {
        r->refused = 1;
        snprintf(r->error, sizeof r->error, "%s", status + 9);
    } else {
        snprintf(r->error, sizeof r->error, "%s", !strncmp(status, "error: ", 7) ? status + 7 : status);
    }
}

int grade_merge_rows(const char *csv, grade_batch_row **rows, int *n, char *err, size_t errlen) {
    *rows = NULL;
    *n = 0;
    const char *p = csv;
    int nh = 0;
    char **h = csv_fields(&p, &nh);
    enum { C_STUDENT, C_SCORE, C_MAX, C_TESTS, C_PASSED, C_FAILED, C_SKIPPED, C_STATUS, C_REPORT, C_N };
    static const char *const names[C_N] = {"student", "score",   "max_score", "tests", "passed",
                                           "failed",  "skipped", "status",    "report"};
    int col[C_N];
    for (int c = 0; c < C_N; c++) {
        col[c] = -1;
        for (int i = 0; i < nh; i++)
            if (!strcmp(h[i], names[c])) col[c] = i;
        if (col[c] < 0) {
            util_errf(err, errlen, _("not a CSV of grades: no column %s"), names[c]);
            fields_free(h, nh);
            return -1;
        }
    }
    fields_free(h, nh);
    int cap = 0;
    while (*p) {
        int nf = 0;
        char **f = csv_fields(&p, &nf);
        if (nf < C_N || nf <= col[C_REPORT]) { fields_free(f, nf); continue; }
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            grade_batch_row *g = realloc(*rows, (size_t)cap * sizeof **rows);
            if (!g) { fields_free(f, nf); break; }
            *rows = g;
        }
        grade_batch_row *r = &(*rows)[(*n)++];
        memset(r, 0, sizeof *r);
        snprintf(r->student, sizeof r->student, "%s", f[col[C_STUDENT]]);
        r->graded = *f[col[C_SCORE]] != '\0';
        r->score = atof(f[col[C_SCORE]]);
        r->max_score = atof(f[col[C_MAX]]);
        r->tests = atoi(f[col[C_TESTS]]);
        r->passed = atoi(f[col[C_PASSED]]);
        r->failed = atoi(f[col[C_FAILED]]);
        r->skipped = atoi(f[col[C_SKIPPED]]);
        snprintf(r->report, sizeof r->report, "%s", f[col[C_REPORT]]);
        row_from_status(r, f[col[C_STATUS]]);
        fields_free(f, nf);
    }
    return 0;
}
