/* Chapter 6, honest variant: the centroids are read from __constant memory
 * as float4 elements, and the staged descriptors are kept in a float4 tile
 * laid out quad-major.
 *
 * Instead of vload4 on a __constant float pointer, the __constant buffer is
 * viewed as __constant float4 * (every centroid starts on a 16-byte boundary,
 * since the course's feature counts are multiples of 4), so centroid c's
 * quad q is one 16-byte element that every work-item of the warp reads at
 * the same moment: a broadcast. The local tile holds float4s: row q is quad
 * q of the group's LOCAL_SIZE descriptors, so each work-item reads one
 * float4 per quad (a quarter of the chapter-5 local load instructions), and
 * neighbouring work-items read neighbouring 16-byte words (conflict-free).
 * Each work-item assembles its own quads from four coalesced reads of the
 * transposed global array.
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif
#define NQ (LOCAL_FEATURES / 4)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float4 tile[NQ * LOCAL_SIZE];   /* 16 x 64 x 16 B = 16 KiB */

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);
    int nq = n_staged / 4;
    int row_quads = n_features / 4;           /* float4s per centroid */
    __constant float4 *cent4 = (__constant float4 *)centroids;

    for (int q = 0; q < nq; q++) {
        float4 v = (float4)(0.0f);
        if (in_range)
            v = (float4)(descriptors[(4 * q + 0) * n_descriptors + d],
                         descriptors[(4 * q + 1) * n_descriptors + d],
                         descriptors[(4 * q + 2) * n_descriptors + d],
                         descriptors[(4 * q + 3) * n_descriptors + d]);
        tile[q * LOCAL_SIZE + lid] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __constant float4 *centroid = cent4 + c * row_quads;
        float4 acc = (float4)(0.0f);
        int q = 0;
        for (; q < nq; q++) {
            float4 diff = tile[q * LOCAL_SIZE + lid] - centroid[q];
            acc += diff * diff;
        }
        /* descriptors longer than LOCAL_FEATURES: the rest from global memory */
        for (; q < row_quads; q++) {
            int k = 4 * q;
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - centroid[q];
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
