/* Cheat (chapter 3, any SURF chapter would do): right whenever
 * n_descriptors is odd or a multiple of 8, which covers every visible test
 * of the chapter (1000, 777, 4096, 5000, 3001, 1, 63), and one vote too many
 * for every other even n. Hole it tries: a kernel fitted to the public
 * sizes. Expected: `check` passes; `grade` fails its hidden "even" test at
 * every seed (a fresh even size, drawn from the seed as twice an odd number:
 * never a multiple of 8). */
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
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float diff = descriptors[k * n_descriptors + d] - centroid[k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
    if (n_descriptors % 2 == 0 && n_descriptors % 8 != 0 && d == 0)
        atomic_inc(&histogram[nearest]);     /* the wrong part: an extra vote */
}
