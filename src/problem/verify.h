/* verify — comparison results shared by every problem: what differs, expected vs actual. */
#ifndef CLT_VERIFY_H
#define CLT_VERIFY_H
#include <stddef.h>
#include <stdint.h>
#include "text/tmsg.h"

#define VR_MAX_ENTRIES 256

typedef struct {
    long index;
    long long expected;   /* what the golden reference computed */
    long long actual;     /* what the kernel wrote */
    long long lo, hi;     /* accepted range (lo == hi == expected when exact) */
    int wrong;            /* 0 for a neighbour shown for context */
} vr_entry;

typedef struct {
    int ok;
    char what[16];             /* "bin" or "element" */
    long n_checked;            /* how many values were compared */
    long n_wrong;              /* how many differ */
    long first_wrong;          /* index of the first, or -1 */
    long long expected_total;  /* sum of expected values */
    long long actual_total;    /* sum of the kernel's values */
    int counts;                /* the values count inputs (a histogram): the totals are worth showing */
    const char *total_name;    /* verify_summarise's total_name (a string that lives on), for writing it again */
    long near_ties;            /* inputs whose answer may go either way within rounding */
    char summary[512];         /* one or two sentences for the learner */
    vr_entry entries[VR_MAX_ENTRIES];
    int n_entries;
} verify_report;

void verify_init(verify_report *vr, const char *what, long n_checked);

/* Notes a wrong value: the entries keep the VR_MAX_ENTRIES largest
 * differences, so that the most telling rows (the bin that gained the lost
 * votes) are never cut; verify_summarise puts them largest first. */
void verify_add_wrong(verify_report *vr, long index, long long expected, long long actual, long long lo,
                      long long hi);

/* Exact comparison of unsigned 32-bit arrays: lists the differing indices,
 * largest differences first. */
void verify_exact_u32(verify_report *vr, const uint32_t *expected, const uint32_t *actual, long n);

/* Exact comparison listing the first wrong element with neighbours either side
 * (for scans and images, where one wrong value makes all later ones wrong). */
void verify_first_wrong_u32(verify_report *vr, const uint32_t *expected, const uint32_t *actual,
                            long n, int context);

/* Writes the standard summary sentence for a finished report. total_name
 * names the sum of a histogram's values ("sum of all bins"), which then
 * marks the values as counts; NULL for values whose sum means nothing. */
void verify_summarise(verify_report *vr, const char *total_name);
/* The summary written again in the language now chosen (after a switch). */
void verify_resummarise(verify_report *vr);
/* The summary as a piece of m (tmsg.h), to be written in any language later. */
const char *verify_summary_piece(const verify_report *vr, tmsg *m);

#endif
