/* testutil — helpers the problem suites share. */
#ifndef CLT_TESTUTIL_H
#define CLT_TESTUTIL_H
#include <stdint.h>
#include "problem/problem.h"

/* A lesson of the given problem, with up to two parameters (NULL keys skipped). */
const lesson *test_lesson(lesson *l, const char *id, const char *problem, const char *key1, const char *value1,
                          const char *key2, const char *value2);

/* Parses spec, generates the inputs and computes the golden reference;
 * fails the test on any error. */
prob_instance *test_instance(const problem_ops *ops, const lesson *l, const char *spec, uint64_t seed);

#endif
