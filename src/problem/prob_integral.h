/* prob_integral — the integral image of a W x H uint8 image into uint32, modulo 2^32 (chapter 9). */
#ifndef CLT_PROB_INTEGRAL_H
#define CLT_PROB_INTEGRAL_H
#include "problem/problem.h"

extern const problem_ops prob_integral_ops;

/* The generated image (width x height bytes, row-major) and, after golden,
 * the expected integral image: I(x, y) = sum of pixels (x', y') with x' <= x
 * and y' <= y, modulo 2^32. */
const uint8_t *integral_image(const prob_instance *pi);
const uint32_t *integral_expected(const prob_instance *pi);

#endif
