/* Chapter 4 (GPU3), honest variant: float4 with register blocking over
 * centroids.
 *
 * Different from the obvious solution: the centroid loop is blocked by 4.
 * The descriptor's four features are gathered once per step (four
 * coalesced row reads) and compared with four centroids, each read in one
 * 16-byte load through a float4 pointer, into four float4 accumulators.
 * Per block of four centroids and four features that is 4 descriptor
 * loads + 4 centroid loads
 * instead of 4 x (4 + 1). Leftover centroids use the plain float4 loop;
 * candidates are compared in centroid order with a strict <, so ties go to
 * the lowest index. Register tiling after Volkov and Demmel (2008) and
 * k-NN distance kernels (Garcia et al.), one descriptor per work-item.
 * (A vload4 from a float pointer would stay four 4-byte loads on NVIDIA;
 * every centroid starts on a 16-byte boundary, so the cast is sound.)
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors)
        return;

    const int n = n_descriptors;
    int nearest = 0;
    float best = FLT_MAX;
    int c = 0;
    for (; c + 4 <= n_centroids; c += 4) {
        __global const float *y0 = centroids + c * n_features;
        __global const float *y1 = y0 + n_features;
        __global const float *y2 = y1 + n_features;
        __global const float *y3 = y2 + n_features;
        float4 a0 = (float4)(0.0f), a1 = (float4)(0.0f);
        float4 a2 = (float4)(0.0f), a3 = (float4)(0.0f);
        for (int k = 0; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n + d],
                                descriptors[(k + 1) * n + d],
                                descriptors[(k + 2) * n + d],
                                descriptors[(k + 3) * n + d]);
            float4 t0 = x - ((__global const float4 *)y0)[k / 4];
            float4 t1 = x - ((__global const float4 *)y1)[k / 4];
            float4 t2 = x - ((__global const float4 *)y2)[k / 4];
            float4 t3 = x - ((__global const float4 *)y3)[k / 4];
            a0 += t0 * t0;
            a1 += t1 * t1;
            a2 += t2 * t2;
            a3 += t3 * t3;
        }
        float d0 = (a0.x + a0.y) + (a0.z + a0.w);
        float d1 = (a1.x + a1.y) + (a1.z + a1.w);
        float d2 = (a2.x + a2.y) + (a2.z + a2.w);
        float d3 = (a3.x + a3.y) + (a3.z + a3.w);
        if (d0 < best) { best = d0; nearest = c; }
        if (d1 < best) { best = d1; nearest = c + 1; }
        if (d2 < best) { best = d2; nearest = c + 2; }
        if (d3 < best) { best = d3; nearest = c + 3; }
    }
    for (; c < n_centroids; c++) {
        __global const float *y = centroids + c * n_features;
        float4 acc = (float4)(0.0f);
        for (int k = 0; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n + d],
                                descriptors[(k + 1) * n + d],
                                descriptors[(k + 2) * n + d],
                                descriptors[(k + 3) * n + d]);
            float4 t = x - ((__global const float4 *)y)[k / 4];
            acc += t * t;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
