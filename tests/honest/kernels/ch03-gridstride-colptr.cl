/* Chapter 3 (GPU2), honest variant: grid-stride loop and a column pointer.
 *
 * Different from the obvious solution: the work-item walks its descriptors
 * with a grid-stride loop (d += global size; with the chapter's
 * per-descriptor launch that is one descriptor per work-item), and instead
 * of computing k * n_descriptors + d at every step it keeps a pointer to
 * column d of the transposed array and moves it down one row
 * (n_descriptors floats) per feature. At each step neighbouring work-items
 * still read neighbouring floats of the same row, so the loads coalesce.
 * The centroid is walked with its own pointer (a broadcast load).
 * Grid-stride idiom as in NVIDIA's CUDA samples / "CUDA Pro Tip: write
 * flexible kernels with grid-stride loops".
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    const int stride = (int)get_global_size(0);
    for (int d = (int)get_global_id(0); d < n_descriptors; d += stride) {
        int nearest = 0;
        float best = FLT_MAX;
        __global const float *y = centroids;
        for (int c = 0; c < n_centroids; c++) {
            __global const float *x = descriptors + d;   /* row 0, column d */
            float dist = 0.0f;
            for (int k = 0; k < n_features; k++) {
                float diff = *x - y[k];
                dist += diff * diff;
                x += n_descriptors;                      /* next row */
            }
            if (dist < best) {
                best = dist;
                nearest = c;
            }
            y += n_features;
        }
        atomic_inc(&histogram[nearest]);
    }
}
