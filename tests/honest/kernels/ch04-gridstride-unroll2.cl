/* Chapter 4 (GPU3), honest variant: grid-stride loop, feature loop unrolled
 * to two float4 steps with two accumulators.
 *
 * Different from the obvious solution: the work-item walks its descriptors
 * with a grid-stride loop (one descriptor each under the chapter's
 * per-descriptor launch); the feature loop takes eight features per
 * iteration as two float4 steps (two 16-byte loads of the centroid through
 * a float4 pointer, eight
 * coalesced row reads of the descriptor) into two independent float4
 * accumulators, with one float4 step left over when n_features is 4 modulo
 * 8. The accumulators are merged once per centroid. (A vload4 from a float
 * pointer would stay four 4-byte loads on NVIDIA; every centroid starts on a
 * 16-byte boundary, so the cast is sound.)
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    const int n = n_descriptors;
    const int stride = (int)get_global_size(0);
    const int f8 = n_features & ~7;
    for (int d = (int)get_global_id(0); d < n; d += stride) {
        int nearest = 0;
        float best = FLT_MAX;
        for (int c = 0; c < n_centroids; c++) {
            __global const float *y = centroids + c * n_features;
            float4 a0 = (float4)(0.0f), a1 = (float4)(0.0f);
            int k = 0;
            for (; k < f8; k += 8) {
                float4 x0 = (float4)(descriptors[(k + 0) * n + d],
                                     descriptors[(k + 1) * n + d],
                                     descriptors[(k + 2) * n + d],
                                     descriptors[(k + 3) * n + d]);
                float4 x1 = (float4)(descriptors[(k + 4) * n + d],
                                     descriptors[(k + 5) * n + d],
                                     descriptors[(k + 6) * n + d],
                                     descriptors[(k + 7) * n + d]);
                float4 t0 = x0 - ((__global const float4 *)y)[k / 4];
                float4 t1 = x1 - ((__global const float4 *)y)[k / 4 + 1];
                a0 += t0 * t0;
                a1 += t1 * t1;
            }
            if (k < n_features) {                /* n_features % 8 == 4 */
                float4 x0 = (float4)(descriptors[(k + 0) * n + d],
                                     descriptors[(k + 1) * n + d],
                                     descriptors[(k + 2) * n + d],
                                     descriptors[(k + 3) * n + d]);
                float4 t0 = x0 - ((__global const float4 *)y)[k / 4];
                a0 += t0 * t0;
            }
            float4 acc = a0 + a1;
            float dist = (acc.x + acc.y) + (acc.z + acc.w);
            if (dist < best) {
                best = dist;
                nearest = c;
            }
        }
        atomic_inc(&histogram[nearest]);
    }
}
