/* stats — summary statistics of timing samples. */
#ifndef CLT_STATS_H
#define CLT_STATS_H

typedef struct {
    int n;
    double median, min, max, mean, stddev;
    double rse; /* relative standard error of the mean, 0..1 */
} stats_summary;

/* Summarises n samples (the array is not modified). */
stats_summary stats_summarise(const double *samples, int n);

#endif
