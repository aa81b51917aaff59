/* Chapter 4 (GPU3), honest variant: a __global float4 pointer instead of
 * vload4.
 *
 * Different from the obvious solution: the centroid row is read through a
 * "__global const float4 *" (legal here: n_features is a multiple of 4 and
 * the buffer starts aligned, so every centroid row starts on a 16-byte
 * boundary), indexed in float4 units; the descriptor's four rows are reached
 * through a column pointer that moves down four rows per step instead of
 * recomputing (k + i) * n_descriptors + d; the index uses get_local_size
 * rather than a constant work-group size. Reading vector data through
 * float4-typed buffers is the style of the AMD APP SDK samples (NBody and
 * others declare their buffers as __global float4 *).
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

    const int n = n_descriptors;
    const int f4 = n_features / 4;               /* float4s per centroid */
    __global const float4 *y = (__global const float4 *)centroids;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++, y += f4) {
        __global const float *x = descriptors + d;
        float4 acc = (float4)(0.0f);
        for (int j = 0; j < f4; j++, x += 4 * n) {
            float4 xv = (float4)(x[0], x[n], x[2 * n], x[3 * n]);
            float4 diff = xv - y[j];
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
