/* Deliberately slow (chapter 3, for the time prediction's validation):
 * chapter 3's reference with the descriptors handed out in a swizzled
 * order. In each block of 1024 work-items, work-item 32 a + b takes
 * descriptor 32 b + a, so the 32 work-items of a warp read addresses 128
 * bytes apart: 32 sectors a request instead of 4. Correct, just slow. */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int g = get_global_id(0);
    int block = g - g % 1024;
    int d = block + 1024 <= n_descriptors ? block + (g % 32) * 32 + (g % 1024) / 32 : g;
    if (d >= n_descriptors)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float diff = descriptors[k * n_descriptors + d] - centroid[k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
