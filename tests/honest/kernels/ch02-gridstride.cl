/* Chapter 2 (GPU1), honest variant: grid-stride loop.
 *
 * Different from the obvious solution: instead of "d = get_global_id(0);
 * if (d >= n) return;", the work-item walks descriptors d, d + global size,
 * d + 2 * global size, ... so the kernel is correct for any launch size and
 * makes no assumption about how the host rounded it. With the chapter's
 * per-descriptor launch every work-item still gets at most one descriptor.
 * The descriptor row and each centroid row are addressed through pointers,
 * and the vote is atomic_add(..., 1) rather than atomic_inc.
 * The grid-stride idiom is the one popularised by NVIDIA's CUDA samples and
 * "CUDA Pro Tip: write flexible kernels with grid-stride loops".
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
        __global const float *x = descriptors + d * n_features;
        int nearest = 0;
        float best = FLT_MAX;
        for (int c = 0; c < n_centroids; c++) {
            __global const float *y = centroids + c * n_features;
            float dist = 0.0f;
            for (int k = 0; k < n_features; k++) {
                float diff = x[k] - y[k];
                dist += diff * diff;
            }
            if (dist < best) {
                best = dist;
                nearest = c;
            }
        }
        atomic_add(&histogram[nearest], 1);
    }
}
