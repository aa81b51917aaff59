/* test_predict — the time prediction on synthetic counts (each limit with a
 * time worked out by hand), the counts read from a plugin report, the work
 * model's scaling, and device profiles: bad ones named by file and line. */
#define _DEFAULT_SOURCE
#include "gpumodel/gm_predict.h"
#include "gpumodel/gm_cost.h"
#include "gpumodel/gpumodel.h"
#include "course/catalog.h"
#include "base/util.h"
#include "suites.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Round rates, so that every time below can be worked out by hand:
 * 1000 GB/s, 10 TFLOP/s, 100 G lines, passes and constant reads a second,
 * global atomics 10 G/s spread and 1 G/s on one address, local atomic
 * requests 50 G/s and 5 G/s, 5 us a launch, 10 ns a lone warp's request. */
static gp_profile round_profile(void) {
    gp_profile p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "Round GPU");
    snprintf(p.path, sizeof p.path, "round.ini");
    p.v[GPK_COPY] = 1000;
    p.v[GPK_FP32] = 10000;
    p.v[GPK_L1] = p.v[GPK_LOCAL] = p.v[GPK_CONST] = 100;
    p.v[GPK_GATOM_SPREAD] = 10;
    p.v[GPK_GATOM_SAME] = 1;
    p.v[GPK_LATOM_SPREAD] = 50;
    p.v[GPK_LATOM_SAME] = 5;
    p.v[GPK_LAUNCH] = 5;
    p.v[GPK_WARP_NS] = 10;
    return p;
}

#define TOL 1e-9 /* the model is closed-form: the times below are exact */

START_TEST(memory_bound) {
    gp_profile p = round_profile();
    gp_counts c = {.dram_bytes = 1e9, .l1_lines = 1e7, .launches = 1};
    gp_kernel k;
    gp_predict_kernel(&c, &p, &k);
    /* 1e9 B / 1e12 B/s = 1 ms; the lines 1e7 / 1e11 = 0.1 ms hide under it */
    ck_assert_int_eq(k.limit, GPT_MEMORY);
    ck_assert_double_eq_tol(k.t[GPT_MEMORY], 1e-3, TOL);
    ck_assert_double_eq_tol(k.total_s, 1e-3 + 5e-6, TOL);
}
END_TEST

START_TEST(compute_bound) {
    gp_profile p = round_profile();
    gp_counts c = {.dram_bytes = 1e9, .flops = 1e11, .l1_lines = 1e8, .launches = 1};
    gp_kernel k;
    gp_predict_kernel(&c, &p, &k);
    /* 1e11 / 1e13 = 10 ms of arithmetic plus 1 ms of loads issued by the same SMs */
    ck_assert_int_eq(k.limit, GPT_COMPUTE);
    ck_assert_double_eq_tol(k.total_s, 10e-3 + 1e-3 + 5e-6, TOL);
}
END_TEST

START_TEST(atomic_bound) {
    gp_profile p = round_profile();
    gp_counts c = {.dram_bytes = 1e6, .gatomic_same = 1e7, .gatomic_spread = 1e7, .launches = 1};
    gp_kernel k;
    gp_predict_kernel(&c, &p, &k);
    /* 1e7 on one address at 1e9/s = 10 ms, plus 1e7 spread at 1e10/s = 1 ms */
    ck_assert_int_eq(k.limit, GPT_GATOMIC);
    ck_assert_double_eq_tol(k.total_s, 11e-3 + 5e-6, TOL);
}
END_TEST

START_TEST(bank_bound) {
    gp_profile p = round_profile();
    gp_counts c = {.dram_bytes = 1e9, .local_passes = 1e9, .launches = 2};
    gp_kernel k;
    gp_predict_kernel(&c, &p, &k);
    /* 1e9 passes at 1e11/s = 10 ms against 1 ms of memory; two launches */
    ck_assert_int_eq(k.limit, GPT_LOCAL);
    ck_assert_double_eq_tol(k.total_s, 10e-3 + 10e-6, TOL);
    /* 1e8 requests, 10-way conflicts: with a conflicted pass rate of 200 G/s
     * the 9e8 extra passes take 4.5 ms, the first passes 1 ms */
    c.local_requests = 1e8;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_double_eq_tol(k.total_s, 10e-3 + 10e-6, TOL); /* no conflicted rate: all at 100 G/s */
    p.v[GPK_LOCAL_CONFLICT] = 200;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_double_eq_tol(k.t[GPT_LOCAL], 1e-3 + 4.5e-3, TOL);
    ck_assert_double_eq_tol(k.total_s, 5.5e-3 + 10e-6, TOL);
}
END_TEST

/* One-line requests (a warp with one working lane) at their own rate:
 * 1e9 lines at 100 G/s take 10 ms, but 1e9 requests at 50 G/s take 20 ms. */
START_TEST(one_line_requests) {
    gp_profile p = round_profile();
    gp_counts c = {.l1_lines = 1e9, .l1_requests = 1e9, .launches = 1};
    gp_kernel k;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_double_eq_tol(k.t[GPT_L1], 10e-3, TOL); /* no request rate: the lines */
    p.v[GPK_L1_REQUESTS] = 50;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_int_eq(k.limit, GPT_L1);
    ck_assert_double_eq_tol(k.t[GPT_L1], 20e-3, TOL);
    gp_prediction pr;
    memset(&pr, 0, sizeof pr);
    pr.n = 1;
    pr.k[0] = k;
    pr.limit = GPT_L1;
    char why[160];
    gp_limit_text(&pr, &p, why, sizeof why);
    ck_assert_msg(strstr(why, "1.00 G requests at 50.0 G/s") != NULL, "%s", why);
    c.l1_lines = 1e10; /* 32 lines a request: the lines take longer */
    gp_predict_kernel(&c, &p, &pr.k[0]);
    gp_limit_text(&pr, &p, why, sizeof why);
    ck_assert_msg(strstr(why, "10.0 G lines at 100 G/s") != NULL, "%s", why);
}
END_TEST

START_TEST(latency_bound) {
    gp_profile p = round_profile();
    /* one warp making 1e6 requests one after another: 1e6 x 10 ns = 10 ms,
     * though the whole GPU would serve its 1e6 lines in 10 us */
    gp_counts c = {.l1_lines = 1e6, .warp_requests = 1e6, .launches = 1};
    gp_kernel k;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_int_eq(k.limit, GPT_LATENCY);
    ck_assert_double_eq_tol(k.total_s, 10e-3 + 5e-6, TOL);
}
END_TEST

START_TEST(dram_chain) {
    gp_profile p = round_profile();
    p.compute_units = 2; /* 128 resident warps */
    p.v[GPK_DRAM_NS] = 100;
    /* 1e6 DRAM loads over 64 warps, each waiting for its loads one at a time:
     * 15625 x 100 ns = 1.5625 ms, though the bytes (32 MB) take 32 us */
    gp_counts c = {.dram_bytes = 32e6, .l1_lines = 1e6, .dram_waits = 1e6, .warps = 64, .group_warps = 4,
                   .launches = 1};
    gp_kernel k;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_int_eq(k.limit, GPT_LATENCY);
    ck_assert_double_eq_tol(k.t[GPT_LATENCY], 1.5625e-3, TOL);
    /* more warps than the device holds: 128 at a time, whatever the launch */
    c.warps = 1000;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_double_eq_tol(k.t[GPT_LATENCY], 1e6 * 100e-9 / 128, TOL);
    /* a host that launches at most 1 work-group of 4 warps a compute unit: 8 warps, each doing more */
    c.groups_per_cu = 1;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_double_eq_tol(k.t[GPT_LATENCY], 1e6 * 100e-9 / 8, TOL);
    /* a profile without the DRAM latency: no such term, the bytes set the pace */
    p.v[GPK_DRAM_NS] = 0;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_int_eq(k.limit, GPT_MEMORY);
    ck_assert_double_eq_tol(k.t[GPT_LATENCY], 0, TOL);
}
END_TEST

START_TEST(unrolled_loads_wait_once) {
    /* a load on line 7 the compiler issued 4 times together (a loop unrolled 4 times), one on line 9 it did not */
    gm_access acc[2] = {
        {.line = 7, .space = GM_GLOBAL, .kind = GM_LOAD, .execs = 64, .items = 64, .warps = 2, .requests = 64,
         .useful = 1024, .sectors = 64, .lines = 64},
        {.line = 9, .space = GM_GLOBAL, .kind = GM_LOAD, .execs = 64, .items = 64, .warps = 2, .requests = 8,
         .useful = 1024, .sectors = 32, .lines = 8},
    };
    gm_kernel k = {.name = "histogram", .global = {64, 1, 1}, .local = {64, 1, 1}, .launches = 1, .acc = acc, .n_acc = 2};
    gpumodel_report rep = {.status = GM_OK, .kernels = &k, .n_kernels = 1};
    ptx_access pa[2] = {{.line = 7, .op = PTX_LOAD, .space = PTX_GLOBAL, .count = 4},
                        {.line = 9, .op = PTX_LOAD, .space = PTX_GLOBAL, .count = 1}};
    ptx_kernel pk = {.name = "histogram", .acc = pa, .n = 2};
    ptx_report ptx = {.kernels = &pk, .n = 1};
    gp_note_compiled(&rep, &ptx);
    ck_assert_int_eq(acc[0].compiled_loads, 4);
    ck_assert_int_eq(acc[1].compiled_loads, 1);
    /* the problem's own bytes are all the loads read: every request goes to DRAM; 64 / 4 + 8 waits */
    gp_scale s = {.items = 1, .loop = 1, .data = 1, .ideal_bytes = 2048};
    gp_counts c;
    gp_counts_of(&k, &s, &c);
    ck_assert_double_eq_tol(c.dram_waits, 16 + 8, TOL);
    ck_assert_double_eq_tol(c.warps, 2, TOL);
    /* loads that read 4 times the problem's bytes: three quarters come from the caches */
    s.ideal_bytes = 512;
    gp_counts_of(&k, &s, &c);
    ck_assert_double_eq_tol(c.dram_waits, 24 * 0.25, TOL);
    /* a kernel the compiled code does not name: nothing known, no waits */
    snprintf(pk.name, sizeof pk.name, "other");
    gp_note_compiled(&rep, &ptx);
    gp_counts_of(&k, &s, &c);
    ck_assert_int_eq(acc[0].compiled_loads, 0);
    ck_assert_double_eq_tol(c.dram_waits, 0, TOL);
}
END_TEST

START_TEST(split_vectors_are_requests_each) {
    /* line 7: a vload4 from a float pointer, compiled to four 4-byte loads; line 9: a float4 read from
     * __constant memory, compiled to one 16-byte load; line 11: a float4 store compiled to four */
    gm_access acc[3] = {
        {.line = 7, .space = GM_GLOBAL, .kind = GM_LOAD, .width_max = 16, .execs = 64, .items = 64, .warps = 2,
         .requests = 2, .useful = 1024, .sectors = 32, .lines = 8},
        {.line = 9, .space = GM_CONSTANT, .kind = GM_LOAD, .width_max = 16, .execs = 64, .items = 64, .warps = 2,
         .requests = 2, .distinct_sum = 64, .lines = 64},
        {.line = 11, .space = GM_GLOBAL, .kind = GM_STORE, .width_max = 16, .execs = 64, .items = 64, .warps = 2,
         .requests = 2, .useful = 1024, .sectors = 32, .lines = 8},
    };
    gm_kernel k = {.name = "histogram", .global = {64, 1, 1}, .local = {64, 1, 1}, .launches = 1, .acc = acc, .n_acc = 3};
    gpumodel_report rep = {.status = GM_OK, .kernels = &k, .n_kernels = 1};
    gp_scale s = {.items = 1, .loop = 1, .data = 1, .ideal_bytes = 2048};
    gp_counts before, after;
    gp_counts_of(&k, &s, &before);
    ptx_access pa[3] = {{.line = 7, .op = PTX_LOAD, .space = PTX_GLOBAL, .bytes = 4, .count = 4},
                        {.line = 9, .op = PTX_LOAD, .space = PTX_CONST, .bytes = 16, .count = 1},
                        {.line = 11, .op = PTX_STORE, .space = PTX_GLOBAL, .bytes = 4, .count = 4}};
    ptx_kernel pk = {.name = "histogram", .acc = pa, .n = 3};
    ptx_report ptx = {.kernels = &pk, .n = 1};
    gp_note_compiled(&rep, &ptx);
    ck_assert_int_eq(acc[0].compiled_split, 4);
    ck_assert_int_eq(acc[1].compiled_split, 1);
    ck_assert_int_eq(acc[2].compiled_split, 4);
    gp_counts_of(&k, &s, &after);
    /* four requests for each one, over the same lines each time; the bytes from DRAM the same */
    ck_assert_double_eq_tol(before.l1_requests, 4, TOL);
    ck_assert_double_eq_tol(after.l1_requests, 16, TOL);
    ck_assert_double_eq_tol(after.l1_lines, 4 * before.l1_lines, TOL);
    ck_assert_double_eq_tol(before.warp_requests, 3, TOL); /* a request a warp on each line */
    ck_assert_double_eq_tol(after.warp_requests, 4 + 1 + 4, TOL);
    ck_assert_double_eq_tol(after.dram_bytes, before.dram_bytes, TOL);
    ck_assert_double_eq_tol(after.constant_reads, before.constant_reads, TOL);
    /* the four loads of one vload4 wait once */
    ck_assert_double_eq_tol(after.dram_waits, 2, TOL);
    /* the same vector compiled whole: one request each; the constant one in pieces: 4 times the addresses */
    pa[0].bytes = 16;
    pa[0].count = 1;
    pa[1].bytes = 4;
    pa[1].count = 4;
    gp_note_compiled(&rep, &ptx);
    ck_assert_int_eq(acc[0].compiled_split, 1);
    ck_assert_int_eq(acc[1].compiled_split, 4);
    gp_counts_of(&k, &s, &after);
    ck_assert_double_eq_tol(after.l1_requests, 2 + 8, TOL);
    ck_assert_double_eq_tol(after.constant_reads, 4 * before.constant_reads, TOL);
    ck_assert_double_eq_tol(after.constant_lines, 4 * before.constant_lines, TOL);
}
END_TEST

START_TEST(compiled_instructions_are_issued) {
    /* a loop body of 12 instructions for one global load a work-item and iteration (line 7, 16 times) */
    gm_access acc[1] = {{.line = 7, .space = GM_GLOBAL, .kind = GM_LOAD, .width_max = 4, .execs = 1024, .items = 64,
                         .warps = 2, .requests = 32, .useful = 4096, .sectors = 128, .lines = 32}};
    gm_kernel k = {.name = "histogram", .global = {64, 1, 1}, .local = {64, 1, 1}, .launches = 1, .acc = acc, .n_acc = 1};
    gpumodel_report rep = {.status = GM_OK, .kernels = &k, .n_kernels = 1};
    ptx_access pa[1] = {{.line = 7, .op = PTX_LOAD, .space = PTX_GLOBAL, .bytes = 4, .count = 1, .block_share = 12}};
    ptx_kernel pk = {.name = "histogram", .acc = pa, .n = 1};
    ptx_report ptx = {.kernels = &pk, .n = 1};
    gp_scale s = {.items = 1, .loop = 1, .data = 1, .ideal_bytes = 4096, .flops = 100};
    gp_counts c;
    gp_counts_of(&k, &s, &c);
    ck_assert_double_eq_tol(c.warp_instructions, 0, TOL); /* not compiled: not known */
    gp_note_compiled(&rep, &ptx);
    ck_assert_double_eq_tol(acc[0].compiled_instr, 12, TOL);
    gp_counts_of(&k, &s, &c);
    ck_assert_double_eq_tol(c.warp_instructions, 32 * 12, TOL); /* each request a warp issuing the body */
    /* at a peak of 64 flops a ns: 32 lanes x 2 flops a warp instruction, one a ns */
    gp_profile p = {0};
    p.v[GPK_FP32] = 64;
    p.v[GPK_COPY] = 1e6;
    p.v[GPK_L1] = 1e6;
    c.flops = 100;
    gp_kernel out;
    gp_predict_kernel(&c, &p, &out);
    ck_assert_double_eq_tol(out.t[GPT_COMPUTE], 384e-9, 1e-12);
    ck_assert_int_eq(out.limit, GPT_COMPUTE);
    /* the issue of all instructions, loads among them, beside the memory pipes, not after them */
    p.v[GPK_L1] = 32.0 / 300e-9 / 1e9; /* the lines take 300 ns */
    gp_predict_kernel(&c, &p, &out);
    ck_assert_double_eq_tol(out.total_s, 384e-9, 1e-12);
    c.warp_instructions = 0; /* flops only: the arithmetic after the loads */
    gp_predict_kernel(&c, &p, &out);
    ck_assert_double_eq_tol(out.total_s, 300e-9 + 100 / 64e9, 1e-12);
}
END_TEST

START_TEST(scattered_stores) {
    /* a transpose's column writes: 4 bytes of each of 32 sectors a request (28 sectors past the 4 its bytes
     * fill); a row's writes: 4 whole sectors, none scattered */
    gm_access acc[2] = {
        {.line = 3, .space = GM_GLOBAL, .kind = GM_STORE, .execs = 64, .items = 64, .warps = 2, .requests = 2,
         .useful = 256, .sectors = 64, .lines = 64},
        {.line = 4, .space = GM_GLOBAL, .kind = GM_STORE, .execs = 64, .items = 64, .warps = 2, .requests = 2,
         .useful = 256, .sectors = 8, .lines = 2},
    };
    gm_kernel k = {.name = "transpose", .global = {64, 1, 1}, .local = {64, 1, 1}, .launches = 1, .acc = acc, .n_acc = 2};
    gp_scale s = {.items = 1e6, .loop = 1, .data = 1e6, .ideal_bytes = 512e6};
    gp_counts c;
    gp_counts_of(&k, &s, &c);
    ck_assert_double_eq_tol(c.scattered_sectors, 56e6, 1e-3);
    gp_profile p = round_profile();
    p.v[GPK_SCATTER] = 10; /* 1e10 sectors/s: 5.6 ms, against 0.5 ms for the bytes */
    gp_kernel out;
    gp_predict_kernel(&c, &p, &out);
    ck_assert_int_eq(out.limit, GPT_MEMORY);
    ck_assert_double_eq_tol(out.t[GPT_MEMORY], c.dram_bytes / 1e12 + 5.6e-3, TOL);
    gp_prediction pr = {.n = 1, .limit = GPT_MEMORY};
    pr.k[0] = out;
    char why[160];
    gp_limit_text(&pr, &p, why, sizeof why);
    ck_assert_msg(strstr(why, "56.0 M sectors of scattered stores at 10.0 G/s") != NULL, "%s", why);
    /* a profile without the figure: the bytes alone */
    p.v[GPK_SCATTER] = 0;
    gp_predict_kernel(&c, &p, &out);
    ck_assert_double_eq_tol(out.t[GPT_MEMORY], c.dram_bytes / 1e12, TOL);
}
END_TEST

START_TEST(local_atomics_and_launch) {
    gp_profile p = round_profile();
    /* 1e6 requests, all 32 lanes on one word: 1e6 / 5e9 = 200 us */
    gp_counts c = {.latomic_spread = 1e6, .latomic_same = 1e6, .launches = 1};
    gp_kernel k;
    gp_predict_kernel(&c, &p, &k);
    ck_assert_int_eq(k.limit, GPT_LATOMIC);
    ck_assert_double_eq_tol(k.t[GPT_LATOMIC], 200e-6, TOL);
    gp_counts tiny = {.dram_bytes = 1000, .launches = 10};
    gp_predict_kernel(&tiny, &p, &k);
    ck_assert_int_eq(k.limit, GPT_LAUNCH);
    ck_assert_double_eq_tol(k.total_s, 50e-6 + 1e-9, TOL);
}
END_TEST

/* A plugin report: an uncoalesced load (32 sectors a request, 4 useful bytes
 * of each), a 32-way conflicted local store and a global atomic of 32 lanes
 * on one address; 64 work-items, once each. */
static const char *const synthetic =
    "kernel k 1 64 1 1 64 1 1 0.001\n"
    "inst 10 5 global load 4 4 64 64 256 2 2 64 64 256 0 0 64 32 0 0 0\n"
    "inst 11 5 local store 4 4 64 64 256 2 2 64 0 0 64 32 64 32 0 0 0\n"
    "inst 12 5 global atomic 4 4 64 64 256 2 2 64 2 256 0 0 2 1 64 32 0\n"
    "end\n";

START_TEST(counts_from_a_report) {
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    char err[256];
    ck_assert_msg(gpumodel_parse(synthetic, &rep, err, sizeof err) == 0, "%s", err);
    gp_scale s = {.items = 1, .loop = 1};
    gp_counts c;
    gp_counts_of(&rep.kernels[0], &s, &c);
    /* 64 sectors, 1/8 used: 64/4 + (64 - 256/32) x 3/4 = 16 + 42 = 58 lines */
    ck_assert_double_eq_tol(c.l1_lines, 58, 1e-9);
    ck_assert_double_eq_tol(c.local_passes, 64, 1e-9);  /* 2 requests, 32 passes each */
    ck_assert_double_eq_tol(c.gatomic_same, 64, 1e-9);  /* contention 32: every operation collides */
    ck_assert_double_eq_tol(c.gatomic_spread, 0, 1e-9);
    ck_assert_double_eq_tol(c.dram_bytes, 512, 1e-9);   /* the useful bytes of the load and the atomic */
    ck_assert_double_eq_tol(c.warp_requests, 3, 1e-9);  /* one request per warp of each instruction */
    s.items = 10;
    gp_counts_of(&rep.kernels[0], &s, &c);
    ck_assert_double_eq_tol(c.local_passes, 640, 1e-9);
    gpumodel_report_free(&rep);
}
END_TEST

/* The verdict's cost: a warp's 32 work-items updating one __local word cost
 * the same as 32 words on a profile that measured them alike (the H100's),
 * but a pass each in the cost, which names the line and its passes. */
static const char *const same_word =
    "kernel histogram 1 64 1 1 64 1 1 0.001\n"
    "inst 40 9 local atomic 4 4 64 64 256 2 2 64 0 0 2 1 2 1 64 32 0\n"
    "end\n";
static const char *const spread_words =
    "kernel histogram 1 64 1 1 64 1 1 0.001\n"
    "inst 40 9 local atomic 4 4 64 64 256 2 2 64 0 0 2 1 64 32 2 1 0\n"
    "end\n";

START_TEST(cost_counts_same_word_atomics_as_passes) {
    catalog cat;
    char err[512];
    ck_assert_msg(catalog_load(&cat, CLT_TEST_ROOT "/lessons", err, sizeof err) == 0, "%s", err);
    const lesson *l = catalog_by_number(&cat, 7);
    ck_assert_ptr_nonnull(l);
    gpumodel_report same, spread;
    memset(&same, 0, sizeof same);
    memset(&spread, 0, sizeof spread);
    ck_assert_msg(gpumodel_parse(same_word, &same, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(gpumodel_parse(spread_words, &spread, err, sizeof err) == 0, "%s", err);
    snprintf(same.size_text, sizeof same.size_text, "65536:equal");
    snprintf(spread.size_text, sizeof spread.size_text, "65536:equal");
    gp_profile p = round_profile();
    p.v[GPK_LATOM_SAME] = p.v[GPK_LATOM_SPREAD]; /* measured alike */
    gp_prediction a, b;
    ck_assert_int_eq(gp_predict(&same, l, "268435456:equal", &p, &a, err, sizeof err), 0);
    ck_assert_int_eq(gp_predict(&spread, l, "268435456:equal", &p, &b, err, sizeof err), 0);
    ck_assert_double_eq_tol(a.k[0].t[GPT_LATOMIC], b.k[0].t[GPT_LATOMIC], 1e-12);
    gm_cost cs, cp;
    ck_assert_int_eq(gm_cost_of(&same, l, &p, &cs, err, sizeof err), 0);
    ck_assert_int_eq(gm_cost_of(&spread, l, &p, &cp, err, sizeof err), 0);
    ck_assert_double_eq_tol(cs.term_s[GPT_LATOMIC] / cp.term_s[GPT_LATOMIC], 32, 1e-9);
    ck_assert_double_eq_tol(cs.per_request[GPT_LATOMIC], 32, 1e-9);
    ck_assert_double_eq_tol(cp.per_request[GPT_LATOMIC], 1, 1e-9);
    ck_assert_int_eq(gm_cost_worst_term(&cs, &cp), GPT_LATOMIC);
    ck_assert_int_eq(cs.line[GPT_LATOMIC], 40);
    ck_assert_str_eq(cs.kernel[GPT_LATOMIC], "histogram");
    /* the figures round-trip through their file */
    gm_cost_figures f = {.cost = cp}, back;
    snprintf(f.size, sizeof f.size, "65536:equal");
    char path[] = "/tmp/cltutor-cost-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(gm_cost_save(path, &f, "07-bank-conflicts"), 0);
    ck_assert_msg(gm_cost_load(path, &back, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(back.size, "65536:equal");
    ck_assert_double_eq_tol(back.cost.total_s / cp.total_s, 1, 1e-5);
    ck_assert_double_eq_tol(back.cost.per_request[GPT_LATOMIC], 1, 1e-9);
    FILE *bad = fopen(path, "w");
    fputs("[cost]\nsize = 1\ntotal_s = fast\n", bad);
    fclose(bad);
    ck_assert_int_eq(gm_cost_load(path, &back, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, path));
    unlink(path);
    gpumodel_report_free(&same);
    gpumodel_report_free(&spread);
    catalog_free(&cat);
}
END_TEST

START_TEST(work_model_scales_surf) {
    catalog cat;
    char err[512];
    ck_assert_msg(catalog_load(&cat, CLT_TEST_ROOT "/lessons", err, sizeof err) == 0, "%s", err);
    const lesson *l = catalog_by_number(&cat, 2);
    ck_assert_ptr_nonnull(l);
    gp_scale s;
    ck_assert_msg(gp_scale_for(l, "1024x16x64", "262144x256x64", &s, err, sizeof err) == 0, "%s", err);
    /* ideal bytes 4(n f + c f + c): 266304 -> 67175424; flops 3 n c f: x4096 */
    ck_assert_double_eq_tol(s.items, 67175424.0 / 266304.0, 1e-9);
    ck_assert_double_eq_tol(s.items * s.loop, 4096, 1e-9);
    /* chapter 1 runs one work-item whatever the size: its loop takes all the growth */
    const lesson *serial = catalog_by_number(&cat, 1);
    ck_assert_msg(gp_scale_for(serial, "1024x16x64", "16384x256x64", &s, err, sizeof err) == 0, "%s", err);
    ck_assert_double_eq_tol(s.items, 1, 1e-12);
    ck_assert_double_eq_tol(s.loop, 256, 1e-9);
    ck_assert_int_eq(gp_scale_for(l, "1024x16x64", "banana", &s, err, sizeof err), -1);
    char size[96];
    gp_target_size(l, "1024x16x64", size, sizeof size);
    ck_assert_str_eq(size, l->bench_size);
    catalog_free(&cat);
}
END_TEST

/* Chapter 9's host launches a work-group per row, per column and per tile:
 * the row scans' work inside a group stays as analysed (64 of a row's pixels
 * at 64x48 are one chunk as 8192 are a few), the global traffic follows the
 * pixels, and a kernel whose shape the file chooses keeps the plain scaling. */
START_TEST(work_groups_scale_integral) {
    catalog cat;
    char err[512];
    ck_assert_msg(catalog_load(&cat, CLT_TEST_ROOT "/lessons", err, sizeof err) == 0, "%s", err);
    const lesson *l = catalog_by_number(&cat, 9);
    ck_assert_ptr_nonnull(l);
    gp_scale s;
    ck_assert_msg(gp_scale_for(l, "64x48", "8192x8192", &s, err, sizeof err) == 0, "%s", err);
    ck_assert_double_eq_tol(s.data, 8192.0 * 8192 / (64 * 48), 1e-9);
    gp_scale k = s;
    gp_scale_kernel(l, "64x48", "8192x8192", "row_scan_bytes", NULL, 0, &k);
    ck_assert_double_eq_tol(k.groups, 8192.0 / 48, 1e-9);          /* a group per row */
    gp_scale_kernel(l, "64x48", "8192x8192", "row_scan", NULL, 0, &k);
    ck_assert_double_eq_tol(k.groups, 8192.0 / 64, 1e-9);          /* a group per column */
    gp_scale_kernel(l, "64x48", "8192x8192", "transpose", NULL, 0, &k);
    ck_assert_double_eq_tol(k.groups, 256.0 * 256 / (2 * 2), 1e-9); /* 32 x 32 tiles, 48 rows take 2 */
    gp_scale_kernel(l, "64x48", "8192x8192", "column_scan", NULL, 0, &k);
    ck_assert(k.groups == 0);                                       /* no answer: not known */
    const unsigned tile[2] = {1024, 16};                            /* column_tile's answer */
    gp_scale_kernel(l, "64x48", "8192x8192", "column_scan", tile, 2, &k);
    ck_assert_double_eq_tol(k.groups, 8.0 * 512 / 3, 1e-9);         /* 1 x 3 tiles -> 8 x 512 */
    ck_assert_double_eq_tol(k.arg[0], 8192.0 * 8192 / (64 * 48), 1e-9); /* the image grows with the pixels */
    ck_assert_double_eq_tol(k.arg[2], 8.0 * 512 / 3, 1e-9);            /* its status words with the tiles */
    ck_assert_double_eq_tol(k.arg[3], 1, 1e-12);                       /* one counter */

    /* a local access in a loop grows with the groups, a global one with the pixels */
    gpumodel_report rep;
    memset(&rep, 0, sizeof rep);
    ck_assert_msg(gpumodel_parse(synthetic, &rep, err, sizeof err) == 0, "%s", err);
    gp_counts plain, grouped;
    gp_scale flat = {.items = 100, .loop = 10, .data = 1000};
    gp_counts_of(&rep.kernels[0], &flat, &plain);
    flat.groups = 5;
    gp_counts_of(&rep.kernels[0], &flat, &grouped);
    ck_assert_double_eq_tol(grouped.local_passes, 64 * 5, 1e-9);
    ck_assert_double_eq_tol(grouped.l1_lines, 58 * 1000, 1e-6);     /* no buffer known: the data */
    rep.kernels[0].acc[0].arg = 2;
    flat.arg[2] = 7;
    gp_counts_of(&rep.kernels[0], &flat, &grouped);
    ck_assert_double_eq_tol(grouped.l1_lines, 58 * 7, 1e-6);        /* its buffer's growth */
    ck_assert(plain.local_passes != grouped.local_passes);
    gpumodel_report_free(&rep);

    /* the histogram problems have no launch geometry: their scaling is unchanged */
    const lesson *h = catalog_by_number(&cat, 5);
    ck_assert_msg(gp_scale_for(h, "1024x16x64", "262144x256x64", &s, err, sizeof err) == 0, "%s", err);
    k = s;
    gp_scale_kernel(h, "1024x16x64", "262144x256x64", "histogram", NULL, 0, &k);
    ck_assert(k.groups == 0);
    catalog_free(&cat);
}
END_TEST

/* Writes text to a fresh file; returns its path (static buffer per call site). */
static void write_profile(char *path, size_t len, const char *text) {
    snprintf(path, len, "/tmp/cltutor-profile-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

#define GOOD_LIMITS                                                                                 \
    "[limits]\ncopy_gb_per_s = 3000\nfp32_gflop_per_s = 60000\nl1_lines_g_per_s = 261\n"           \
    "local_passes_g_per_s = 261\nconstant_reads_g_per_s = 261\nglobal_atomic_spread_g_per_s = 130\n" \
    "global_atomic_same_g_per_s = 2\nlocal_atomic_spread_g_per_s = 130\nlocal_atomic_same_g_per_s = 8\n" \
    "launch_us = 2\nwarp_request_ns = 17\n"

START_TEST(profile_errors_name_file_and_line) {
    char path[64], err[1400], want[128];
    gp_profile p;
    write_profile(path, sizeof path, "[device]\nname = X\n" GOOD_LIMITS "[source]\ncopy_gb_per_s = estimate: a guess\n");
    ck_assert_msg(gp_profile_load(path, &p, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(p.name, "X");
    ck_assert(p.estimated[GPK_COPY] && !p.estimated[GPK_FP32]);
    unlink(path);
    /* each broken profile and what its message says, after "PATH" where LINE >= 0 */
    static const struct {
        const char *text;
        int line;        /* the line named ("PATH:LINE: ..."), -1: not named */
        const char *say; /* the rest of the message */
    } broken[] = {
        {"[device]\nname = X\n[limits]\ncopy_gb_per_s = fast\n", 4, " copy_gb_per_s = 'fast'"}, /* not a number */
        {"[limits]\ncopy_gb_per_s = 1\nwarp_speed = 9\n", 3, " unknown key 'warp_speed'"},
        {"[gpu]\nname = X\n", 2, " unknown section [gpu]"},           /* named at its first key */
        {"[limits]\nthis is not a setting\n", 2, ""},
        {"[limits]\ncopy_gb_per_s = 1\n", -1, "no fp32_gflop_per_s in [limits]"}, /* a figure missing */
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        write_profile(path, sizeof path, broken[i].text);
        ck_assert_int_eq(gp_profile_load(path, &p, err, sizeof err), -1);
        if (broken[i].line >= 0) snprintf(want, sizeof want, "%s:%d:%s", path, broken[i].line, broken[i].say);
        else snprintf(want, sizeof want, "%s", broken[i].say);
        ck_assert_msg(strstr(err, want), "case %zu: %s", i, err);
        unlink(path);
    }
    ck_assert_int_eq(gp_profile_load("/nonexistent/x.ini", &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "/nonexistent/x.ini"), "%s", err);
}
END_TEST

START_TEST(shipped_profiles_load_and_round_trip) {
    const char *names[] = {"nvidia-h100", "nvidia-h200"};
    for (int i = 0; i < 2; i++) {
        char path[1200], err[1400];
        gp_profile p, q;
        ck_assert_msg(gp_profile_find(CLT_TEST_ROOT, names[i], path, sizeof path, err, sizeof err) == 0, "%s", err);
        ck_assert_msg(gp_profile_load(path, &p, err, sizeof err) == 0, "%s", err);
        /* measured on the GPU by `cltutor bench --profile` (bench/profile-and-validate.sh) */
        ck_assert(p.compute_units == 132 && p.v[GPK_COPY] > 2000 && !p.estimated[GPK_COPY] && !p.estimated[GPK_L1]);
        char tmp[64];
        write_profile(tmp, sizeof tmp, "");
        ck_assert_msg(gp_profile_write(tmp, &p, err, sizeof err) == 0, "%s", err);
        ck_assert_msg(gp_profile_load(tmp, &q, err, sizeof err) == 0, "%s", err);
        for (int k = 0; k < GP_N_KEYS; k++) ck_assert_double_eq_tol(p.v[k], q.v[k], 1e-3 * p.v[k] + 1e-12);
        unlink(tmp);
    }
    /* the H200's profile predicts with the compiled code (it has dram_latency_ns), the H100's and the
     * default (the H100) not, nor a profile that is not there */
    ck_assert(gp_uses_compiled(CLT_TEST_ROOT, "nvidia-h200"));
    ck_assert(!gp_uses_compiled(CLT_TEST_ROOT, "nvidia-h100"));
    ck_assert(!gp_uses_compiled(CLT_TEST_ROOT, NULL));
    ck_assert(!gp_uses_compiled(CLT_TEST_ROOT, "amd-mi300"));
    char path[1200], err[1400];
    ck_assert_int_eq(gp_profile_find(CLT_TEST_ROOT, "amd-mi300", path, sizeof path, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "amd-mi300.ini"), "%s", err);
}
END_TEST

START_TEST(lines_say_prediction_and_accuracy) {
    gp_profile p = round_profile();
    gp_prediction pr;
    memset(&pr, 0, sizeof pr);
    pr.n = 1;
    snprintf(pr.size, sizeof pr.size, "1M");
    gp_counts c = {.dram_bytes = 1e9, .launches = 1};
    gp_predict_kernel(&c, &p, &pr.k[0]);
    pr.total_s = pr.k[0].total_s;
    pr.limit = pr.k[0].limit;
    char **lines;
    int n;
    ck_assert_int_eq(gp_lines(&pr, NULL, NULL, &p, &lines, &n), 0);
    ck_assert_int_ge(n, 2);
    ck_assert_msg(strstr(lines[0], "Predicted on Round GPU (a model, not a measurement)"), "%s", lines[0]);
    ck_assert_msg(strstr(lines[0], "memory-bound: 1.00 GB at 1.00 TB/s"), "%s", lines[0]);
    ck_assert_msg(strstr(lines[n - 1], "not yet validated"), "%s", lines[n - 1]);
    gp_lines_free(lines, n);
    p.validated[0] = '2';
    p.kernels = 34;
    p.within_2x = 30;
    p.geomean_error = 0.23;
    ck_assert_int_eq(gp_lines(&pr, NULL, NULL, &p, &lines, &n), 0);
    ck_assert_msg(strstr(lines[n - 1], "measured error 23% (geometric mean over 34 kernels, 30 within 2x"), "%s", lines[n - 1]);
    gp_lines_free(lines, n);
    cJSON *j = gp_json(&pr, NULL, &p);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "is_prediction")));
    ck_assert_str_eq(cJSON_GetObjectItem(j, "limit")->valuestring, "memory");
    cJSON_Delete(j);
}
END_TEST

Suite *predict_suite(void) {
    Suite *s = suite_create("predict");
    TCase *tc = tcase_create("predict");
    tcase_add_test(tc, memory_bound);
    tcase_add_test(tc, compute_bound);
    tcase_add_test(tc, atomic_bound);
    tcase_add_test(tc, bank_bound);
    tcase_add_test(tc, latency_bound);
    tcase_add_test(tc, dram_chain);
    tcase_add_test(tc, unrolled_loads_wait_once);
    tcase_add_test(tc, scattered_stores);
    tcase_add_test(tc, one_line_requests);
    tcase_add_test(tc, local_atomics_and_launch);
    tcase_add_test(tc, counts_from_a_report);
    tcase_add_test(tc, work_model_scales_surf);
    tcase_add_test(tc, cost_counts_same_word_atomics_as_passes);
    tcase_add_test(tc, work_groups_scale_integral);
    tcase_add_test(tc, profile_errors_name_file_and_line);
    tcase_add_test(tc, shipped_profiles_load_and_round_trip);
    tcase_add_test(tc, lines_say_prediction_and_accuracy);
    tcase_add_test(tc, split_vectors_are_requests_each);
    tcase_add_test(tc, compiled_instructions_are_issued);
    suite_add_tcase(s, tc);
    return s;
}
