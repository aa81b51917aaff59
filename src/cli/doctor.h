/* doctor — checks what cltutor needs on this machine (the OpenCL loader and
 * drivers, each device, PoCL, Oclgrind and the plugin, the course, the
 * workspace, the settings, the terminal) and says for each problem what to do. */
#ifndef CLT_DOCTOR_H
#define CLT_DOCTOR_H
#include <stddef.h>

#include "course/catalog.h"
#include "course/config.h"
#include "run/engine.h"
#include "course/paths.h"

#define DOCTOR_STATUSES(X) X(DOC_OK, "ok") X(DOC_WARN, "warn") X(DOC_FAIL, "fail")

typedef enum {
#define DOC_ENUM(e, name) e,
    DOCTOR_STATUSES(DOC_ENUM)
#undef DOC_ENUM
} doctor_status;

typedef struct {
    char check[32];        /* "opencl", "device 0", "oclgrind", "workspace", ... */
    doctor_status status;
    char summary[512];     /* what was found */
    char fix[512];         /* what to do, "" when nothing */
} doctor_finding;

#define DOCTOR_MAX 48

typedef struct {
    doctor_finding items[DOCTOR_MAX];
    int n;
    int failed, warned;
} doctor_report;

/* What the terminal offers, measured by the caller (the view knows its terminal). */
typedef struct {
    int is_tty;
    const char *term;      /* $TERM */
    int utf8;              /* the locale's character set is UTF-8 */
    int cols, rows;        /* 0 when unknown */
    int colours;           /* 0 none known, else how many */
} doctor_terminal;

/* Runs every check; p and cat may be NULL when the course was not found
 * (why in course_err). cb reports the kernel runs' progress. */
void doctor_run(const paths *p, const catalog *cat, const char *course_err, const config *cfg, const char *config_err,
                const doctor_terminal *term, run_progress_cb cb, void *user, doctor_report *out);
const char *doctor_status_name(doctor_status s);

#endif
