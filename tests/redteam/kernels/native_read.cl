/* An attack, not a solution: native code on a CPU device (PoCL compiles a
 * kernel to x86-64 and accepts GNU inline assembly). Work-item 0 opens
 * PATH_TO_READ with the open system call; if the file opens, the worker
 * ends itself with status 42, which the run reports as a crash. Where the
 * worker cannot read the file, the kernel goes on as chapter 1's reference
 * and the run is correct. The test writes the path in with sed. */
__constant char path[] = "PATH_TO_READ";

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
    char buf[64];
    long fd = sys3(2 /* open */, (long)path, 0 /* O_RDONLY */, 0);
    if (fd >= 0 && sys3(0 /* read */, fd, (long)buf, sizeof buf) > 0)
        sys3(231 /* exit_group */, 42, 0, 0);
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
