/* Cheat (chapter 4): the chapter 4 reference with the number of features
 * hard-wired to 64 (the SURF descriptor length, and the default size's):
 * n_features is ignored, the centroids are taken 64 floats apart and the
 * feature loop is a constant 16 steps of four, fully unrolled by the
 * compiler (16 x vload4 of the centroid, 64 coalesced reads of the
 * transposed descriptors). Wrong on purpose at any other feature count:
 * of the visible sizes, 777x33x8, 63x5x4 and 100x7x128 come out wrong
 * (with fewer than 64 features it also reads past the end of both arrays).
 * Hole it tries: hidden tests and technique sizes that always use 64
 * features (a size without a third field defaults to 64).
 * Expected: the visible tests with 8, 4 and 128 features fail, and the
 * hidden tests should include a feature count other than 64. Seen
 * 2026-11-27: `check 4` fails 777x33x8, 63x5x4, 100x7x128 and 1000x16x4;
 * the race check and all four techniques (measured at 64 features) pass. */
#define FEATURES 64

__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors)      /* the global size is rounded up to the work-group size */
        return;
    (void)n_features;            /* always 64, isn't it? */

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * FEATURES;
        float4 acc = (float4)(0.0f);   /* four partial sums, added up once at the end */
        #pragma unroll
        for (int k = 0; k < FEATURES; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - vload4(k / 4, centroid);   /* vload4 counts in float4s */
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
