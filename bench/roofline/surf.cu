/* surf.cu: chapters 2, 3 and 4's SURF histogram kernels as CUDA, for
 * Nsight Compute, which does not see OpenCL launches. Each kernel is its
 * chapter's reference (kernels/NN-slug/histogram.cl) line for line: the
 * same loads in the same order, the work-group size of 64, the sizes passed
 * as arguments. Only the spelling changes: get_global_id(0) becomes
 * blockIdx.x * blockDim.x + threadIdx.x, atomic_inc becomes atomicAdd, and
 * chapter 4's vload4 becomes four loads of neighbouring floats, which is
 * what NVIDIA's OpenCL compiler makes of it (docs/results/ch4-loads-nvidia-h200.txt).
 *
 *   nvcc -O3 -arch=sm_90 -o surf bench/roofline/surf.cu
 *   ./surf [N [C [F [RUNS]]]]        default 262144 256 64 20
 *
 * It checks the three histograms against each other, then times each
 * kernel with CUDA events (median of RUNS launches after three untimed
 * ones) and prints its FLOP rate, counting three FLOPs per feature and
 * centroid as cltutor bench does. bench/roofline/run-gpu.sh runs it under
 * Nsight Compute. */
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>

#define CHECK(x)                                                                       \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

/* Chapter 2 (GPU1): row-major descriptors, feature k of descriptor d at d * n_features + k. */
__global__ void gpu1(const float *descriptors, const float *centroids, int *histogram,
                     int n_descriptors, int n_centroids, int n_features)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= n_descriptors)
        return;
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
    atomicAdd(&histogram[nearest], 1);
}

/* Chapter 3 (GPU2): transposed descriptors, feature k of descriptor d at k * n_descriptors + d. */
__global__ void gpu2(const float *descriptors, const float *centroids, int *histogram,
                     int n_descriptors, int n_centroids, int n_features)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= n_descriptors)
        return;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        const float *centroid = centroids + c * n_features;
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
    atomicAdd(&histogram[nearest], 1);
}

/* Chapter 4 (GPU3): chapter 3 four features a step, four partial sums. */
__global__ void gpu3(const float *descriptors, const float *centroids, int *histogram,
                     int n_descriptors, int n_centroids, int n_features)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= n_descriptors)
        return;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        const float *centroid = centroids + c * n_features;
        float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        for (int k = 0; k < n_features; k += 4) {
            float4 x = make_float4(descriptors[(k + 0) * n_descriptors + d],
                                   descriptors[(k + 1) * n_descriptors + d],
                                   descriptors[(k + 2) * n_descriptors + d],
                                   descriptors[(k + 3) * n_descriptors + d]);
            /* vload4(k / 4, centroid): four floats, aligned only as a float is */
            float4 y = make_float4(centroid[k], centroid[k + 1], centroid[k + 2], centroid[k + 3]);
            float4 diff = make_float4(x.x - y.x, x.y - y.y, x.z - y.z, x.w - y.w);
            acc.x += diff.x * diff.x;
            acc.y += diff.y * diff.y;
            acc.z += diff.z * diff.z;
            acc.w += diff.w * diff.w;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomicAdd(&histogram[nearest], 1);
}

typedef void (*surf_kernel)(const float *, const float *, int *, int, int, int);

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static double unit(void) /* xorshift64*, in [0, 1) */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 262144;
    int c = argc > 2 ? atoi(argv[2]) : 256;
    int f = argc > 3 ? atoi(argv[3]) : 64;
    int runs = argc > 4 ? atoi(argv[4]) : 20;
    if (n < 1 || c < 1 || f < 4 || f % 4 || runs < 1) {
        fprintf(stderr, "usage: surf [N [C [F [RUNS]]]] (F a multiple of 4)\n");
        return 64;
    }

    /* The course's "random" input: centroids uniform in [0, 1), each
     * descriptor a centroid drawn at random plus normal noise. */
    std::vector<float> cen((size_t)c * f), rows((size_t)n * f), cols((size_t)n * f);
    for (size_t i = 0; i < cen.size(); i++) cen[i] = (float)unit();
    for (int d = 0; d < n; d++) {
        int home = (int)(unit() * c);
        for (int k = 0; k < f; k++) {
            double u1 = unit() + 1e-12, u2 = unit();
            float v = cen[(size_t)home * f + k] + 0.05f * (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
            rows[(size_t)d * f + k] = v;            /* chapter 2's layout */
            cols[(size_t)k * n + d] = v;            /* chapters 3 and 4's */
        }
    }

    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, %d SMs, L2 %d KiB\n", p.name, p.multiProcessorCount, p.l2CacheSize / 1024);
    printf("size: %dx%dx%d, work-groups of 64, %d timed launches each (median)\n", n, c, f, runs);

    float *d_rows, *d_cols, *d_cen;
    int *d_hist;
    CHECK(cudaMalloc(&d_rows, rows.size() * sizeof(float)));
    CHECK(cudaMalloc(&d_cols, cols.size() * sizeof(float)));
    CHECK(cudaMalloc(&d_cen, cen.size() * sizeof(float)));
    CHECK(cudaMalloc(&d_hist, (size_t)c * sizeof(int)));
    CHECK(cudaMemcpy(d_rows, rows.data(), rows.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_cols, cols.data(), cols.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_cen, cen.data(), cen.size() * sizeof(float), cudaMemcpyHostToDevice));

    struct { const char *name; surf_kernel k; const float *desc; } ks[] = {
        {"chapter 2 (GPU1)", gpu1, d_rows},
        {"chapter 3 (GPU2)", gpu2, d_cols},
        {"chapter 4 (GPU3)", gpu3, d_cols},
    };
    const int groups = (n + 63) / 64;
    const double flops = 3.0 * n * (double)c * f;
    std::vector<int> hist[3];
    int status = 0;
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));

    printf("%-18s %10s %10s %12s\n", "kernel", "median ms", "spread", "GFLOP/s");
    for (int i = 0; i < 3; i++) {
        hist[i].assign(c, 0);
        std::vector<float> ms;
        for (int r = 0; r < runs + 3; r++) {
            CHECK(cudaMemset(d_hist, 0, (size_t)c * sizeof(int)));
            CHECK(cudaEventRecord(t0));
            ks[i].k<<<groups, 64>>>(ks[i].desc, d_cen, d_hist, n, c, f);
            CHECK(cudaGetLastError());
            CHECK(cudaEventRecord(t1));
            CHECK(cudaEventSynchronize(t1));
            float t;
            CHECK(cudaEventElapsedTime(&t, t0, t1));
            if (r >= 3) ms.push_back(t);
        }
        CHECK(cudaMemcpy(hist[i].data(), d_hist, (size_t)c * sizeof(int), cudaMemcpyDeviceToHost));
        std::sort(ms.begin(), ms.end());
        double med = ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
        printf("%-18s %10.3f %9.1f%% %12.1f\n", ks[i].name, med, 100.0 * (ms.back() - ms.front()) / med,
               flops / (med * 1e-3) / 1e9);
    }

    /* Chapters 2 and 3 add the same terms in the same order: the same
     * histogram. Chapter 4 adds them in another order, so a near tie may
     * go the other way: count the votes that moved. */
    long total = 0, moved = 0;
    for (int b = 0; b < c; b++) {
        total += hist[2][b];
        moved += abs(hist[2][b] - hist[1][b]);
    }
    int same = hist[0] == hist[1];
    printf("check: chapters 2 and 3 %s; chapter 4 counts %ld votes of %d, %ld moved against chapter 3\n",
           same ? "agree bin for bin" : "DIFFER", total, n, moved / 2);
    if (!same || total != n || moved > n / 1000) status = 1;
    CHECK(cudaFree(d_rows));
    CHECK(cudaFree(d_cols));
    CHECK(cudaFree(d_cen));
    CHECK(cudaFree(d_hist));
    return status;
}
