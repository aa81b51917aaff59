/* Chapter 5, honest variant: stage the CENTROIDS in __local memory, not the
 * descriptors.
 *
 * Adapted from the tiling of GPU Gems 3, chapter 31 (Nyland, Harris, Prins,
 * "Fast N-Body Simulation with CUDA"): the group loads a tile of "bodies"
 * (here: centroids) into local memory cooperatively, waits at a barrier, then
 * every work-item walks the whole tile, all of them reading the same word at
 * the same time (a broadcast, no bank conflict), and the group waits again
 * before the next tile overwrites it.
 *
 * Each work-item keeps the first LOCAL_FEATURES features of its own
 * descriptor in private registers (a float4 array, loaded once from the
 * transposed global array with coalesced reads). A tile holds 16 KiB of
 * centroid features: 64 centroids of 64 features, more when they are
 * shorter. Features beyond LOCAL_FEATURES are read from global memory, as in
 * the chapter's kernel. Work-items past the end take part in every load and
 * every barrier and only skip the arithmetic and the vote.
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif
#define NQ (LOCAL_FEATURES / 4)      /* float4s of a descriptor kept in registers */
#define TILE_QUADS 1024              /* 1024 float4 = 16 KiB of centroid features */

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float4 ctile[TILE_QUADS];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);
    int nq = n_staged / 4;                        /* quads per staged centroid */
    int per_tile = TILE_QUADS / max(nq, 1);       /* centroids per tile */

    /* the descriptor's first features, in registers */
    float4 x[NQ];
#pragma unroll
    for (int q = 0; q < NQ; q++) {
        x[q] = (float4)(0.0f);
        if (in_range && q < nq)
            x[q] = (float4)(descriptors[(4 * q + 0) * n_descriptors + d],
                            descriptors[(4 * q + 1) * n_descriptors + d],
                            descriptors[(4 * q + 2) * n_descriptors + d],
                            descriptors[(4 * q + 3) * n_descriptors + d]);
    }

    int nearest = 0;
    float best = FLT_MAX;
    for (int c0 = 0; c0 < n_centroids; c0 += per_tile) {
        int nc = min(per_tile, n_centroids - c0);

        /* the previous tile must be finished by everyone before it is overwritten */
        barrier(CLK_LOCAL_MEM_FENCE);
        /* cooperative load: consecutive work-items, consecutive float4s */
        for (int i = lid; i < nc * nq; i += LOCAL_SIZE) {
            int c = i / nq;
            int q = i - c * nq;
            ctile[i] = vload4(q, centroids + (c0 + c) * n_features);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        if (in_range) {
            for (int c = 0; c < nc; c++) {
                __local const float4 *ct = ctile + c * nq;
                float4 acc = (float4)(0.0f);
#pragma unroll
                for (int q = 0; q < NQ; q++) {
                    if (q < nq) {
                        float4 diff = x[q] - ct[q];
                        acc += diff * diff;
                    }
                }
                /* descriptors longer than LOCAL_FEATURES: the rest from global memory */
                __global const float *centroid = centroids + (c0 + c) * n_features;
                for (int k = n_staged; k < n_features; k += 4) {
                    float4 xg = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                         descriptors[(k + 1) * n_descriptors + d],
                                         descriptors[(k + 2) * n_descriptors + d],
                                         descriptors[(k + 3) * n_descriptors + d]);
                    float4 diff = xg - vload4(k / 4, centroid);
                    acc += diff * diff;
                }
                float dist = (acc.x + acc.y) + (acc.z + acc.w);
                if (dist < best) {
                    best = dist;
                    nearest = c0 + c;
                }
            }
        }
    }
    if (in_range)
        atomic_inc(&histogram[nearest]);
}
