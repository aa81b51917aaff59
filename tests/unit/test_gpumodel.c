/* test_gpumodel — the GPU memory model's reading of the simulator plugin's
 * report (no simulator here): figures summed over launches, issues merged,
 * a damaged report named by its line, and what the technique checks take
 * from it. */
#define _DEFAULT_SOURCE
#include "gpumodel/gpumodel.h"
#include "gpumodel/technique.h"
#include "gpumodel/ptx.h"
#include "base/util.h"
#include "text/i18n.h"
#include "text/stext.h"
#include "suites.h"

#include <cJSON.h>
#include <stdlib.h>

#include <check.h>
#include <stdio.h>
#include <string.h>

/* One launch of kernel k: a coalesced 4-byte global load at line 12 (32
 * lanes, 4 sectors a request) and a local store at line 9. */
#define LAUNCH(k)                                                                                            \
    "kernel " k " 1 64 1 1 64 1 1 0.001000\n"                                                                \
    "inst 12 9 global load 4 4 64 64 256 2 2 64 8 256 0 0 64 32 0 0 0\n"                                      \
    "inst 9 5 local store 4 4 64 64 256 2 2 64 0 0 2 1 64 32 0 0 0\n"                                         \
    "end\n"

START_TEST(report_sums_launches_and_sorts_by_line) {
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char err[256];
    ck_assert_msg(gpumodel_parse(LAUNCH("histogram") LAUNCH("histogram"), &rep, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(rep.n_kernels, 1);
    gm_kernel *k = &rep.kernels[0];
    ck_assert_str_eq(k->name, "histogram");
    ck_assert_int_eq(k->launches, 2);
    ck_assert_int_eq(k->n_acc, 2);
    ck_assert_int_eq(k->acc[0].line, 9); /* sorted by source line */
    ck_assert_int_eq(k->acc[1].line, 12);
    ck_assert(k->acc[1].bytes == 512 && k->acc[1].requests == 4 && k->acc[1].sectors == 16);
    ck_assert_double_eq_tol(k->acc[1].sectors_per_request, 4.0, 1e-9);
    ck_assert_double_eq_tol(k->acc[1].efficiency, 1.0, 1e-9); /* 128 bytes asked, 4 sectors moved */
    /* what a technique check compares with: the global and __constant loads */
    rep.status = GM_OK;
    snprintf(rep.size_text, sizeof rep.size_text, "64x1x1");
    technique_baseline b = technique_baseline_of(&rep);
    ck_assert(b.known);
    ck_assert_double_eq(b.global_load_bytes, 512);
    ck_assert_double_eq(b.load_requests, 4);
    ck_assert_str_eq(b.size, "64x1x1");
    gpumodel_report_free(&rep);
}
END_TEST

START_TEST(report_merges_issues_of_launches) {
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char err[256];
    const char *text = "kernel scan 1 64 1 1 64 1 1 0.5\n"
                       "uninit 3 40 7 5 0 0 5 0 0 0 0 0\n"
                       "end\n"
                       "kernel scan 1 64 1 1 64 1 1 0.5\n"
                       "uninit 2 40 7 6 0 0 6 0 0 0 0 0\n"
                       "end\n";
    ck_assert_msg(gpumodel_parse(text, &rep, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(rep.n_issues, 1); /* one issue per kind and place, its count summed */
    ck_assert_int_eq(rep.issues[0].kind, GM_ISSUE_UNINIT);
    ck_assert_int_eq(rep.issues[0].line, 40);
    ck_assert(rep.issues[0].count == 5);
    ck_assert_ptr_nonnull(strstr(rep.issues[0].work_item, "global (5,0,0)"));
    gpumodel_report_free(&rep);
}
END_TEST

START_TEST(damaged_report_is_named_by_line) {
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char err[256];
    ck_assert_int_eq(gpumodel_parse("kernel k 1 64 1 1 64 1 1 0.1\ninst 12 9 global lod 4 4 1\n", &rep, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "line 2") && strstr(err, "global lod"), "%s", err);
    gpumodel_report_free(&rep);
    memset(&rep, 0, sizeof rep);
    ck_assert_int_eq(gpumodel_parse("", &rep, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "no kernel"));
    gpumodel_report_free(&rep);
}
END_TEST

/* Oclgrind's headings become the program's own sentences (translated with
 * the rest), races and invalid accesses by kind and memory; others stay. */
START_TEST(simulator_headings_in_own_words) {
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char err[256];
    const char *text = "kernel histogram 1 64 1 1 64 1 1 0.001000\n"
                       "msg 2 3\tWrite-write data race at local memory address 0x20\\n\\tAt line 7 (column 3)\n"
                       "msg 2 1\tInvalid read of size 4 at global memory address 0x1000\\n\\tAt line 9 (column 5)\n"
                       "msg 2 1\tSomething new the simulator says\n"
                       "end\n";
    ck_assert_msg(gpumodel_parse(text, &rep, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(rep.n_issues, 3);
    ck_assert_str_eq(rep.issues[0].what, "Write-write data race in local memory");
    ck_assert_int_eq(rep.issues[0].kind, GM_ISSUE_RACE);
    ck_assert_int_eq(rep.issues[0].line, 7);
    ck_assert_str_eq(rep.issues[1].what, "Invalid read of 4 bytes in global memory");
    ck_assert_int_eq(rep.issues[1].kind, GM_ISSUE_MEMORY);
    ck_assert_str_eq(rep.issues[2].what, "Something new the simulator says");
    gpumodel_report_free(&rep);
}
END_TEST

/* The report's lines say what they are, for the course to draw them: no view reads their words. */
START_TEST(report_lines_have_roles) {
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char err[256];
    ck_assert_int_eq(gpumodel_parse(LAUNCH("histogram"), &rep, err, sizeof err), 0);
    rep.status = GM_OK;
    snprintf(rep.kernel_path, sizeof rep.kernel_path, "%s/kernels/02-atomic/histogram.cl", CLT_TEST_ROOT);
    gpumodel_format(&rep);
    ck_assert_ptr_nonnull(rep.line_roles);
    int rows = 0, headings = 0, clean = 0, sources = 0;
    for (int i = 0; i < rep.n_lines; i++) {
        if (rep.line_roles[i] == GM_LINE_ROW) {
            rows++;
            ck_assert(rep.line_src[i] == 9 || rep.line_src[i] == 12);
        }
        headings += rep.line_roles[i] == GM_LINE_HEADING;
        clean += rep.line_roles[i] == GM_LINE_CLEAN;
        sources += rep.line_roles[i] == GM_LINE_SOURCE;
    }
    ck_assert_int_eq(rows, 2);
    ck_assert_int_ge(headings, 2);
    ck_assert_int_eq(clean, 1); /* no issue: the simulator found none, said once */
    ck_assert_int_ge(sources, 2);
    gpumodel_report_free(&rep);
}
END_TEST

/* Display columns of a table line up to its last gap of two spaces (where its detail starts). */
static int columns_before_detail(const char *line) {
    const char *gap = NULL;
    for (const char *p = strstr(line, "  "); p; p = strstr(p + 1, "  ")) gap = p;
    ck_assert_ptr_nonnull(gap);
    while (gap > line && gap[-1] == ' ') gap--; /* an empty cell before it */
    return st_width(line, (size_t)(gap - line));
}

/* In Chinese the report is Chinese, and its table keeps its columns where
 * wide characters take two: the headings and the rows end at one column. */
START_TEST(report_in_chinese_keeps_its_columns) {
    char dir[4096];
    unsetenv("LANGUAGE");
    ck_assert_int_eq(util_exe_dir(dir, sizeof dir), 0);
    i18n_init(dir, "/nonexistent");
    ck_assert_msg(i18n_dir()[0], "no catalogue beside the test program: make builds it from po/");
    i18n_set_lang("zh");
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char err[256];
    ck_assert_int_eq(gpumodel_parse(LAUNCH("histogram"), &rep, err, sizeof err), 0);
    rep.status = GM_OK;
    snprintf(rep.kernel_path, sizeof rep.kernel_path, "%s/kernels/02-atomic/histogram.cl", CLT_TEST_ROOT);
    gpumodel_format(&rep);
    int heading = -1, rows = 0;
    for (int i = 0; i < rep.n_lines; i++) {
        if (rep.line_roles[i] != GM_LINE_ROW) continue;
        if (heading < 0) heading = i - 1;
        rows++;
        ck_assert_int_eq(columns_before_detail(rep.lines[i]), columns_before_detail(rep.lines[heading]));
    }
    ck_assert_int_eq(rows, 2);
    /* the words themselves once po/zh_CN.po has them (scripts/check-po.sh wants every one) */
    if (!strcmp(_("efficiency"), "efficiency")) {
        gpumodel_report_free(&rep);
        i18n_set_lang("en");
        return;
    }
    ck_assert_msg(strstr(rep.lines[heading], "效率") && !strstr(rep.lines[heading], "efficiency"), "%s",
                  rep.lines[heading]);
    for (int i = 0; i < rep.n_lines; i++)
        ck_assert_msg(!strstr(rep.lines[i], "sector") && !strstr(rep.lines[i], "work-item") &&
                      !strstr(rep.lines[i], "Oclgrind found"), "%s", rep.lines[i]);
    ck_assert_msg(strstr(gpumodel_note(&rep, 12), "扇区"), "%s", gpumodel_note(&rep, 12));
    gpumodel_report_free(&rep);
    i18n_set_lang("en");
}
END_TEST

/* Every kind of issue has its name in the JSON report. */
START_TEST(json_names_every_issue_kind) {
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    rep.status = GM_OK;
    gm_issue_kind kinds[] = {GM_ISSUE_MEMORY, GM_ISSUE_RACE, GM_ISSUE_UNINIT, GM_ISSUE_DIVERGENCE, GM_ISSUE_OTHER};
    const char *names[] = {"memory", "race", "uninitialised", "divergence", "other"};
    rep.issues = calloc(5, sizeof *rep.issues);
    rep.n_issues = 5;
    for (int i = 0; i < 5; i++) rep.issues[i].kind = kinds[i];
    cJSON *o = gpumodel_json(&rep);
    const cJSON *issues = cJSON_GetObjectItemCaseSensitive(o, "issues");
    ck_assert_int_eq(cJSON_GetArraySize(issues), 5);
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(issues, i), "kind")->valuestring, names[i]);
    cJSON_Delete(o);
    gpumodel_report_free(&rep);
}
END_TEST

/* Oclgrind's message headings, one of each kind, read as a kind and a memory. */
START_TEST(oclgrind_headings_are_read_as_kinds) {
    static const struct {
        const char *heading;
        gm_issue_kind kind;
        gm_space space;
    } cases[] = {
        {"Read-write data race at global memory address 0x1000", GM_ISSUE_RACE, GM_GLOBAL},
        {"Write-write data race at local memory address 0x20", GM_ISSUE_RACE, GM_LOCAL},
        {"Invalid read of size 4 at global memory address 0x2000", GM_ISSUE_MEMORY, GM_GLOBAL},
        {"Invalid write of size 4 at constant memory address 0x0", GM_ISSUE_MEMORY, GM_CONSTANT},
        {"Uninitialized value read from private memory address 0x4", GM_ISSUE_UNINIT, GM_N_SPACES},
        {"Work-group divergence detected (barrier)", GM_ISSUE_DIVERGENCE, GM_N_SPACES},
        {"Unhandled builtin function 'foo'", GM_ISSUE_OTHER, GM_N_SPACES},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_msg(gpumodel_issue_kind(cases[i].heading) == cases[i].kind, "%s", cases[i].heading);
        ck_assert_msg(gpumodel_issue_space(cases[i].heading) == cases[i].space, "%s", cases[i].heading);
    }
}
END_TEST

/* PTX as NVIDIA's OpenCL driver hands it back (580.159.04, H200; trimmed):
 * an .entry without .visible, no .loc lines, NULs after the text. */
static const char driver_ptx[] =
    "//\n// Generated by NVIDIA NVVM Compiler\n//\n.version 9.0\n.target sm_90, texmode_independent\n"
    ".address_size 64\n\n\t// .globl\thistogram\n\n.entry histogram(\n\t.param .u64 .ptr .global .align 4 p0,\n"
    "\t.param .u32 p3\n)\n{\n\tld.param.u64 \t%rd5, [p0];\n\tld.global.f32 \t%f59, [%rd14];\n"
    "\tld.global.f32 \t%f60, [%rd13];\n\tld.global.v4.f32 \t{%f63, %f64, %f65, %f66}, [%rd16];\n"
    "\t@%p3 bra \t$L__BB0_5;\n\tatom.global.add.u32 \t%r80, [%rd53], 1;\n\tret;\n}\n";

START_TEST(driver_ptx_is_read_without_lines) {
    ck_assert(ptx_is_text(driver_ptx, sizeof driver_ptx)); /* the NUL after it counted, as a binary is */
    ck_assert(!ptx_is_text("\177ELF\2\1\1 .version", 16));
    ptx_report r;
    memset(&r, 0, sizeof r);
    ck_assert_int_eq(ptx_parse(driver_ptx, &r), 0);
    ck_assert_str_eq(r.target, "sm_90");
    ck_assert_int_eq(r.n, 1);
    ck_assert_str_eq(r.kernels[0].name, "histogram");
    /* the parameter load is not memory; alike instructions without a line counted together */
    ck_assert_int_eq(r.kernels[0].n, 3);
    ck_assert_str_eq(r.kernels[0].acc[0].opcode, "ld.global.f32");
    ck_assert_int_eq(r.kernels[0].acc[0].count, 2);
    ck_assert_int_eq(r.kernels[0].acc[0].line, 0);
    ck_assert_int_eq(r.kernels[0].acc[1].bytes, 16);
    ck_assert_int_eq(r.kernels[0].acc[2].op, PTX_ATOMIC);
    ptx_report_free(&r);
}
END_TEST

START_TEST(registers_are_read_from_the_driver_log) {
    ptx_report r;
    memset(&r, 0, sizeof r);
    static const char ptx[] = ".version 9.0\n.target sm_90\n.entry scan_blocks(\n)\n{\n}\n.entry add_sums(\n)\n{\n}\n"
                              ".entry block_size(\n)\n{\n}\n";
    ck_assert_int_eq(ptx_parse(ptx, &r), 0);
    ck_assert_int_eq(r.n, 3);
    const char *log = "ptxas info    : 0 bytes gmem\n"
                      "ptxas info    : Compiling entry function 'add_sums' for 'sm_90a'\n"
                      "ptxas info    : Function properties for add_sums\n"
                      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                      "ptxas info    : Used 32 registers, used 0 barriers\n"
                      "ptxas info    : Compiling entry function 'scan_blocks' for 'sm_90a'\n"
                      "ptxas info    : Used 38 registers, used 1 barriers, 4096 bytes smem\n"
                      "ptxas info    : Compiling entry function 'not_in_ptx' for 'sm_90a'\n"
                      "ptxas info    : Used 99 registers\n";
    ptx_read_registers(log, &r);
    ck_assert_int_eq(r.kernels[0].registers, 38);
    ck_assert_int_eq(r.kernels[1].registers, 32);
    ck_assert_int_eq(r.kernels[2].registers, 0); /* the log does not name it */
    ptx_read_registers(NULL, &r);
    ck_assert_int_eq(r.kernels[0].registers, 38);
    ptx_report_free(&r);
}
END_TEST

/* libclc declares NVPTX's 64-bit atomics without code: the PTX calls them,
 * and each call is the atomic it names, on its line; other calls are not memory. */
START_TEST(calls_to_undefined_atomics_are_atomics) {
    ptx_report r;
    memset(&r, 0, sizeof r);
    static const char ptx[] = ".version 7.0\n.target sm_20\n"
                              ".func  (.param .b64 func_retval0) _Z9atom_xchgPU3AS1Vmm\n"
                              ".visible .entry scan(\n)\n{\n"
                              "\t.loc\t1 179 13\n\tcall.uni (retval0), \n$L__tmp3:\n\t_Z9atom_xchgPU3AS1Vmm, \n\t(\n"
                              "\t.loc\t1 180 2\n\tcall.uni \n\t_Z8atom_addPU3AS3Vii, \n"
                              "\t.loc\t1 181 2\n\tcall.uni \n\t_Z6helperPU3AS1m, \n}\n";
    ck_assert_int_eq(ptx_parse(ptx, &r), 0);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.kernels[0].n, 2);
    const ptx_access *x = &r.kernels[0].acc[0], *l = &r.kernels[0].acc[1];
    ck_assert_int_eq(x->op, PTX_ATOMIC);
    ck_assert_int_eq(x->space, PTX_GLOBAL);
    ck_assert_int_eq(x->bytes, 8);
    ck_assert_int_eq(x->line, 179);
    ck_assert_str_eq(x->opcode, "call atom_xchg");
    ck_assert_int_eq(l->space, PTX_SHARED);
    ck_assert_int_eq(l->bytes, 4);
    ck_assert_int_eq(l->line, 180);
    ptx_report_free(&r);
}
END_TEST

/* Each basic block's instructions are shared among the memory instructions in it: a loop body of 6
 * instructions with two loads of line 20 gives each 3; a block of 4 with one store of line 30, 4; a
 * block with no memory instruction charges no one, nor does a private (ld.local) access. */
START_TEST(blocks_are_shared_among_their_memory_instructions) {
    ptx_report r;
    memset(&r, 0, sizeof r);
    static const char ptx[] = ".version 7.0\n.target sm_90\n.visible .entry k(\n)\n{\n"
                              "\tmov.u32 %r1, 0;\n\tadd.s32 %r2, %r1, 1;\n"              /* no memory: nobody's */
                              "$L__BB0_1:\n\t.loc\t1 20 5\n\tld.global.f32 %f1, [%rd1];\n"
                              "\tld.global.f32 %f2, [%rd2];\n\tfma.rn.f32 %f3, %f1, %f2, %f3;\n"
                              "\tadd.s32 %r3, %r3, 1;\n\tsetp.lt.s32 %p1, %r3, %r4;\n\t@%p1 bra $L__BB0_1;\n"
                              "\t.loc\t1 30 5\n\tld.local.f32 %f4, [%rd3];\n\tst.global.f32 [%rd1], %f3;\n"
                              "\tmov.u32 %r5, 1;\n\tret;\n}\n";
    ck_assert_int_eq(ptx_parse(ptx, &r), 0);
    ck_assert_int_eq(r.n, 1);
    const ptx_kernel *k = &r.kernels[0];
    ck_assert_int_eq(k->n, 3);
    ck_assert_str_eq(k->acc[0].opcode, "ld.global.f32");
    ck_assert_int_eq(k->acc[0].count, 2);
    ck_assert_double_eq_tol(k->acc[0].block_share, 6, 1e-9); /* two loads of 3 each */
    ck_assert_int_eq(k->acc[1].space, PTX_LOCAL);
    ck_assert_double_eq_tol(k->acc[1].block_share, 0, 1e-9);
    ck_assert_double_eq_tol(k->acc[2].block_share, 4, 1e-9);
    ptx_report_free(&r);
}
END_TEST

Suite *gpumodel_suite(void) {
    Suite *s = suite_create("gpumodel");
    TCase *t = tcase_create("gpumodel");
    tcase_add_test(t, report_sums_launches_and_sorts_by_line);
    tcase_add_test(t, report_merges_issues_of_launches);
    tcase_add_test(t, damaged_report_is_named_by_line);
    tcase_add_test(t, report_lines_have_roles);
    tcase_add_test(t, simulator_headings_in_own_words);
    tcase_add_test(t, report_in_chinese_keeps_its_columns);
    tcase_add_test(t, json_names_every_issue_kind);
    tcase_add_test(t, oclgrind_headings_are_read_as_kinds);
    tcase_add_test(t, driver_ptx_is_read_without_lines);
    tcase_add_test(t, calls_to_undefined_atomics_are_atomics);
    tcase_add_test(t, blocks_are_shared_among_their_memory_instructions);
    tcase_add_test(t, registers_are_read_from_the_driver_log);
    suite_add_tcase(s, t);
    return s;
}
