/* Find the bug (chapter 3): a grid-stride loop over the descriptors on the
 * transposed layout, measuring two centroids at each step of the loop over
 * the centroids. Its histogram is right for 1,024 or 4,096 descriptors and
 * wrong for 1,000: votes go to the wrong bins, though every descriptor still
 * votes once. Why? Fix it, then:  cltutor check 3
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int stride = get_global_size(0);   /* work-items in the launch, a multiple of the group size */
    int row = stride;                  /* one float in each row for every work-item */

    for (int d = get_global_id(0); d < n_descriptors; d += stride) {
        __global const float *column = descriptors + d;   /* feature 0 of descriptor d */
        int nearest = 0;
        float best = FLT_MAX;
        for (int c = 0; c < n_centroids; c += 2) {
            /* centroids c and c + 1; for an odd count the last one is measured twice */
            __global const float *p = centroids + c * n_features;
            __global const float *q = c + 1 < n_centroids ? p + n_features : p;
            float2 acc = (float2)(0.0f);
            for (int k = 0; k < n_features; k++) {
                float x = column[k * row];   /* neighbouring work-items, neighbouring floats */
                float2 e = (float2)(x - p[k], x - q[k]);
                acc += e * e;
            }
            if (acc.x < best) {
                best = acc.x;
                nearest = c;
            }
            if (acc.y < best) {
                best = acc.y;
                nearest = c + 1;
            }
        }
        atomic_inc(&histogram[nearest]);
    }
}
