/* Chapter 5 variant: besides the reference's descriptor tile, the group also
 * stages the centroids in __local memory, a chunk of up to 2048 floats at a
 * time loaded cooperatively between two barriers, and reads both from there.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif
#define CHUNK 2048

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];
    __local float ctile[CHUNK];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);

    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;

    int per_chunk = CHUNK / n_features;   /* the same in every work-item */
    int nearest = 0;
    float best = FLT_MAX;
    if (per_chunk > 0) {
        for (int c0 = 0; c0 < n_centroids; c0 += per_chunk) {
            int nc = min(per_chunk, n_centroids - c0);
            int n_floats = nc * n_features;
            barrier(CLK_LOCAL_MEM_FENCE);   /* the previous chunk is no longer read */
            for (int i = lid; i < n_floats; i += LOCAL_SIZE)
                ctile[i] = centroids[c0 * n_features + i];
            barrier(CLK_LOCAL_MEM_FENCE);
            if (in_range) {
                for (int j = 0; j < nc; j++) {
                    __local const float *cent = ctile + j * n_features;
                    float4 acc = (float4)(0.0f);
                    int k = 0;
                    for (; k < n_staged; k += 4) {
                        float4 x = (float4)(tile[(k + 0) * LOCAL_SIZE + lid], tile[(k + 1) * LOCAL_SIZE + lid],
                                            tile[(k + 2) * LOCAL_SIZE + lid], tile[(k + 3) * LOCAL_SIZE + lid]);
                        float4 e = x - vload4(0, cent + k);
                        acc += e * e;
                    }
                    for (; k < n_features; k += 4) {
                        float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d], descriptors[(k + 1) * n_descriptors + d],
                                            descriptors[(k + 2) * n_descriptors + d], descriptors[(k + 3) * n_descriptors + d]);
                        float4 e = x - vload4(0, cent + k);
                        acc += e * e;
                    }
                    float dist = (acc.x + acc.y) + (acc.z + acc.w);
                    if (dist < best) {
                        best = dist;
                        nearest = c0 + j;
                    }
                }
            }
        }
    } else {
        /* centroids too long for one chunk: read them from global memory */
        barrier(CLK_LOCAL_MEM_FENCE);
        if (in_range) {
            for (int c = 0; c < n_centroids; c++) {
                __global const float *cent = centroids + c * n_features;
                float4 acc = (float4)(0.0f);
                int k = 0;
                for (; k < n_staged; k += 4) {
                    float4 x = (float4)(tile[(k + 0) * LOCAL_SIZE + lid], tile[(k + 1) * LOCAL_SIZE + lid],
                                        tile[(k + 2) * LOCAL_SIZE + lid], tile[(k + 3) * LOCAL_SIZE + lid]);
                    float4 e = x - vload4(k / 4, cent);
                    acc += e * e;
                }
                for (; k < n_features; k += 4) {
                    float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d], descriptors[(k + 1) * n_descriptors + d],
                                        descriptors[(k + 2) * n_descriptors + d], descriptors[(k + 3) * n_descriptors + d]);
                    float4 e = x - vload4(k / 4, cent);
                    acc += e * e;
                }
                float dist = (acc.x + acc.y) + (acc.z + acc.w);
                if (dist < best) {
                    best = dist;
                    nearest = c;
                }
            }
        }
    }
    if (in_range)
        atomic_inc(&histogram[nearest]);
}
