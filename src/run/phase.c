/* phase — the names and labels of the steps of a run. */
#include "run/phase.h"

#include <string.h>

static const struct {
    const char *name, *label;
} phase_table[PHASE_COUNT] = {
#define PHASE_ROW(e, name, label) [e] = {name, label},
    RUN_PHASES(PHASE_ROW)
#undef PHASE_ROW
};

const char *run_phase_name(run_phase p) { return (unsigned)p < PHASE_COUNT ? phase_table[p].name : "?"; }

const char *run_phase_label(run_phase p) { return (unsigned)p < PHASE_COUNT ? phase_table[p].label : "?"; }

int run_phase_parse(const char *name) {
    for (int i = 0; i < PHASE_COUNT; i++)
        if (!strcmp(name, phase_table[i].name)) return i;
    return -1;
}

int run_phase_runs_kernel(run_phase p) { return p == PHASE_RUN || p == PHASE_TIME; }
