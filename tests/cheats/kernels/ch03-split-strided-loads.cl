/* Cheat (chapter 3, dilution by source line): uncoalesced reads of the
 * transposed descriptors, spread over 32 source lines. Work-item g handles
 * descriptor d = g * P mod n (P the first odd number from 33 up that shares
 * no factor with n, as in ch03-strided.cl, so every descriptor is handled
 * once and the answer is right): in every row of the transposed array
 * neighbouring work-items read floats P apart, a sector each. The loop over
 * the features is unrolled by hand, 32 statements on 32 lines, each reading
 * one feature (a macro would put them all on one line), with a loop of one
 * feature a step for what is left (nothing at 64 features). Each unrolled
 * step also runs one dummy statement, DUMMY_PER_STEP times, that makes a
 * coalesced load (row k + j % 32, column g), kept by a condition the
 * compiler cannot prove false.
 * Hole it tries: a coalescing check that skips the lines carrying less than
 * some share of the traffic: each strided line carries 1/32 of the strided
 * loads (about 3%), the one dummy line with 64 loads a step carries twice
 * as many sectors as all 32 strided lines together, so it is the only line
 * left to judge. With DUMMY_PER_STEP 1 (one dummy load a step) every line
 * is under the share and the check found "no global loads of that kind".
 * Expected: coalesced_loads fails if it also weighs the lines under the
 * share (or sums lines of the same pattern); cost fails either way (every
 * descriptor read moves a 32-byte sector for 4 useful bytes). Seen
 * 2026-11-27: coalesced_loads = 1 is met (with 64 dummy loads a step; with
 * 1 it failed as "saw no global loads"), cost = 2.64 fails. */
#ifndef DUMMY_PER_STEP
#define DUMMY_PER_STEP 64
#endif

__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    const int g = get_global_id(0);
    const int n = n_descriptors;
    if (g >= n)
        return;
    int p = 33;                  /* the first odd stride >= 33 that shares no factor with n */
    for (;; p += 2) {
        int a = p, b = n;
        while (b) { int t = a % b; a = b; b = t; }
        if (a == 1) break;
    }
    const int d = (int)(((long)g * p) % n);
    __global const float *col = descriptors + d;     /* column d: feature k at col[k * n] */

    int nearest = 0;
    float best = FLT_MAX;
    uint pad = 0xffffffffu;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float dist = 0.0f, diff;
        int k = 0;
        for (; k + 32 <= n_features; k += 32) {
            diff = col[(k +  0) * n] - centroid[k +  0]; dist += diff * diff;
            diff = col[(k +  1) * n] - centroid[k +  1]; dist += diff * diff;
            diff = col[(k +  2) * n] - centroid[k +  2]; dist += diff * diff;
            diff = col[(k +  3) * n] - centroid[k +  3]; dist += diff * diff;
            diff = col[(k +  4) * n] - centroid[k +  4]; dist += diff * diff;
            diff = col[(k +  5) * n] - centroid[k +  5]; dist += diff * diff;
            diff = col[(k +  6) * n] - centroid[k +  6]; dist += diff * diff;
            diff = col[(k +  7) * n] - centroid[k +  7]; dist += diff * diff;
            diff = col[(k +  8) * n] - centroid[k +  8]; dist += diff * diff;
            diff = col[(k +  9) * n] - centroid[k +  9]; dist += diff * diff;
            diff = col[(k + 10) * n] - centroid[k + 10]; dist += diff * diff;
            diff = col[(k + 11) * n] - centroid[k + 11]; dist += diff * diff;
            diff = col[(k + 12) * n] - centroid[k + 12]; dist += diff * diff;
            diff = col[(k + 13) * n] - centroid[k + 13]; dist += diff * diff;
            diff = col[(k + 14) * n] - centroid[k + 14]; dist += diff * diff;
            diff = col[(k + 15) * n] - centroid[k + 15]; dist += diff * diff;
            diff = col[(k + 16) * n] - centroid[k + 16]; dist += diff * diff;
            diff = col[(k + 17) * n] - centroid[k + 17]; dist += diff * diff;
            diff = col[(k + 18) * n] - centroid[k + 18]; dist += diff * diff;
            diff = col[(k + 19) * n] - centroid[k + 19]; dist += diff * diff;
            diff = col[(k + 20) * n] - centroid[k + 20]; dist += diff * diff;
            diff = col[(k + 21) * n] - centroid[k + 21]; dist += diff * diff;
            diff = col[(k + 22) * n] - centroid[k + 22]; dist += diff * diff;
            diff = col[(k + 23) * n] - centroid[k + 23]; dist += diff * diff;
            diff = col[(k + 24) * n] - centroid[k + 24]; dist += diff * diff;
            diff = col[(k + 25) * n] - centroid[k + 25]; dist += diff * diff;
            diff = col[(k + 26) * n] - centroid[k + 26]; dist += diff * diff;
            diff = col[(k + 27) * n] - centroid[k + 27]; dist += diff * diff;
            diff = col[(k + 28) * n] - centroid[k + 28]; dist += diff * diff;
            diff = col[(k + 29) * n] - centroid[k + 29]; dist += diff * diff;
            diff = col[(k + 30) * n] - centroid[k + 30]; dist += diff * diff;
            diff = col[(k + 31) * n] - centroid[k + 31]; dist += diff * diff;
            for (int j = 0; j < DUMMY_PER_STEP; j++) pad &= as_uint(descriptors[(k + (j & 31)) * n + g]);
        }
        for (; k < n_features; k++) {
            diff = col[k * n] - centroid[k]; dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    /* an AND of finite floats never has an all-ones exponent */
    if ((pad & 0x7f800000u) == 0x7f800000u && n_features >= 32)
        nearest = 0;
    atomic_inc(&histogram[nearest]);
}
