/* grade_late — a due date and a late policy */
#define _GNU_SOURCE
#include "grade/grade_late.h"

#include "base/util.h"
#include "grade/grade_report.h"
#include "text/i18n.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define LATE_MAX_ENTRIES 4000 /* files looked at for a submission's time: far above a workspace */

/* A zone at s: "Z", "+08:00", "-0500" (*offset in seconds east of UTC); 0, or -1. */
static int parse_zone(const char *s, long *offset) {
    if (!strcmp(s, "Z") || !strcmp(s, "z")) return *offset = 0, 0;
    if ((s[0] != '+' && s[0] != '-') || !isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[2])) return -1;
    const char *m = s[3] == ':' ? s + 4 : s + 3;
    if (strlen(m) != 2 || !isdigit((unsigned char)m[0]) || !isdigit((unsigned char)m[1])) return -1;
    long h = (s[1] - '0') * 10 + (s[2] - '0'), min = (m[0] - '0') * 10 + (m[1] - '0');
    if (h > 14 || min > 59) return -1;
    *offset = (s[0] == '-' ? -1 : 1) * (h * 3600 + min * 60);
    return 0;
}

int grade_parse_time(const char *text, double *out) {
    if (text[0] == '@') {
        char *end;
        double v = strtod(text + 1, &end);
        if (end == text + 1 || *end || !isfinite(v) || v <= 0) return -1;
        return *out = v, 0;
    }
    static const char *const forms[] = {"%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"};
    for (size_t i = 0; i < CLT_ARRAY_LEN(forms); i++) {
        struct tm tm;
        memset(&tm, 0, sizeof tm);
        const char *rest = strptime(text, forms[i], &tm);
        if (!rest) continue;
        long offset = 0;
        if (*rest && parse_zone(rest, &offset) != 0) continue;
        if (tm.tm_year < 70 || tm.tm_year > 1100) return -1;
        time_t t;
        if (*rest) t = timegm(&tm) - offset;
        else {
            tm.tm_isdst = -1;
            t = mktime(&tm);
        }
        if (t == (time_t)-1) return -1;
        return *out = (double)t, 0;
    }
    return -1;
}

void grade_format_time(double t, char *buf, size_t len) {
    time_t s = (time_t)t;
    struct tm tm;
    gmtime_r(&s, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static double newest_under(const char *path, int depth, int *left) {
    struct stat st;
    if (lstat(path, &st) != 0) return 0;
    if (!S_ISDIR(st.st_mode)) return S_ISREG(st.st_mode) ? (double)st.st_mtim.tv_sec : 0;
    double newest = 0;
    DIR *d = depth > 0 ? opendir(path) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)) && --*left > 0) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char sub[1400];
        if (util_pathf(sub, sizeof sub, "%s/%s", path, e->d_name) != 0) continue;
        double t = newest_under(sub, depth - 1, left);
        if (t > newest) newest = t;
    }
    if (d) closedir(d);
    return newest;
}

double grade_submission_time(const char *path) {
    int left = LATE_MAX_ENTRIES;
    return path && *path ? newest_under(path, 6, &left) : 0;
}

void grade_apply_late(const grade_options *o, grade_result *r) {
    if (o->due <= 0 || r->fatal) return;
    grade_late *l = &r->late;
    l->due = o->due;
    l->submitted = o->submitted > 0 ? o->submitted : grade_submission_time(r->submission);
    l->raw_score = r->score;
    if (l->submitted <= 0 || l->submitted <= o->due) return;
    l->days = (int)ceil((l->submitted - o->due) / 86400.0);
    l->penalty = o->late_limit_days >= 0 && l->days > o->late_limit_days ? 1 : fmin(1, l->days * o->late_penalty);
    r->score = l->raw_score * (1 - l->penalty);
}

void grade_late_sentence(const grade_late *l, char *buf, size_t len) {
    char due[32], when[32], raw[32];
    buf[0] = '\0';
    if (l->due <= 0) return;
    grade_format_time(l->due, due, sizeof due);
    if (l->submitted <= 0) {
        util_textf(buf, len, _("Due %s; when it was handed in is not known, so nothing is taken off."), due);
        return;
    }
    grade_format_time(l->submitted, when, sizeof when);
    if (l->days <= 0) {
        util_textf(buf, len, _("Handed in %s, on time (due %s)."), when, due);
        return;
    }
    grade_format_points(l->raw_score, raw, sizeof raw);
    util_textf(buf, len, P_("Handed in %s, %d day late (due %s): %.0f%% of the score taken off (%s before).",
                            "Handed in %s, %d days late (due %s): %.0f%% of the score taken off (%s before).", l->days),
               when, l->days, due, 100 * l->penalty, raw);
}
