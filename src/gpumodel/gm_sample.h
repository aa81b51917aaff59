/* gm_sample — a kernel analysed at a hidden test's full size by simulating
 * only some of its work-groups: the text the simulator runs, with each
 * kernel returning at once in the work-groups left out. */
#ifndef CLT_GM_SAMPLE_H
#define CLT_GM_SAMPLE_H
#include <stddef.h>
#include <stdint.h>

/* Which work-groups of each launch run: `groups` of them (0: all), spread
 * evenly from an offset drawn from `draw`, or the first ones in order
 * (`in_order`: for kernels whose groups wait on earlier ones, a look-back). */
typedef struct {
    unsigned groups;
    int in_order;
    uint64_t draw;
} gm_sampling;

/* Parses a lesson's `scale_analysis` value, "GROUPS [in_order]"; 0, or -1
 * with err. An empty value leaves s->groups 0. */
int gm_sampling_parse(const char *value, gm_sampling *s, char *err, size_t errlen);

/* At most this many work-groups are simulated in the simulator's quick mode
 * (OCLGRIND_QUICK: only the first and the last work-group of a launch run,
 * and the rest cost nothing; without it every left-out work-item is still
 * made and returns, about 6 us of CPU each). */
#define GM_SAMPLE_QUICK_MAX 2

/* Whether the sampling runs in the simulator's quick mode. */
int gm_sample_quick(const gm_sampling *s);

/* src with `if (<this work-group is left out>) return;` after the opening
 * brace of every __kernel function, on the same line (line numbers stay).
 * Returns a new string, or NULL with err where a kernel's header cannot be
 * found in plain text (one written through a macro). In quick mode the text
 * starts with the helpers that permute the work-group ids (lines that
 * `#line 1` leaves out of the kernel's numbering). */
char *gm_sample_source(const char *src, const gm_sampling *s, char *err, size_t errlen);

/* How many times the launch's figures count: its work-groups over those run. */
double gm_sample_scale(const gm_sampling *s, unsigned long long total_groups);

#endif
