/* Chapter 3 (GPU2), honest variant: 4-way unrolled feature loop with
 * private partial sums on the transposed layout.
 *
 * Different from the obvious solution: the descriptor index comes from
 * get_group_id * get_local_size + get_local_id (no constant work-group
 * size); the feature loop reads four rows per step (k, k+1, k+2, k+3 of
 * column d, each read coalesced across the work-items) into four
 * independent private sums, with a scalar tail for feature counts that are
 * not a multiple of 4. Row offsets are kept in a running index rather than
 * multiplied out each step.
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int d = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0)
                  + get_global_offset(0));
    if (d >= n_descriptors)
        return;

    const int n = n_descriptors;
    const int f4 = n_features & ~3;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *y = centroids + c * n_features;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        int k = 0;
        int row = d;                          /* k * n + d */
        for (; k < f4; k += 4, row += 4 * n) {
            float t0 = descriptors[row]         - y[k + 0];
            float t1 = descriptors[row + n]     - y[k + 1];
            float t2 = descriptors[row + 2 * n] - y[k + 2];
            float t3 = descriptors[row + 3 * n] - y[k + 3];
            s0 += t0 * t0;
            s1 += t1 * t1;
            s2 += t2 * t2;
            s3 += t3 * t3;
        }
        for (; k < n_features; k++, row += n) {
            float t = descriptors[row] - y[k];
            s0 += t * t;
        }
        float dist = (s0 + s1) + (s2 + s3);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
