/* Chapter 5, honest variant: a cooperative copy with a stride loop over the
 * group's real descriptors only, and get_local_size(0) in place of the
 * LOCAL_SIZE constant for every stride and row length.
 *
 * The chapter's copy has work-item lid fill column lid of the tile, zeros
 * included for work-items past the end. Here the group copies, row by row,
 * only the n_here descriptors that exist: element i of the flat loop is
 * feature i / n_here of descriptor i % n_here, and the work-items walk i
 * with a stride of get_local_size(0). In a full group this is the same
 * coalesced pattern; in the last, partial group every work-item still has
 * real data to copy, and no zero is stored. A work-item may therefore load
 * an element that another one reads: the barrier is what makes it correct,
 * not just good manners. The tile keeps the chapter's feature-major layout
 * (conflict-free reads), with the run-time row length get_local_size(0);
 * LOCAL_SIZE only sizes the array. (Measured on an H200 at 262144x256:
 * as fast as the chapter's kernel; forcing #pragma unroll 2 on the distance
 * loop made it 10% slower, so the loop is left to the compiler.)
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];

    int lsize = (int)get_local_size(0);
    int lid = (int)get_local_id(0);
    int d = (int)get_global_id(0);
    int d0 = d - lid;                                   /* the group's first descriptor */
    int n_here = clamp(n_descriptors - d0, 0, lsize);   /* descriptors in this group */
    int n_staged = min(n_features, LOCAL_FEATURES);

    for (int i = lid; i < n_staged * n_here; i += lsize) {
        int k = i / n_here;
        int j = i - k * n_here;
        tile[k * lsize + j] = descriptors[k * n_descriptors + d0 + j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= n_here)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            float4 x = (float4)(tile[(k + 0) * lsize + lid],
                                tile[(k + 1) * lsize + lid],
                                tile[(k + 2) * lsize + lid],
                                tile[(k + 3) * lsize + lid]);
            float4 diff = x - vload4(k / 4, centroid);
            acc += diff * diff;
        }
        for (; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - vload4(k / 4, centroid);
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
