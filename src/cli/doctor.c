/* doctor — what cltutor needs on this machine, checked one thing at a time,
 * each problem with what to do (see doctor.h). */
#define _DEFAULT_SOURCE
#include "cli/doctor.h"
#include "gpumodel/gpumodel.h"
#include "base/util.h"
#include "text/i18n.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const status_names[] = {
#define DOC_NAME(e, name) name,
    DOCTOR_STATUSES(DOC_NAME)
#undef DOC_NAME
};

const char *doctor_status_name(doctor_status s) {
    return (unsigned)s < CLT_ARRAY_LEN(status_names) ? status_names[s] : "?";
}

static doctor_finding *add(doctor_report *r, const char *check, doctor_status st, const char *fix, const char *fmt,
                           ...) __attribute__((format(printf, 5, 6)));

static doctor_finding *add(doctor_report *r, const char *check, doctor_status st, const char *fix, const char *fmt,
                           ...) {
    if (r->n >= DOCTOR_MAX) return NULL;
    doctor_finding *f = &r->items[r->n++];
    snprintf(f->check, sizeof f->check, "%s", check);
    f->status = st;
    snprintf(f->fix, sizeof f->fix, "%s", fix ? fix : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->summary, sizeof f->summary, fmt, ap);
    va_end(ap);
    r->failed += st == DOC_FAIL;
    r->warned += st == DOC_WARN;
    return f;
}

/* The findings are for people: add's fix and fmt are translated by the
 * callers (the check names and statuses, written as JSON too, are not). */

/* ---- OpenCL: drivers, devices, a kernel on each ---------------------- */

static int count_icds(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        n += len > 4 && !strcmp(e->d_name + len - 4, ".icd");
    }
    if (d) closedir(d);
    return n;
}

static void check_drivers(doctor_report *r) {
    const char *env = getenv("OCL_ICD_VENDORS");
    const char *dir = env && *env ? env : "/etc/OpenCL/vendors";
    int n = util_is_dir(dir) ? count_icds(dir) : util_is_file(dir) ? 1 : 0;
    if (n > 0)
        add(r, "opencl", DOC_OK, NULL, P_("%d OpenCL driver registered in %s", "%d OpenCL drivers registered in %s",
                                          (unsigned long long)n), n, dir);
    else
        add(r, "opencl", DOC_FAIL,
            _("install PoCL for the CPU (sudo apt-get install pocl-opencl-icd) or your GPU's OpenCL driver"),
            _("no OpenCL driver is registered in %s%s"), dir, env && *env ? " ($OCL_ICD_VENDORS)" : "");
}

/* Builds and runs the first chapter's starting file at a small size on one device. */
static void check_device(doctor_report *r, const engine_device *d, const paths *p, const catalog *cat,
                         run_progress_cb cb, void *user) {
    char name[32], spec[16], path[1400];
    snprintf(name, sizeof name, "device %d", d->index);
    snprintf(spec, sizeof spec, "%d", d->index);
    if (!p || !cat || cat->count == 0) {
        add(r, name, DOC_WARN, _("see the course check above"), _("%s (%s): not tried, the course is missing"),
            d->name, d->type);
        return;
    }
    const lesson *l = &cat->items[0];
    paths_starting(p, l, path, sizeof path);
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = l;
    rq.kernel_path = rq.display_path = path;
    rq.device_spec = spec;
    rq.budget_s = 0;
    rq.timeout_s = 60;
    engine_report rep;
    engine_run(&rq, cb, user, NULL, &rep);
    /* the starting file computes nothing yet: built and run is what counts here */
    if (rep.status == ENG_PASS || rep.status == ENG_WRONG)
        add(r, name, DOC_OK, NULL, _("%s (%s, %s, driver %s): builds and runs kernels"), d->name, d->type,
            d->platform, d->driver);
    else
        add(r, name, DOC_FAIL, _("update or reinstall this device's OpenCL driver, or choose another device with --device"),
            "%s (%s, %s): %s: %.300s", d->name, d->type, d->platform, _(rep.headline), rep.message);
    engine_report_free(&rep);
}

static void check_devices(doctor_report *r, const paths *p, const catalog *cat, const config *cfg,
                          run_progress_cb cb, void *user) {
    engine_device *devs = NULL;
    char err[1024] = "";
    int n = engine_list_devices(&devs, err, sizeof err);
    if (n <= 0) {
        const char *fix = _("install PoCL (sudo apt-get install pocl-opencl-icd) or your GPU's driver");
        if (err[0]) add(r, "devices", DOC_FAIL, fix, _("no usable OpenCL device: %s"), err);
        else add(r, "devices", DOC_FAIL, fix, "%s", _("no usable OpenCL device"));
        free(devs);
        return;
    }
    int pocl = 0, gpus = 0;
    for (int i = 0; i < n; i++) {
        pocl += util_contains_ci(devs[i].platform, "portable computing") != 0;
        gpus += !strcmp(devs[i].type, "GPU");
        check_device(r, &devs[i], p, cat, cb, user);
    }
    if (pocl) add(r, "pocl", DOC_OK, NULL, "%s", _("PoCL runs kernels on this CPU when no GPU is chosen"));
    else if (gpus) add(r, "pocl", DOC_OK, NULL, "%s", _("PoCL (OpenCL on the CPU) is not installed; the GPU is used"));
    else
        add(r, "pocl", DOC_WARN, "sudo apt-get install pocl-opencl-icd", "%s",
            _("PoCL (OpenCL on the CPU) is not installed"));
    int chosen = engine_device_match(devs, n, cfg->device);
    if (cfg->device[0] && chosen >= 0)
        add(r, "default device", DOC_OK, NULL, _("the settings choose device '%s': %d, %s"), cfg->device,
            devs[chosen].index, devs[chosen].name);
    else if (cfg->device[0])
        add(r, "default device", DOC_FAIL,
            _("set [device] default to an index or part of a name that `cltutor devices` lists, or remove it"),
            _("[device] default = %s in %s names no device here: runs use the default device instead (%s)"),
            cfg->device, cfg->device_set_by, devs[engine_default_device(devs, n, NULL)].name);
    free(devs);
}

static void check_simulator(doctor_report *r) {
    char icd[1024], plugin[1024], why[1024];
    if (gpumodel_backend(icd, sizeof icd, plugin, sizeof plugin, why, sizeof why) == 0)
        add(r, "oclgrind", DOC_OK, NULL, _("Oclgrind %s with the plugin %s: the GPU model, race checks and "
            "technique checks work"), icd, plugin);
    else if (icd[0])
        add(r, "oclgrind", DOC_FAIL, _("build the plugin: make plugin (with liboclgrind-dev and llvm-14-dev installed), "
            "or point CLTUTOR_GM_PLUGIN at it"), "%s", why);
    else
        add(r, "oclgrind", DOC_FAIL, _("sudo apt-get install oclgrind liboclgrind-dev llvm-14-dev g++, then make"), "%s",
            why);
}

/* ---- the course, the workspace, the settings, the terminal ------------ */

static void check_course(doctor_report *r, const paths *p, const catalog *cat, const char *course_err) {
    if (!p || !cat) {
        add(r, "course", DOC_FAIL, _("reinstall cltutor, or set CLTUTOR_DATA to the folder holding lessons/"), "%s",
            course_err ? course_err : _("not found"));
        return;
    }
    /* TRANSLATORS: the course's folder, how many chapters, then ", with reference solutions" or ", solutions
       withheld (a student install)", then ", some did not load" or nothing */
    add(r, "course", cat->n_skipped ? DOC_WARN : DOC_OK, cat->n_skipped ? _("run `cltutor validate` to see why") : NULL,
        P_("%s: %d chapter%s%s", "%s: %d chapters%s%s", (unsigned long long)cat->count), p->data, cat->count,
        paths_have_solutions(p) ? _(", with reference solutions") : _(", solutions withheld (a student install)"),
        cat->n_skipped ? _(", some did not load") : "");
}

/* Whether a folder that does not exist yet can be made: the nearest part of its path that exists (in up) is
 * a folder that lets us write. */
static int creatable(const char *path, char *up, size_t len) {
    snprintf(up, len, "%s", path);
    struct stat st;
    while (stat(up, &st) != 0) {
        char *slash = strrchr(up, '/');
        if (!slash || (errno != ENOENT && errno != ENOTDIR)) return 0;
        if (slash == up) slash[1] = '\0'; /* the root */
        else *slash = '\0';
    }
    return S_ISDIR(st.st_mode) && access(up, W_OK | X_OK) == 0;
}

static void check_workspace(doctor_report *r, const paths *p) {
    if (!p) return;
    static const char *const origin[] = {"--workspace", "$CLTUTOR_WORKSPACE", N_("in the source tree"),
                                         N_("per user")};
    const char *from = (unsigned)p->origin < CLT_ARRAY_LEN(origin) ? _(origin[p->origin]) : "";
    if (!util_is_dir(p->workspace)) {
        /* the first run creates it: where its nearest folder that exists lets it */
        char up[1200];
        if (creatable(p->workspace, up, sizeof up))
            add(r, "workspace", DOC_WARN, NULL, _("%s (%s) does not exist yet: the first run creates it"),
                p->workspace, from);
        else
            add(r, "workspace", DOC_FAIL,
                _("create it and make it yours, or choose another with --workspace DIR or CLTUTOR_WORKSPACE"),
                _("%s (%s) does not exist, and %s does not let cltutor create it: your edits and progress cannot be "
                  "saved"), p->workspace, from, up);
        return;
    }
    if (access(p->workspace, W_OK | X_OK) != 0) {
        add(r, "workspace", DOC_FAIL, _("make it writable, or choose another with --workspace DIR or CLTUTOR_WORKSPACE"),
            _("%s (%s) is not writable: your edits and progress cannot be saved"), p->workspace, from);
        return;
    }
    char file[1300];
    snprintf(file, sizeof file, "%s/.cltutor/progress.json", p->workspace);
    if (access(file, F_OK) == 0 && access(file, W_OK) != 0) {
        add(r, "workspace", DOC_FAIL, _("chmod u+w on it"), _("%s is read-only: progress cannot be saved"), file);
        return;
    }
    struct stat st;
    if (stat(file, &st) == 0) {
        char *text = S_ISREG(st.st_mode) ? util_read_file(file, NULL) : NULL;
        cJSON *json = text ? cJSON_Parse(text) : NULL;
        int ok = cJSON_IsObject(json);
        cJSON_Delete(json);
        free(text);
        if (!S_ISREG(st.st_mode)) {
            add(r, "workspace", DOC_FAIL, _("move it away"), _("%s is not a file: progress cannot be saved"), file);
            return;
        }
        if (!ok) {
            add(r, "workspace", DOC_WARN, _("nothing: the next run keeps it aside as progress.json.corrupt-... and "
                "starts afresh"), _("%s is not a progress file (damaged or edited by hand)"), file);
            return;
        }
    }
    add(r, "workspace", DOC_OK, NULL, _("%s (%s): writable"), p->workspace, from);
}

static void check_settings(doctor_report *r, const config *cfg, const char *config_err) {
    if (config_err && *config_err)
        add(r, "settings", DOC_FAIL, _("mend each line named, or remove it (the default then holds)"), "%s", config_err);
    /* the files read: the system's (/etc/cltutor.conf) and the user's */
    char files[2200];
    const char *sys = cfg->files[0], *user = cfg->files[1];
    if (sys[0] && user[0]) snprintf(files, sizeof files, _("%s and %s"), sys, user);
    else if (sys[0]) snprintf(files, sizeof files, _("%s, no user settings"), sys);
    else if (user[0]) snprintf(files, sizeof files, _("no /etc/cltutor.conf and %s"), user);
    else snprintf(files, sizeof files, "%s", _("no /etc/cltutor.conf, no user settings"));
    add(r, "settings", config_err && *config_err ? DOC_WARN : DOC_OK, NULL, _("%s; timing budget %.1f s, %s, %s"), files, cfg->budget_s,
        cfg->queue ? _("timing queues for the device") : _("timing does not queue"),
        cfg->solutions_shown ? _("solutions shown") : _("solutions hidden"));
    if (cfg->ignored_system_config[0])
        add(r, "settings", DOC_WARN, _("nothing, in a lab; elsewhere, unset CLTUTOR_SYSTEM_CONFIG"),
            _("CLTUTOR_SYSTEM_CONFIG=%s is ignored: %s says [lab] locked = yes"), cfg->ignored_system_config,
            cfg->files[0]);
    const char *dir = config_queue_dir(cfg);
    if (dir && util_is_dir(dir) && access(dir, W_OK | X_OK) != 0)
        add(r, "queue", DOC_FAIL, _("sudo chmod 1777 on it, or set [timing] queue_dir"), _("%s is not writable: timing "
            "runs cannot queue for the device"), dir);
    char up[1200];
    if (dir && !util_is_dir(dir) && !creatable(dir, up, sizeof up))
        add(r, "queue", DOC_FAIL, _("create it (sudo mkdir -m 1777 on it), or set [timing] queue_dir to a folder that "
            "can be"), _("%s does not exist, and %s does not let cltutor create it: timing runs cannot queue for the "
            "device"), dir, up);
}

static void check_terminal(doctor_report *r, const doctor_terminal *t) {
    if (!t->is_tty) {
        add(r, "terminal", DOC_WARN, _("run `cltutor` in a terminal for the full-screen course"), "%s",
            _("not a terminal: the commands work, the full-screen course needs one"));
        return;
    }
    if (t->term && *t->term && !strcmp(t->term, "dumb"))
        add(r, "terminal", DOC_FAIL, "export TERM=xterm-256color", _("TERM is %s: the full-screen course cannot draw"),
            t->term);
    else if (!t->term || !*t->term)
        add(r, "terminal", DOC_FAIL, "export TERM=xterm-256color", "%s",
            _("TERM is not set: the full-screen course cannot draw"));
    if (!t->utf8)
        add(r, "terminal", DOC_WARN, _("export LANG=C.UTF-8 (or en_US.UTF-8, zh_CN.UTF-8)"), "%s",
            _("the locale is not UTF-8: bars and Chinese text fall back to plain ASCII"));
    if (t->cols && (t->cols < 80 || t->rows < 24))
        add(r, "terminal", DOC_WARN, _("make the window at least 80x24"), _("the window is %dx%d"), t->cols, t->rows);
    if (t->term && *t->term && strcmp(t->term, "dumb") && t->utf8 && (!t->cols || (t->cols >= 80 && t->rows >= 24)))
        add(r, "terminal", DOC_OK, NULL, "%s, UTF-8, %dx%d, %s", t->term, t->cols, t->rows,
            t->colours >= 256 ? _("256 colours") : t->colours >= 8 ? _("8 colours") : _("colours unknown"));
}

void doctor_run(const paths *p, const catalog *cat, const char *course_err, const config *cfg, const char *config_err,
                const doctor_terminal *term, run_progress_cb cb, void *user, doctor_report *out) {
    memset(out, 0, sizeof *out);
    check_course(out, p, cat, course_err);
    check_workspace(out, p);
    check_settings(out, cfg, config_err);
    check_drivers(out);
    check_devices(out, p, cat, cfg, cb, user);
    check_simulator(out);
    check_terminal(out, term);
}
