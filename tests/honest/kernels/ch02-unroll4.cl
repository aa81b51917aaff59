/* Chapter 2 (GPU1), honest variant: 4-way unrolled feature loop with
 * private partial sums.
 *
 * Different from the obvious solution: the descriptor index is built from
 * the group id, the queried work-group size (get_local_size, no constant 64)
 * and the local id; the feature loop takes four features per step into four
 * independent private sums (more instruction-level parallelism than one
 * dependent chain), with a scalar tail for feature counts that are not a
 * multiple of 4. Still one work-item per descriptor and one global atomic
 * vote each.
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

    __global const float *x = descriptors + d * n_features;
    const int f4 = n_features & ~3;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *y = centroids + c * n_features;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        int k = 0;
        for (; k < f4; k += 4) {
            float t0 = x[k + 0] - y[k + 0];
            float t1 = x[k + 1] - y[k + 1];
            float t2 = x[k + 2] - y[k + 2];
            float t3 = x[k + 3] - y[k + 3];
            s0 += t0 * t0;
            s1 += t1 * t1;
            s2 += t2 * t2;
            s3 += t3 * t3;
        }
        for (; k < n_features; k++) {
            float t = x[k] - y[k];
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
