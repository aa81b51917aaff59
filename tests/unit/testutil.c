/* testutil — helpers the problem suites share. */
#include "testutil.h"
#include "suites.h"

#include <stdio.h>
#include <string.h>

static void add_param(lesson *l, const char *key, const char *value) {
    if (!key) return;
    lesson_param *p = &l->params[l->n_params++];
    snprintf(p->key, sizeof p->key, "%s", key);
    snprintf(p->value, sizeof p->value, "%s", value);
}

const lesson *test_lesson(lesson *l, const char *id, const char *problem, const char *key1, const char *value1,
                          const char *key2, const char *value2) {
    memset(l, 0, sizeof *l);
    snprintf(l->id, sizeof l->id, "%s", id);
    snprintf(l->problem, sizeof l->problem, "%s", problem);
    add_param(l, key1, value1);
    add_param(l, key2, value2);
    return l;
}

prob_instance *test_instance(const problem_ops *ops, const lesson *l, const char *spec, uint64_t seed) {
    prob_size s;
    char err[256];
    ck_assert_msg(problem_parse_size(ops, spec, &s, err, sizeof err) == 0, "%s: %s", spec, err);
    prob_instance *pi = ops->create(l, &s, seed, err, sizeof err);
    ck_assert_msg(pi != NULL, "%s: %s", spec, err);
    ops->golden(pi);
    return pi;
}
