/* Chapter 6 variant: the centroids are staged in __local memory, a batch of whole
 * centroids at a time (read from __global), and the descriptor stays in
 * registers (first 64 features); no __constant address space.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define STAGE_FLOATS 4096
#define REG_QUADS 16

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float4 stage[STAGE_FLOATS / 4];
    const int d = get_global_id(0);
    const int lid = get_local_id(0);
    const int in_range = d < n_descriptors;
    const int quads = n_features / 4;
    const int held = min(quads, REG_QUADS);

    float4 x[REG_QUADS];
    for (int q = 0; q < REG_QUADS; q++) {
        float4 v = (float4)(0.0f);
        if (in_range && q < held) {
            int k = 4 * q;
            v = (float4)(descriptors[(k + 0) * n_descriptors + d], descriptors[(k + 1) * n_descriptors + d],
                         descriptors[(k + 2) * n_descriptors + d], descriptors[(k + 3) * n_descriptors + d]);
        }
        x[q] = v;
    }

    int nearest = 0;
    float best = FLT_MAX;
    const int per_batch = quads > 0 ? max(1, (STAGE_FLOATS / 4) / quads) : 1;
    const int staged = quads <= STAGE_FLOATS / 4;
    for (int c0 = 0; c0 < n_centroids; c0 += per_batch) {
        const int cn = min(per_batch, n_centroids - c0);
        if (staged) {
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int i = lid; i < cn * quads; i += LOCAL_SIZE)
                stage[i] = vload4(c0 * quads + i, centroids);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (in_range) {
            for (int c = 0; c < cn; c++) {
                float4 acc = (float4)(0.0f);
                for (int q = 0; q < quads; q++) {
                    float4 y = staged ? stage[c * quads + q] : vload4((c0 + c) * quads + q, centroids);
                    float4 xv;
                    if (q < REG_QUADS) {
                        xv = x[q];
                    } else {
                        int k = 4 * q;
                        xv = (float4)(descriptors[(k + 0) * n_descriptors + d], descriptors[(k + 1) * n_descriptors + d],
                                      descriptors[(k + 2) * n_descriptors + d], descriptors[(k + 3) * n_descriptors + d]);
                    }
                    float4 diff = xv - y;
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
