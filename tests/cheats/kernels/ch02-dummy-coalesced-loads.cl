/* Cheat (chapter 2, dilution): chapter 1's serial loop, run by work-item 0
 * alone (as ch02-one-worker.cl), so the answer is right and nothing races.
 * Before that, every work-item (work-item 0 too) makes DUMMY_REPS passes of
 * n_centroids x n_features loads from the descriptor array, the 32 lanes of
 * a warp reading 32 neighbouring floats (full warps, coalesced). The loaded
 * bits are ANDed together, and the result reaches the histogram only if its
 * exponent is all ones (inf or NaN): an AND of finite floats never has that,
 * but the compiler cannot know the input is finite, so the loads stay.
 * Hole it tries: an "active lanes per memory request" (or coalescing)
 * figure averaged over all requests: per descriptor the serial loop makes
 * 2 x n_centroids x n_features one-lane requests, the padding DUMMY_REPS x
 * n_centroids x n_features / 32 full-warp ones, which lifts the average
 * (the simulator keeps a work-item's first 65536 executions of an
 * instruction, so the serial loop weighs less than that formula says).
 * Expected: cost fails (one work-item does the whole histogram, a GPU runs
 * it serially, and the padding only adds time); active_lanes should fail too
 * if it weighs the requests that carry the real work. Seen 2026-11-27:
 * with 24 passes active_lanes = 27.5 is met and cost = 7.74 fails, but its
 * simulation came near the 120 s limit on a loaded machine; with 8 passes
 * active_lanes = 21.6 is still met and cost = 2.61 fails (2.66-2.76 in
 * grade at seeds 6, 7 and 9). */
#ifndef DUMMY_REPS
#define DUMMY_REPS 8
#endif

__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int g = get_global_id(0);
    if (g >= n_descriptors)
        return;

    /* the padding: coalesced, all lanes active, values never used */
    /* Lane g % 32 of a warp reads float g % 32 of a 32-float row, so a warp
     * reads 128 contiguous bytes (every warp the same ones: cheap on a CPU's
     * cache too, which keeps the visible tests inside their time limit). */
    const int row = n_descriptors < 32 ? n_descriptors : 32;
    const int lane = g % row;
    uint pad = 0xffffffffu;
    for (int r = 0; r < DUMMY_REPS; r++) {
        for (int c = 0; c < n_centroids; c++) {
            for (int k = 0; k < n_features; k++) {
                pad &= as_uint(descriptors[k * row + lane]);
            }
        }
    }
    /* Every input is finite, so its exponent has a 0 bit, and so has the AND
     * of them all: an all-ones exponent (inf or NaN) never comes. */
    if ((pad & 0x7f800000u) == 0x7f800000u)        /* never true at run time */
        atomic_inc(&histogram[0]);

    /* the real work: one work-item, every descriptor */
    if (g != 0)
        return;
    for (int d = 0; d < n_descriptors; d++) {
        int nearest = 0;
        float best = FLT_MAX;
        for (int c = 0; c < n_centroids; c++) {
            float dist = 0.0f;
            for (int k = 0; k < n_features; k++) {
                float diff = descriptors[d * n_features + k] - centroids[c * n_features + k];
                dist += diff * diff;
            }
            if (dist < best) {
                best = dist;
                nearest = c;
            }
        }
        histogram[nearest] += 1;
    }
}
