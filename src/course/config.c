/* config — the system's and the user's settings files (see config.h), read
 * with inih. */
#define _DEFAULT_SOURCE
#include "course/config.h"
#include "base/util.h"
#include "text/i18n.h"

#include <errno.h>
#include <stdarg.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
    config *c;
    const char *file;
    char *err;
    size_t errlen;
    int bad;                 /* lines at fault so far, each in err on a line of its own */
} reading;

static int parse_bool(const char *v, int *out) {
    if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "on")) *out = 1;
    else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "off")) *out = 0;
    else return -1;
    return 0;
}

/* One key; 0 when it is known and its value good. */
static int set_key(config *c, const char *section, const char *key, const char *v, const char **why) {
    if (!strcmp(section, "device") && !strcmp(key, "default")) {
        snprintf(c->device, sizeof c->device, "%s", v);
    } else if (!strcmp(section, "timing") && !strcmp(key, "budget_s")) {
        char *end;
        double d = strtod(v, &end);
        if (*v == '\0' || *end || !(d >= 0 && d <= 60)) return *why = N_("give seconds from 0 to 60"), -1;
        c->budget_s = d;
    } else if (!strcmp(section, "timing") && !strcmp(key, "queue")) {
        if (parse_bool(v, &c->queue) != 0) return *why = N_("give yes or no"), -1;
    } else if (!strcmp(section, "timing") && !strcmp(key, "queue_dir")) {
        if (v[0] != '/') return *why = N_("give an absolute folder"), -1;
        snprintf(c->queue_dir, sizeof c->queue_dir, "%s", v);
    } else if (!strcmp(section, "course") && !strcmp(key, "solutions")) {
        /* fails closed: a value that is not "shown" hides them, and says so */
        int shown = !strcasecmp(v, "shown");
        c->solutions_shown = shown;
        if (!shown && strcasecmp(v, "hidden"))
            return *why = N_("give shown or hidden; the solutions are hidden until it is one of them"), -1;
    } else if (!strcmp(section, "lab") && !strcmp(key, "locked")) {
        if (parse_bool(v, &c->locked) != 0) return *why = N_("give yes or no"), -1;
    } else {
        return *why = N_("unknown key (see `man cltutor`, FILES)"), -1;
    }
    return 0;
}

/* The line of key in section (inih's handler is not told it), 0 when not found. */
/* Adds a line to err (what is already there stays), cut to fit. */
static void append_line(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append_line(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || !errlen) return;
    size_t used = strlen(err);
    if (used && used + 1 < errlen) err[used++] = '\n', err[used] = '\0';
    if (used + 1 >= errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + used, errlen - used, fmt, ap);
    va_end(ap);
}

static int line_of(const char *path, const char *section, const char *key) {
    FILE *f = fopen(path, "r");
    char buf[1024], sec[128] = "";
    int n = 0, found = 0;
    while (f && !found && fgets(buf, sizeof buf, f)) {
        n++;
        char *p = buf + strspn(buf, " \t");
        size_t klen = strlen(key);
        if (*p == '[') sscanf(p, "[%127[^]]", sec);
        else if (!strcmp(sec, section) && !strncmp(p, key, klen) && strchr(" \t=:", p[klen])) found = n;
    }
    if (f) fclose(f);
    return found;
}

static int on_key(void *user, const char *section, const char *key, const char *value) {
    reading *r = user;
    const char *why = "";
    int rc = set_key(r->c, section, key, value, &why);
    if (rc == 0 && !strcmp(section, "device") && !strcmp(key, "default"))
        snprintf(r->c->device_set_by, sizeof r->c->device_set_by, "%s", r->file);
    if (!strcmp(section, "course") && !strcmp(key, "solutions") && !r->c->solutions_shown)
        snprintf(r->c->solutions_hidden_by, sizeof r->c->solutions_hidden_by, "%s", r->file);
    if (rc != 0) { /* every line at fault */
        append_line(r->err, r->errlen, "%s:%d: [%s] %s = %s: %s", r->file, line_of(r->file, section, key), section,
                    key, value, _(why));
        r->bad++;
    }
    return 1;
}

static int read_file(config *c, const char *path, int slot, char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT) return 0;
        util_errf(err, errlen, _("%s: cannot read it (%s)"), path, strerror(errno));
        return -1;
    }
    snprintf(c->files[slot], sizeof c->files[slot], "%s", path);
    reading r = {.c = c, .file = path, .err = err, .errlen = errlen};
    int rc = ini_parse_file(f, on_key, &r);
    fclose(f);
    if (rc > 0) append_line(err, errlen, _("%s:%d: not a setting (write key = value under a [section])"), path, rc);
    return r.bad || rc > 0 ? -1 : 0;
}

static void defaults(config *c) {
    memset(c, 0, sizeof *c);
    c->budget_s = 1;
    c->queue = 1;
    c->solutions_shown = 1;
    snprintf(c->queue_dir, sizeof c->queue_dir, "%s", CONFIG_DEFAULT_QUEUE_DIR);
}

int config_load(config *c, char *err, size_t errlen) { return config_load_lab(c, CONFIG_SYSTEM_FILE, err, errlen); }

int config_load_lab(config *c, const char *lab_file, char *err, size_t errlen) {
    if (err && errlen) err[0] = '\0';
    const char *sys = getenv("CLTUTOR_SYSTEM_CONFIG"), *user = getenv("CLTUTOR_CONFIG");
    char user_path[1024];
    if (user && *user) {
        snprintf(user_path, sizeof user_path, "%s", user);
    } else {
        const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
        if (xdg && *xdg == '/') snprintf(user_path, sizeof user_path, "%s/cltutor/config", xdg);
        else if (home && *home) snprintf(user_path, sizeof user_path, "%s/.config/cltutor/config", home);
        else user_path[0] = '\0';
    }
    /* the lab's file; CLTUTOR_SYSTEM_CONFIG stands in for it, unless it says [lab] locked = yes */
    defaults(c);
    char lab_err[1024] = "";
    int rc = read_file(c, lab_file, 0, lab_err, sizeof lab_err);
    if (sys && *sys && strcmp(sys, lab_file) != 0) {
        if (c->locked) {
            snprintf(c->ignored_system_config, sizeof c->ignored_system_config, "%s", sys);
        } else {
            defaults(c);
            lab_err[0] = '\0';
            rc = read_file(c, sys, 0, lab_err, sizeof lab_err);
        }
    }
    if (lab_err[0]) append_line(err, errlen, "%s", lab_err);
    int lab_shows = c->solutions_shown; /* a learner's own file may hide the solutions, not show them */
    char user_err[1024] = "";
    if (user_path[0] && read_file(c, user_path, 1, user_err, sizeof user_err) != 0) rc = -1;
    if (user_err[0]) append_line(err, errlen, "%s", user_err);
    c->solutions_shown = c->solutions_shown && lab_shows;
    return rc;
}

const char *config_queue_dir(const config *c) { return c->queue ? c->queue_dir : NULL; }
