/* Chapter 2 (GPU1), honest variant: register blocking over centroids.
 *
 * Different from the obvious solution: the centroid loop is blocked by 4.
 * Each feature of the work-item's descriptor is loaded once per block and
 * compared with four centroids at once, so the descriptor is read
 * n_centroids / 4 times instead of n_centroids times, and the four
 * distances are four independent dependency chains. Leftover centroids
 * (n_centroids not a multiple of 4) go through a plain loop. The four
 * candidates are compared in centroid order with a strict <, so the lowest
 * index wins ties exactly as in the serial loop, and each distance is summed
 * in the same feature order as the serial loop.
 * The idea is the register tiling of distance / matrix-multiply kernels
 * (Volkov and Demmel, "Benchmarking GPUs to tune dense linear algebra",
 * 2008; the same blocking appears in k-NN distance kernels such as Garcia
 * et al.'s CUDA k-NN), reduced here to one descriptor per work-item.
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

    __global const float *x = descriptors + d * n_features;
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
            float xk = x[k];
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
            float t = x[k] - y[k];
            dist += t * t;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
