/* test_peers — bench's peers: the helper script's JSON lines read, its failures named */
#include "suites.h"

#include "run/peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A stand-in for bench/peers.py: a python3 script with the given body. */
static void write_script(char *path, size_t len, const char *body) {
    snprintf(path, len, "/tmp/cltutor-peers-%d.py", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(body, f);
    fclose(f);
}

START_TEST(reads_each_peer) {
    char path[256], err[256] = "";
    write_script(path, sizeof path,
                 "import sys\n"
                 "assert sys.argv[1:7] == ['--budget', '0.5', '--bytes', '1024', '--bytes-inputs', 'uniform,equal'], "
                 "sys.argv\n"
                 "print('{\"peer\": \"torch.bincount\", \"problem\": \"bytes\", \"size\": \"1024\", \"input\": \"equal\", "
                 "\"status\": \"pass\", "
                 "\"median_ms\": 1.5, \"runs\": 9, \"version\": \"torch 9\"}')\n"
                 "print('not json')\n"
                 "print('{\"status\": \"pass\"}')\n"
                 "print('{\"peer\": \"torch.cumsum\", \"problem\": \"scan\", \"size\": \"8\", \"status\": \"absent\", "
                 "\"message\": \"no CUDA\"}')\n"
                 "print('{\"peer\": \"x\", \"problem\": \"integral\", \"size\": \"8x8\", \"status\": \"pass\"}')\n");
    peers_sizes sz = {.bytes = "1024", .bytes_inputs = "uniform,equal"};
    bench_peer p[PEERS_MAX];
    int n = peers_measure(path, &sz, 0.5, 30, p, PEERS_MAX, err, sizeof err);
    unlink(path);
    ck_assert_msg(n == 3, "read %d peers (%s)", n, err);
    ck_assert_str_eq(p[0].name, "torch.bincount");
    ck_assert_str_eq(p[0].input, "equal");
    ck_assert_str_eq(p[1].input, "");
    ck_assert_int_eq(p[0].status, PEER_PASS);
    ck_assert_double_eq_tol(p[0].median_ms, 1.5, 1e-9);
    ck_assert_int_eq(p[0].runs, 9);
    ck_assert_str_eq(p[1].message, "no CUDA");
    ck_assert_int_eq(p[1].status, PEER_ABSENT);
    ck_assert_int_eq(p[2].status, PEER_ERROR); /* "pass" without a time is not a pass */
}
END_TEST

START_TEST(names_failures) {
    char path[256], err[256] = "";
    bench_peer p[PEERS_MAX];
    peers_sizes sz = {0};
    ck_assert_int_eq(peers_measure("/nonexistent/peers.py", &sz, 1, 5, p, PEERS_MAX, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/peers.py"));
    write_script(path, sizeof path, "import sys\nsys.exit(3)\n");
    ck_assert_int_eq(peers_measure(path, &sz, 1, 5, p, PEERS_MAX, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "exit 3") != NULL, "%s", err);
    write_script(path, sizeof path, "import time\ntime.sleep(30)\n");
    ck_assert_int_eq(peers_measure(path, &sz, 1, 0.5, p, PEERS_MAX, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "stopped") != NULL, "%s", err);
    unlink(path);
}
END_TEST

Suite *peers_suite(void) {
    Suite *s = suite_create("peers");
    TCase *tc = tcase_create("peers");
    tcase_add_test(tc, reads_each_peer);
    tcase_add_test(tc, names_failures);
    suite_add_tcase(s, tc);
    return s;
}
