/* Cheat (chapter 4, dilution): chapter 3's reference, every feature still
 * read 4 bytes at a time, plus one dummy vload4 per feature whose value is
 * multiplied by zero. Hole it tries: wide_loads is a share of all load
 * bytes, so 16 wasted bytes next to 8 useful ones make it 67%. Expected if
 * the check were robust: wide_loads fails; the cheat gains nothing on a GPU
 * (it moves more bytes, not fewer instructions). */
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

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float dist = 0.0f;
        float4 pad = (float4)(0.0f);
        for (int k = 0; k < n_features; k++) {
            /* row k of the transposed array: neighbours d, d+1, ... are side by side */
            float diff = descriptors[k * n_descriptors + d] - centroid[k];
            dist += diff * diff;
            pad += vload4(0, centroid + (k & ~3));     /* 16 bytes, never needed */
        }
        dist += 0.0f * (pad.x + pad.y + pad.z + pad.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
