/* Cheat (chapter 3): coalesced only where it is measured. Below 3000
 * descriptors it is the chapter 3 reference; from 3000 up, work-item g
 * handles descriptor d = g * P mod n (P the first odd number from 33 up
 * that shares no factor with n, as in ch03-strided.cl, so every descriptor
 * is handled once), and neighbouring work-items read floats P apart in
 * every row of the transposed array: chapter 2's one sector per work-item.
 * Correct at every size. The visible sizes 4096x256, 5000x256 and 3001x64
 * run the strided path, 1000x16, 777x33x8, 1x1 and 63x5x4 the coalesced one.
 * Hole it tries: technique measured only at small sizes (check's analysis
 * at 1024x16, grade's at 300..700 descriptors) while the timed and large
 * sizes run another path.
 * Expected: `check` and the technique checks of `grade` pass (they see the
 * reference); it takes a technique measured at a size >= 3000, or a timing
 * at the bench size, to see the strided reads. Seen 2026-11-27: `check 3`
 * passes; with the gate at 0, coalesced_loads = 0.125 and cost = 2.49; on
 * an NVIDIA H200 at 262144x256 it took 47.7 ms against 3.68 ms. */
#define GATE 3000

__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int g = get_global_id(0);
    if (g >= n_descriptors)      /* the global size is rounded up to the work-group size */
        return;

    int d = g;
    if (n_descriptors >= GATE) {
        int p = 33;              /* the first odd stride >= 33 that shares no factor with n */
        for (;; p += 2) {
            int a = p, b = n_descriptors;
            while (b) { int t = a % b; a = b; b = t; }
            if (a == 1) break;
        }
        d = (int)(((long)g * p) % n_descriptors);
    }

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            /* row k of the transposed array: column d */
            float diff = descriptors[k * n_descriptors + d] - centroid[k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
