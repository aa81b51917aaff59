/* Chapter 3 (GPU2), honest variant: register blocking over centroids on
 * the transposed layout.
 *
 * Different from the obvious solution: the centroid loop is blocked by 4.
 * At each feature step the work-group reads one row of the transposed array
 * (coalesced: work-item d reads column d) and each work-item compares that
 * one value with four centroids (broadcast loads), so each descriptor value
 * is fetched n_centroids / 4 times instead of n_centroids times. Leftover
 * centroids go through a plain loop; candidates are compared in centroid
 * order with a strict <, so ties resolve to the lowest index as in the
 * serial loop, and each distance is summed in serial feature order.
 * Register tiling as in Volkov and Demmel's GEMM work (2008) and k-NN
 * distance kernels (Garcia et al., CUDA k-NN), one descriptor per
 * work-item.
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

    int nearest = 0;
    float best = FLT_MAX;
    int c = 0;
    for (; c + 4 <= n_centroids; c += 4) {
        __global const float *y0 = centroids + c * n_features;
        __global const float *y1 = y0 + n_features;
        __global const float *y2 = y1 + n_features;
        __global const float *y3 = y2 + n_features;
        float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float xk = descriptors[k * n_descriptors + d];
            float t0 = xk - y0[k];
            float t1 = xk - y1[k];
            float t2 = xk - y2[k];
            float t3 = xk - y3[k];
            d0 += t0 * t0;
            d1 += t1 * t1;
            d2 += t2 * t2;
            d3 += t3 * t3;
        }
        if (d0 < best) { best = d0; nearest = c; }
        if (d1 < best) { best = d1; nearest = c + 1; }
        if (d2 < best) { best = d2; nearest = c + 2; }
        if (d3 < best) { best = d3; nearest = c + 3; }
    }
    for (; c < n_centroids; c++) {
        __global const float *y = centroids + c * n_features;
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float t = descriptors[k * n_descriptors + d] - y[k];
            dist += t * t;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
