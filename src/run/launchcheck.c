/* launchcheck — the answers of a timed run's launches, each on inputs of
 * its own, checked against golden answers (see launchcheck.h). */
#define _GNU_SOURCE
#include "run/launchcheck.h"
#include "run/runcache.h"
#include "run/worker.h"
#include "text/i18n.h"
#include "base/blob.h"
#include "base/rng.h"
#include "base/util.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The timed launches to check: every one, or LAUNCHCHECK_DRAWN of them
 * drawn where the worker cannot know which (each costs a golden run). */
#define LAUNCHCHECK_DRAWN 3

engine_status launchcheck_timed(const engine_request *rq, const problem_ops *ops, const prob_size *size,
                                const sandbox_result *sr, size_t out_len, char *head, size_t hlen, char *msg,
                                size_t mlen) {
    size_t hbytes = 0, obytes = 0;
    const uint64_t *hashes = blob_get(sr->blob, sr->blob_len, W_HASHES, 0, &hbytes);
    const unsigned char *outs = blob_get(sr->blob, sr->blob_len, W_OUTPUTS, 0, &obytes);
    int n = hashes ? (int)(hbytes / sizeof *hashes) : 0;
    if (n == 0 || (!outs && !ops->expected)) return ENG_PASS;
    int pick[LAUNCHCHECK_DRAWN], n_pick = 0;
    int all = rq->check_all_launches || n <= LAUNCHCHECK_DRAWN;
    rng_state r;
    rng_seed(&r, (uint64_t)(util_now() * 1e9) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&r);
    while (!all && n_pick < LAUNCHCHECK_DRAWN) {
        int i = (int)rng_below(&r, (uint64_t)n), seen = 0;
        for (int k = 0; k < n_pick; k++) seen |= pick[k] == i;
        if (!seen) pick[n_pick++] = i;
    }
    for (int k = 0; k < (all ? n : n_pick); k++) {
        int i = all ? k : pick[k];
        char err[256];
        prob_instance *pi = ops->create(rq->lesson, size, problem_launch_seed(rq->seed, i + 1), err, sizeof err);
        if (!pi) continue; /* no memory to check it: the first, checked launch stands */
        runcache_golden_answer(pi);
        int right = 1;
        if (outs && obytes == out_len * (size_t)n) {
            verify_report vr;
            memset(&vr, 0, sizeof vr);
            ops->verify(pi, outs + (size_t)i * out_len, out_len, &vr);
            right = vr.ok;
        } else {
            size_t elen = 0;
            const void *want = ops->expected(pi, &elen);
            right = want && elen == out_len && util_hash64(want, elen) == hashes[i];
        }
        ops->destroy(pi);
        if (!right) {
            util_errf(head, hlen, "%s", N_("Timed launch wrong"));
            if (rq->timing == ENGINE_TIMING_SERIES)
                util_errf(msg, mlen, _("After the timed series, instance %d of %d (inputs of its own, launched again "
                                       "and again) held a wrong answer, although the first, checked launch was "
                                       "right: a launch must give the same answer however often it runs. This run "
                                       "does not count."), i + 1, n);
            else
                util_errf(msg, mlen, _("Timed launch %d of %d, on inputs of its own, gave a wrong answer, although "
                                       "the first, checked launch was right. Every launch gets inputs it has not "
                                       "seen, so a kernel cannot give an earlier answer again: it must compute each "
                                       "one. This run does not count."), i + 1, n);
            return ENG_WRONG;
        }
    }
    return ENG_PASS;
}

void launchcheck_keep_goldens(const engine_request *rq, int launches) {
    const problem_ops *ops = rq->lesson ? problem_find(rq->lesson->problem) : NULL;
    prob_size size;
    char err[256], folder[PATH_MAX];
    if (runcache_folder(folder, sizeof folder) != 0) return; /* nowhere to keep them */
    if (!ops || problem_parse_size(ops, rq->size_spec ? rq->size_spec : rq->lesson->default_size, &size, err,
                                   sizeof err) != 0)
        return; /* the run itself says what is wrong */
    for (int i = 0; i <= launches; i++) {
        prob_instance *pi = ops->create(rq->lesson, &size, i ? problem_launch_seed(rq->seed, i) : rq->seed, err,
                                        sizeof err);
        if (!pi) return;
        runcache_golden_answer(pi);
        ops->destroy(pi);
    }
}
