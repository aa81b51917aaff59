/* Chapter 4 exercise (GPU3): float4 vectorisation.
 *
 * This is chapter 3's kernel with the feature loop already reshaped to take
 * four features per step (n_features is always a multiple of 4). The two
 * float4 loads are left to you: until they are written, every distance is
 * the same and every descriptor lands in bin 0.
 * Run it with:  cltutor run 4
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
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);
        for (int k = 0; k < n_features; k += 4) {
            /* TODO 1: features k, k+1, k+2 and k+3 of descriptor d, as one
             * float4. They sit in four rows of the transposed array. */
            float4 x = (float4)(0.0f);

            /* TODO 2: the same four features of the centroid, which are
             * side by side in memory and start on a 16-byte boundary: one
             * 16-byte read (mind the unit of its index). */
            float4 y = (float4)(0.0f);

            float4 diff = x - y;
            acc += diff * diff;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
