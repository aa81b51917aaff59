/* stats — summary statistics of timing samples. */
#define _DEFAULT_SOURCE
#include "base/stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

stats_summary stats_summarise(const double *samples, int n) {
    stats_summary s = {0};
    s.n = n;
    if (n <= 0) return s;
    double *sorted = malloc(sizeof(double) * (size_t)n);
    if (!sorted) return s;
    memcpy(sorted, samples, sizeof(double) * (size_t)n);
    qsort(sorted, (size_t)n, sizeof(double), cmp_double);
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = (n % 2) ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += sorted[i];
    s.mean = sum / n;
    double var = 0;
    for (int i = 0; i < n; i++) var += (sorted[i] - s.mean) * (sorted[i] - s.mean);
    s.stddev = n > 1 ? sqrt(var / (n - 1)) : 0;
    s.rse = (n > 1 && s.mean > 0) ? s.stddev / sqrt((double)n) / s.mean : 1.0;
    free(sorted);
    return s;
}
