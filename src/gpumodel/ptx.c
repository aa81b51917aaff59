/* ptx — a kernel compiled for NVIDIA PTX by clang and libclc, and its
 * memory instructions read back with their widths and source lines. */
#define _GNU_SOURCE
#include "gpumodel/ptx.h"
#include "run/sandbox.h"
#include "run/worker_build.h"
#include "run/wproto.h"
#include "run/wproto_binary.h"
#include "base/util.h"
#include "text/i18n.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PTX_LIBCLC_DEFAULT "/usr/lib/clc/nvptx64--nvidiacl.bc"

const char *ptx_space_name(ptx_space s) {
    static const char *const names[] = {N_("global"), N_("local"), N_("constant"), N_("private"), N_("generic")};
    return names[s];
}

/* The bytes of one element of a PTX type suffix (f32, u8, b64...), 0 if it is none. */
static int type_bytes(const char *t) {
    if (strlen(t) < 2 || !strchr("fusb", t[0])) return 0;
    int bits = atoi(t + 1);
    return bits == 8 || bits == 16 || bits == 32 || bits == 64 ? bits / 8 : 0;
}

static ptx_kernel *add_kernel(ptx_report *r, const char *name) {
    ptx_kernel *k = realloc(r->kernels, (size_t)(r->n + 1) * sizeof *k);
    if (!k) return NULL;
    r->kernels = k;
    k = &r->kernels[r->n++];
    memset(k, 0, sizeof *k);
    util_copy_text(k->name, sizeof k->name, name);
    return k;
}

/* Adds a to k, or counts it with the alike one of its line; its index in k->acc, or -1. */
static int add_access(ptx_kernel *k, const ptx_access *a) {
    for (int i = 0; i < k->n; i++)
        if (k->acc[i].line == a->line && !strcmp(k->acc[i].opcode, a->opcode)) {
            k->acc[i].count++;
            return i;
        }
    if (k->n == k->cap) {
        int cap = k->cap ? 2 * k->cap : 16;
        ptx_access *na = realloc(k->acc, (size_t)cap * sizeof *na);
        if (!na) return -1;
        k->acc = na;
        k->cap = cap;
    }
    k->acc[k->n] = *a;
    k->acc[k->n].count = 1;
    k->acc[k->n].block_share = 0;
    return k->n++;
}

/* The basic block being read: its instructions and the memory instructions in it. */
typedef struct {
    int instructions;
    int mem[1024];               /* indices into the kernel's acc, one per instruction */
    int n_mem;
} ptx_block;

/* Ends block b of k: its instructions shared among its memory instructions. */
static void end_block(ptx_kernel *k, ptx_block *b) {
    for (int i = 0; k && i < b->n_mem; i++) k->acc[b->mem[i]].block_share += (double)b->instructions / b->n_mem;
    b->instructions = b->n_mem = 0;
}

/* Notes the access at index i of k (from add_access) in block b, where it is a memory instruction of
 * the kinds the GPU model follows. -1 when add_access failed. */
static int note_in_block(ptx_kernel *k, ptx_block *b, int i) {
    if (i < 0) return -1;
    ptx_space sp = k->acc[i].space;
    if (sp != PTX_LOCAL && b->n_mem < (int)CLT_ARRAY_LEN(b->mem)) b->mem[b->n_mem++] = i;
    return 0;
}

/* Reads one instruction's opcode (ld.global.v4.f32) into a; 1 when it moves memory. */
static int read_opcode(const char *word, ptx_access *a) {
    char op[40];
    util_copy_text(op, sizeof op, word);
    memset(a, 0, sizeof *a);
    util_copy_text(a->opcode, sizeof a->opcode, op);
    char *save = NULL, *part = strtok_r(op, ".", &save);
    if (!part) return 0;
    if (!strcmp(part, "ld")) a->op = PTX_LOAD;
    else if (!strcmp(part, "st")) a->op = PTX_STORE;
    else if (!strcmp(part, "atom") || !strcmp(part, "red")) a->op = PTX_ATOMIC;
    else return 0;
    a->space = PTX_GENERIC;
    a->vector = 1;
    int elem = 0;
    while ((part = strtok_r(NULL, ".", &save))) {
        if (!strcmp(part, "param")) return 0; /* the kernel's arguments */
        if (!strcmp(part, "global")) a->space = PTX_GLOBAL;
        else if (!strcmp(part, "shared")) a->space = PTX_SHARED;
        else if (!strcmp(part, "const")) a->space = PTX_CONST;
        else if (!strcmp(part, "local")) a->space = PTX_LOCAL;
        else if (!strcmp(part, "v2") || !strcmp(part, "v4")) a->vector = part[1] - '0';
        else if (type_bytes(part)) elem = type_bytes(part);
    }
    a->bytes = elem * a->vector;
    return 1;
}

/* A call to an atomic function libclc declares but does not define (its
 * 64-bit ones for NVPTX): the callee's mangled name, "_Z9atom_xchgPU3AS1Vmm,",
 * read as the atomic it stands for; 1 when it is one. */
static int read_atomic_call(const char *word, ptx_access *a) {
    int len = 0, used = 0;
    if (sscanf(word, "_Z%d%n", &len, &used) != 1 || len <= 0 || len >= 32 || (int)strlen(word) < used + len) return 0;
    const char *name = word + used, *rest = name + len;
    if (strncmp(name, "atom_", 5) && strncmp(name, "atomic_", 7)) return 0;
    memset(a, 0, sizeof *a);
    snprintf(a->opcode, sizeof a->opcode, "call %.*s", len, name);
    a->op = PTX_ATOMIC;
    a->vector = 1;
    const char *as = strstr(rest, "AS");
    a->space = !as ? PTX_GENERIC : as[2] == '1' ? PTX_GLOBAL : as[2] == '3' ? PTX_SHARED : PTX_GENERIC;
    const char *type = as ? as + 3 : rest + 1; /* after the pointer's address space: V (volatile), then the type */
    while (*type == 'V' || *type == 'K') type++;
    a->bytes = strchr("lmxyd", *type) ? 8 : strchr("ijf", *type) ? 4 : 0;
    return 1;
}

int ptx_parse(const char *ptx, ptx_report *out) {
    ptx_kernel *k = NULL;
    ptx_block block = {0};
    int line = 0;
    for (const char *p = ptx; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), p);
        p = end ? end + 1 : p + len;
        char *s = buf;
        while (isspace((unsigned char)*s)) s++;
        char name[128];
        int file, l, col;
        if (!strncmp(s, ".target ", 8)) {
            snprintf(out->target, sizeof out->target, "%.*s", (int)strcspn(s + 8, ", \t"), s + 8);
        } else if (sscanf(s, ".visible .entry %127[A-Za-z0-9_](", name) == 1 || sscanf(s, ".entry %127[A-Za-z0-9_](", name) == 1) {
            end_block(k, &block);
            if (!(k = add_kernel(out, name))) return -1;
            line = 0;
        } else if (k && !strncmp(s, "$L__BB", 6)) { /* a basic block begins */
            end_block(k, &block);
        } else if (sscanf(s, ".loc %d %d %d", &file, &l, &col) == 3) {
            line = l;
        } else if (k && !strncmp(s, "_Z", 2)) { /* a call's callee, on a line of its own */
            ptx_access a;
            if (read_atomic_call(s, &a)) {
                a.line = line;
                if (note_in_block(k, &block, add_access(k, &a)) != 0) return -1;
            }
        } else if (k && *s && *s != '.' && *s != '/' && *s != '{' && *s != '}' && *s != '$') {
            if (*s == '@') { /* a guarded instruction: its guard, then the instruction */
                s += strcspn(s, " \t");
                s += strspn(s, " \t");
            }
            char word[48];
            if (sscanf(s, "%47s", word) != 1) continue;
            size_t n = strlen(s);
            while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
            if (n > 0 && s[n - 1] == ';') block.instructions++; /* an instruction ends with ';' */
            if (!strncmp(word, "bar.sync", 8) || !strncmp(word, "barrier.sync", 12)) {
                k->barriers++;
                continue;
            }
            ptx_access a;
            if (read_opcode(word, &a)) {
                a.line = line;
                if (note_in_block(k, &block, add_access(k, &a)) != 0) return -1;
            }
            if (!strncmp(word, "bra", 3) || !strcmp(word, "ret;") || !strcmp(word, "exit;")) end_block(k, &block);
        }
    }
    end_block(k, &block);
    return 0;
}

int ptx_is_text(const char *bin, size_t len) {
    return bin && memmem(bin, len, ".version ", 9) && memmem(bin, len, ".target ", 8);
}

void ptx_read_registers(const char *log, ptx_report *r) {
    ptx_kernel *k = NULL;
    for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        char name[128];
        int regs;
        const char *entry = strstr(p, "Compiling entry function '");
        const char *used = strstr(p, "Used ");
        const char *eol = strchr(p, '\n');
        if (entry && (!eol || entry < eol) && sscanf(entry, "Compiling entry function '%127[A-Za-z0-9_]'", name) == 1) {
            k = NULL;
            for (int i = 0; i < r->n && !k; i++)
                if (!strcmp(r->kernels[i].name, name)) k = &r->kernels[i];
        } else if (k && used && (!eol || used < eol) && sscanf(used, "Used %d registers", &regs) == 1) {
            k->registers = regs;
            k = NULL;
        }
    }
}

void ptx_access_text(const ptx_access *a, char *buf, size_t len) {
    const char *op = a->op == PTX_LOAD ? _("load") : a->op == PTX_STORE ? _("store") : _("atomic");
    int n = snprintf(buf, len, _("%s %s, %d bytes a work-item: %s"), _(ptx_space_name(a->space)), op, a->bytes,
                     a->opcode);
    if (a->count > 1 && n > 0 && (size_t)n < len) snprintf(buf + n, len - (size_t)n, " x%d", a->count);
}

void ptx_report_free(ptx_report *r) {
    for (int i = 0; i < r->n; i++) free(r->kernels[i].acc);
    free(r->kernels);
    free(r->ptx);
    memset(r, 0, sizeof *r);
}

/* What LLVM prints when it crashes, before its stack dump. */
#define CLANG_CRASH_BANNER "PLEASE submit a bug report"

/* The clang to run: $CLTUTOR_CLANG, else clang-15 or clang on the PATH; -1 with err. */
static int find_clang(char *buf, size_t len, char *err, size_t errlen) {
    const char *env = getenv(PTX_CLANG_ENV);
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        if (access(buf, X_OK) == 0) return 0;
        util_errf(err, errlen, _("%s=%s is not a program that can be run"), PTX_CLANG_ENV, env);
        return -1;
    }
    static const char *const names[] = {"clang-15", "clang"};
    const char *path = getenv("PATH");
    for (size_t n = 0; n < CLT_ARRAY_LEN(names); n++) {
        char dirs[4096];
        snprintf(dirs, sizeof dirs, "%s", path && *path ? path : "/usr/bin:/bin");
        char *save = NULL;
        for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
            if (util_pathf(buf, len, "%s/%s", d, names[n]) == 0 && access(buf, X_OK) == 0) return 0;
    }
    util_errf(err, errlen, "%s", _("no clang to compile for NVIDIA PTX: install it (sudo apt-get install clang-15 "
                                   "libclc-15), or name one with CLTUTOR_CLANG"));
    return -1;
}

/* argv for clang: the target, libclc, the chapter's options (split at spaces), the file. */
static int clang_argv(char **argv, int max, const char *clang, const char *libclc, char *options, const char *in,
                      const char *out) {
    static const char *const fixed[] = {"-target", "nvptx64-nvidia-nvcl", "-x", "cl", "-cl-std=CL1.2", "-Xclang",
                                        "-finclude-default-header", "-Xclang", "-mlink-bitcode-file", NULL};
    int n = 0;
    argv[n++] = (char *)clang;
    for (int i = 0; fixed[i]; i++) argv[n++] = (char *)fixed[i];
    argv[n++] = "-Xclang";
    argv[n++] = (char *)libclc;
    argv[n++] = "-Xclang"; /* NVIDIA's OpenCL has 64-bit atomics; clang's target does not declare them */
    argv[n++] = "-cl-ext=+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics";
    argv[n++] = "-Wno-linker-warnings";
    argv[n++] = "-O3";
    argv[n++] = "-gline-directives-only"; /* .loc lines; line tables crash clang 15 on some kernels */
    argv[n++] = "-S";
    char *save = NULL;
    for (char *o = strtok_r(options, " ", &save); o && n < max - 5; o = strtok_r(NULL, " ", &save)) argv[n++] = o;
    argv[n++] = (char *)in;
    argv[n++] = "-o";
    argv[n++] = (char *)out;
    argv[n] = NULL;
    return n;
}

/* The compiler's message with the scratch copy's path replaced by display. */
static void compiler_message(const char *output, const char *copy, const char *display, char *err, size_t errlen) {
    size_t used = 0, clen = strlen(copy);
    err[0] = '\0';
    for (const char *p = output ? output : ""; *p && used + 1 < errlen;) {
        if (!strncmp(p, copy, clen)) {
            used += (size_t)snprintf(err + used, errlen - used, "%s", display);
            p += clen;
        } else {
            err[used++] = *p++;
            err[used] = '\0';
        }
    }
    if (used >= errlen) err[errlen - 1] = '\0';
}

int ptx_compile(const lesson *l, const char *kernel_path, const char *display, ptx_report *out, char *err,
                size_t errlen) {
    memset(out, 0, sizeof *out);
    char clang[PATH_MAX];
    out->status = -1;
    if (find_clang(clang, sizeof clang, err, errlen) != 0) {
        util_copy_text(out->message, sizeof out->message, err);
        return -1;
    }
    const char *libclc = getenv(PTX_LIBCLC_ENV);
    if (!libclc || !*libclc) libclc = PTX_LIBCLC_DEFAULT;
    char *source = access(libclc, R_OK) == 0 ? util_read_file(kernel_path, NULL) : NULL;
    if (!source) {
        if (access(libclc, R_OK) != 0)
            util_errf(err, errlen, _("no libclc for NVIDIA PTX at %s: install it (sudo apt-get install libclc-15), "
                                     "or name it with CLTUTOR_LIBCLC"), libclc);
        else util_errf(err, errlen, _("%s: cannot read the kernel file"), display);
        util_copy_text(out->message, sizeof out->message, err);
        return -1;
    }
    char scratch[PATH_MAX], in[PATH_MAX + 16], ptx[PATH_MAX + 16];
    int rc = -1;
    if (wproto_make_scratch(scratch, sizeof scratch, err, errlen) == 0) {
        snprintf(in, sizeof in, "%s/kernel.cl", scratch);
        snprintf(ptx, sizeof ptx, "%s/kernel.ptx", scratch);
        char options[600], *argv[64];
        worker_build_options(l, options, sizeof options);
        clang_argv(argv, 64, clang, libclc, options, in, ptx);
        sandbox_limits lim = {.total_s = 120, .grace_s = 1, .cpu_s = 120, .memory_mb = 4096};
        sandbox_result sr;
        if (util_write_file_atomic(in, source, strlen(source)) != 0) {
            util_errf(err, errlen, _("cannot write in %s"), scratch);
        } else if (sandbox_run(clang, argv, NULL, -1, &lim, NULL, NULL, NULL, &sr) != 0) {
            util_errf(err, errlen, "%s", _("fork failed"));
        } else {
            int built = sr.exited && sr.exit_code == 0;
            int crashed = !built && (!sr.exited || (sr.output && strstr(sr.output, CLANG_CRASH_BANNER)));
            if (crashed)
                util_errf(err, errlen, _("%s crashed while compiling %s: a fault of that compiler, not a build error "
                                         "in the kernel; its PTX cannot be shown (running the kernel does not use it)"),
                          clang, display);
            else if (!built) compiler_message(sr.output, in, display, err, errlen);
            sandbox_result_free(&sr);
            out->ptx = built ? util_read_file(ptx, NULL) : NULL;
            rc = crashed ? -1 : !built ? 1 : out->ptx && ptx_parse(out->ptx, out) == 0 ? 0 : -1;
            if (rc < 0 && !crashed) util_errf(err, errlen, "%s", _("out of memory"));
            char *vargv[] = {clang, "--version", NULL};
            if (rc == 0 && sandbox_run(clang, vargv, NULL, -1, &lim, NULL, NULL, NULL, &sr) == 0) {
                if (sr.output) snprintf(out->compiler, sizeof out->compiler, "%.*s", (int)strcspn(sr.output, "\n"), sr.output);
                sandbox_result_free(&sr);
            }
        }
        util_remove_tree(scratch);
    }
    free(source);
    out->status = rc;
    if (rc != 0) util_copy_text(out->message, sizeof out->message, err);
    return rc;
}

int ptx_from_driver(const lesson *l, const char *kernel_path, const char *display, const char *device_spec,
                    ptx_report *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    wproto_binary_result b;
    int rc = wproto_binary(l, kernel_path, display, device_spec, &b, err, errlen);
    if (rc == 0) { /* which device said what, built or not */
        util_copy_text(out->device, sizeof out->device, b.device.name);
        util_copy_text(out->driver, sizeof out->driver, b.device.driver);
    }
    if (rc == 0 && !b.built) {
        util_errf(err, errlen, "%s", b.log ? b.log : "");
        rc = 1;
    } else if (rc == 0 && !ptx_is_text(b.binary, b.len)) {
        util_errf(err, errlen, _("%s (%s) gives no PTX: its compiler's program binary (%zu bytes) is a format of its "
                                 "own; only NVIDIA's driver gives PTX"), b.device.name, b.device.platform, b.len);
        rc = 2;
    } else if (rc == 0 && ptx_parse(b.binary, out) != 0) {
        util_errf(err, errlen, "%s", _("out of memory"));
        rc = -1;
    } else if (rc == 0) {
        ptx_read_registers(b.log, out);
        snprintf(out->compiler, sizeof out->compiler, "%.90s %.60s", b.device.platform, b.device.driver);
        out->ptx = b.binary; /* handed over */
        b.binary = NULL;
    }
    wproto_binary_free(&b);
    out->status = rc;
    if (rc != 0) util_copy_text(out->message, sizeof out->message, err);
    return rc;
}

int ptx_compile_for(const lesson *l, const char *kernel_path, const char *display, int driver, const char *device_spec,
                    ptx_report *out, char *err, size_t errlen) {
    int rc = driver ? ptx_from_driver(l, kernel_path, display, device_spec, out, err, errlen) : -1;
    if (rc == 0 || rc == 1) return rc; /* the driver's PTX, or its compiler's refusal */
    if (driver) ptx_report_free(out);
    return ptx_compile(l, kernel_path, display, out, err, errlen);
}
