/* Find the bug (chapter 6): another kernel of this chapter, with one wrong
 * expression in it. Each work-item keeps its descriptor in registers and
 * compares it with two centroids per step of the loop, both read from
 * __constant memory. It builds and runs, and almost every descriptor lands
 * in the wrong bin: 1,000 descriptors and 16 centroids are enough to see it.
 * Fix it, then:  cltutor check 6
 */
#define HELD_FEATURES 64                /* features of a descriptor kept in registers */
#define HELD_QUADS (HELD_FEATURES / 4)

/* the four features of a centroid that start at feature k */
float4 centroid_quad(__constant float *centroid, int k)
{
    return vload4(k / 4, centroid);   /* vload4's offset counts float4s */
}

/* the four features of descriptor d that start at feature k: feature k of
 * every descriptor is one row of the transposed array, so the work-items
 * of a warp read neighbouring words (coalesced) */
float4 descriptor_quad(__global const float *descriptors, int n_descriptors, int d, int k)
{
    __global const float *column = descriptors + k * n_descriptors + d;
    return (float4)(column[0], column[n_descriptors], column[2 * n_descriptors], column[3 * n_descriptors]);
}

/* squared distance between two quads */
float quad_distance(float4 x, float4 y)
{
    float4 t = x - y;
    return dot(t, t);
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    const int held = min(n_features, HELD_FEATURES);
    const int last = n_centroids - 1;

    /* a grid-stride loop: correct for any global size, one pass when the
     * host launches one work-item per descriptor */
    for (int d = get_global_id(0); d < n_descriptors; d += get_global_size(0)) {
        /* the descriptor's first HELD_FEATURES features, read once from global memory */
        float4 x[HELD_QUADS];
#pragma unroll
        for (int q = 0; q < HELD_QUADS; q++)
            x[q] = 4 * q < held ? descriptor_quad(descriptors, n_descriptors, d, 4 * q) : (float4)(0.0f);

        int nearest = 0;
        float best = FLT_MAX;
        /* centroids c and c + 1 at each step; with an odd count the last
         * step takes the last centroid twice, and the second, equal distance
         * never beats the first */
        for (int c = 0; c <= last; c += 2) {
            __constant float *first = centroids + c * n_features;
            __constant float *second = centroids + min(c + 1, last) * n_features;
            float dist_first = 0.0f, dist_second = 0.0f;
#pragma unroll
            for (int q = 0; q < HELD_QUADS; q++) {
                if (4 * q < held) {
                    dist_first += quad_distance(x[q], centroid_quad(first, 4 * q));
                    dist_second += quad_distance(x[q], centroid_quad(second, 4 * q));
                }
            }
            /* descriptors longer than HELD_FEATURES: the rest from global memory */
            for (int k = held; k < n_features; k += 4) {
                float4 z = descriptor_quad(descriptors, n_descriptors, d, k);
                dist_first += quad_distance(z, centroid_quad(first, k));
                dist_second += quad_distance(z, centroid_quad(second, k));
            }
            if (dist_first < best) {
                best = dist_first;
                nearest = c;
            }
            if (dist_second < best) {
                best = dist_second;
                nearest = c + 1;
            }
        }
        atomic_inc(&histogram[nearest]);
    }
}
