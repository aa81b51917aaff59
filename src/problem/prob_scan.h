/* prob_scan — exclusive prefix sum of N uint32 values, modulo 2^32 (chapter 8). */
#ifndef CLT_PROB_SCAN_H
#define CLT_PROB_SCAN_H
#include "problem/problem.h"

extern const problem_ops prob_scan_ops;

/* The generated input (n values) and, after golden, the expected scan. */
const uint32_t *scan_input(const prob_instance *pi);
const uint32_t *scan_expected(const prob_instance *pi);

/* Elements one work-group scans: local_size x elements_per_work_item. */
size_t scan_block_size(const lesson *l);

#endif
