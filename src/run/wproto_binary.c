/* wproto_binary — a kernel built by the device's own compiler, its binary
 * handed back (see wproto_binary.h). */
#define _GNU_SOURCE
#include "run/wproto_binary.h"
#include "run/buildlog.h"
#include "run/sandbox.h"
#include "run/worker.h"
#include "run/worker_build.h"
#include "run/wproto.h"
#include "cl/clhost.h"
#include "base/exitcode.h"
#include "base/util.h"
#include "text/i18n.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The request for one file (WK_BINARY), rewound for the worker; -1 when it cannot be written. */
static int write_binary_request(const char *scratch, const char *source, const char *options,
                                const char *device_spec) {
    wproto_header h;
    wproto_header_init(WK_BINARY, &h);
    int fd = wproto_open_request(scratch);
    if (fd < 0) return -1;
    int ok = blob_put(fd, WR_HEADER, &h, sizeof h) == 0 && blob_put_str(fd, WR_SCRATCH, scratch) == 0 &&
             (!device_spec || blob_put_str(fd, WR_DEVICE, device_spec) == 0) &&
             blob_put_str(fd, WR_SOURCE, source) == 0 && blob_put_str(fd, WR_OPTIONS, options) == 0;
    if (!ok || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* What the worker handed back, into out; 0, or EXIT_NO_DEVICE / -1 with err. */
static int take_result(const sandbox_result *sr, const char *display, wproto_binary_result *out, char *err,
                       size_t errlen) {
    const engine_device *dev = blob_get(sr->blob, sr->blob_len, W_DEVICE, 0, NULL);
    const int32_t *built = blob_get(sr->blob, sr->blob_len, W_BUILT, 0, NULL);
    char *msg = blob_get_str(sr->blob, sr->blob_len, W_MESSAGE);
    int rc = 0;
    if (!dev) {
        util_errf(err, errlen, "%s", msg ? msg : sr->output && *sr->output ? sr->output : _("the worker stopped early"));
        rc = msg || blob_get(sr->blob, sr->blob_len, W_BADSPEC, 0, NULL) ? EXIT_NO_DEVICE : -1;
    } else if (!built) {
        util_errf(err, errlen, _("the compiler of %s stopped before it finished (%s)"), dev->name,
                  sr->timed_out ? _("time limit") : sr->signaled ? _("crashed") : _("no result"));
        rc = -1;
    } else {
        out->device = *dev;
        out->built = built[1] == 0;
        char *log = blob_get_str(sr->blob, sr->blob_len, W_BUILDLOG);
        int line = 0, col = 0;
        if (log) out->log = buildlog_rewrite(log, display, &line, &col);
        free(log);
        size_t len = 0;
        const char *bin = blob_get(sr->blob, sr->blob_len, W_BINARY, 0, &len);
        if (bin && (out->binary = malloc(len + 1))) {
            memcpy(out->binary, bin, len);
            out->binary[len] = '\0';
            out->len = len;
        }
    }
    free(msg);
    return rc;
}

int wproto_binary(const lesson *l, const char *kernel_path, const char *display, const char *device_spec,
                  wproto_binary_result *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    char scratch[PATH_MAX], options[600];
    char *source = util_read_file(kernel_path, NULL);
    if (!source) {
        util_errf(err, errlen, _("%s: cannot read the kernel file"), display);
        return -1;
    }
    if (wproto_make_scratch(scratch, sizeof scratch, err, errlen) != 0) {
        free(source);
        return -1;
    }
    worker_build_options(l, options, sizeof options);
    int req = write_binary_request(scratch, source, options, device_spec);
    free(source);
    sandbox_limits lim = {.total_s = 60 + 130, .grace_s = 1.0, .cpu_s = 180,
                          .result_max_bytes = WORKER_BINARY_BYTES + 2 * CLH_LOG_KEEP_BYTES + 65536};
    sandbox_result sr;
    int rc = wproto_run_request(req, &lim, NULL, &sr, err, errlen) == 0 ? take_result(&sr, display, out, err, errlen)
                                                                        : -1;
    sandbox_result_free(&sr);
    if (req >= 0) close(req);
    util_remove_tree(scratch);
    return rc;
}

void wproto_binary_free(wproto_binary_result *r) {
    free(r->binary);
    free(r->log);
    memset(r, 0, sizeof *r);
}
