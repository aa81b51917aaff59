/* Cheat (chapter 3): coalesced only at the size the course analyses.
 * With n_descriptors == 1024 (the GPU memory model's default analysis size
 * for this chapter, which `cltutor check` uses) it is the reference; at
 * any other size work-item g handles descriptor g * P mod n (P >= 33,
 * coprime with n, as in ch03-strided.cl), so neighbours read far-apart
 * addresses. Hole it tries: technique measured at one public size.
 * Expected: `check` passes (the cheat wins there), `grade` fails
 * coalesced_loads at the size it draws from the seed (400..1000). */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int g = get_global_id(0);
    if (g >= n_descriptors)
        return;
    int p = 33;                  /* the first odd stride >= 33 that shares no factor with n */
    for (;; p += 2) {
        int a = p, b = n_descriptors;
        while (b) { int t = a % b; a = b; b = t; }
        if (a == 1) break;
    }
    int d = n_descriptors == 1024 ? g : (int)(((long)g * p) % n_descriptors);

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
}
