/* launchcheck — the answers of a timed run's launches: each launch had
 * inputs of its own (problem_launch_seed), so a kernel cannot give an
 * earlier answer again, and each answer checked is compared with a golden
 * answer computed here, in the trusted parent (or recalled from the cache
 * of run results). */
#ifndef CLT_LAUNCHCHECK_H
#define CLT_LAUNCHCHECK_H
#include <stddef.h>

#include "run/engine.h"
#include "run/sandbox.h"

/* The answers of the timed launches in sr (their hashes, and their outputs
 * where the worker kept them, out_len bytes each): every one when
 * rq->check_all_launches (grading), else a few drawn at random. Returns
 * ENG_PASS, or ENG_WRONG with a headline and message. */
engine_status launchcheck_timed(const engine_request *rq, const problem_ops *ops, const prob_size *size,
                                const sandbox_result *sr, size_t out_len, char *head, size_t hlen, char *msg,
                                size_t mlen);

/* Computes ahead, and keeps in the cache of run results, the golden answers
 * a timed run of rq (grading's: every launch checked) will ask for: its
 * checked launch's and its first `launches` timed ones', so that the run,
 * made later alone on the machine, recalls them instead of computing them
 * one after another. Nothing when the cache of run results is off. */
void launchcheck_keep_goldens(const engine_request *rq, int launches);

#endif
