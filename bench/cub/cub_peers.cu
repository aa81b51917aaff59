// cub_peers — NVIDIA's CUB as a peer of chapters 7 and 8, for bench/peers.py.
//
//   cub_peers [--bytes N] [--inputs uniform,equal] [--scan N] [--budget SEC]
//
// cub::DeviceHistogram::HistogramEven on N bytes (256 bins), once per input
// kind, and cub::DeviceScan::InclusiveSum on N int32 (random below 2^16).
// Each result is checked against a plain host computation before it is
// timed; times are CUDA events around each call, back to back after a
// warm-up, as `cltutor bench` times the kernels and the copy. Prints one
// JSON object per line, as peers.py does.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string version_text() {
    char buf[96];
    std::snprintf(buf, sizeof buf, "CUB %d.%d.%d, CUDA %d.%d", CUB_VERSION / 100000, CUB_VERSION / 100 % 1000,
                  CUB_VERSION % 100, CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    return buf;
}

std::string device_name() {
    cudaDeviceProp p;
    return cudaGetDeviceProperties(&p, 0) == cudaSuccess ? p.name : "unknown";
}

// One JSON line; message is only for a peer that did not pass (no quotes or backslashes in it).
void emit(const char *peer, const char *problem, long long n, const char *input, const char *status, double ms,
          int runs, const std::string &message) {
    std::printf("{\"peer\": \"%s\", \"problem\": \"%s\", \"size\": \"%lld\"", peer, problem, n);
    if (input && *input) std::printf(", \"input\": \"%s\"", input);
    std::printf(", \"status\": \"%s\"", status);
    if (!std::strcmp(status, "pass")) std::printf(", \"median_ms\": %.6f, \"runs\": %d", ms, runs);
    else std::printf(", \"message\": \"%s\"", message.c_str());
    std::printf(", \"device\": \"%s\", \"version\": \"%s\"}\n", device_name().c_str(), version_text().c_str());
    std::fflush(stdout);
}

uint64_t next(uint64_t &s) { // xorshift64*
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1DULL;
}

// The median of call()'s CUDA-event times: one warm-up, then back to back
// until the budget is spent (at least 5, at most 200 calls).
template <typename F> double timed(F call, double budget_s, int *runs) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    call();
    cudaDeviceSynchronize();
    std::vector<double> t;
    auto start = std::chrono::steady_clock::now();
    while (t.size() < 5 || (t.size() < 200 && std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                                            start).count() < budget_s)) {
        cudaEventRecord(a);
        call();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    *runs = (int)t.size();
    return t.size() % 2 ? t[t.size() / 2] : (t[t.size() / 2 - 1] + t[t.size() / 2]) / 2;
}

#define CHECK(call)                                                                                                 \
    do {                                                                                                            \
        cudaError_t e_ = (call);                                                                                    \
        if (e_ != cudaSuccess) throw std::string(#call ": ") + cudaGetErrorString(e_);                              \
    } while (0)

void histogram(long long n, const char *input, double budget) {
    const char *peer = "cub::DeviceHistogram";
    try {
        std::vector<unsigned char> host((size_t)n);
        uint64_t s = 0x9E3779B97F4A7C15ULL;
        if (!std::strcmp(input, "equal")) std::fill(host.begin(), host.end(), (unsigned char)(next(s) & 255));
        else for (auto &v : host) v = (unsigned char)(next(s) >> 56);
        std::vector<unsigned> want(256, 0);
        for (unsigned char v : host) want[v]++;
        unsigned char *d_in = nullptr;
        unsigned *d_hist = nullptr;
        void *d_temp = nullptr;
        size_t temp = 0;
        CHECK(cudaMalloc(&d_in, (size_t)n));
        CHECK(cudaMalloc(&d_hist, 256 * sizeof(unsigned)));
        CHECK(cudaMemcpy(d_in, host.data(), (size_t)n, cudaMemcpyHostToDevice));
        CHECK(cub::DeviceHistogram::HistogramEven(d_temp, temp, d_in, d_hist, 257, 0, 256, (int)n));
        CHECK(cudaMalloc(&d_temp, temp));
        auto call = [&] { cub::DeviceHistogram::HistogramEven(d_temp, temp, d_in, d_hist, 257, 0, 256, (int)n); };
        CHECK(cudaMemset(d_hist, 0xff, 256 * sizeof(unsigned))); // it must clear the bins itself
        call();
        CHECK(cudaDeviceSynchronize());
        std::vector<unsigned> got(256);
        CHECK(cudaMemcpy(got.data(), d_hist, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
        if (got != want) {
            emit(peer, "bytes", n, input, "wrong", 0, 0, "counts differ");
        } else {
            int runs = 0;
            double ms = timed(call, budget, &runs);
            CHECK(cudaMemcpy(got.data(), d_hist, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
            if (got != want) emit(peer, "bytes", n, input, "wrong", 0, 0, "counts differ after the timed calls");
            else emit(peer, "bytes", n, input, "pass", ms, runs, "");
        }
        cudaFree(d_in);
        cudaFree(d_hist);
        cudaFree(d_temp);
    } catch (const std::string &why) {
        emit(peer, "bytes", n, input, "error", 0, 0, why);
    }
}

void scan(long long n, double budget) {
    const char *peer = "cub::DeviceScan";
    try {
        std::vector<int> host((size_t)n);
        uint64_t s = 0xD1B54A32D192ED03ULL;
        for (auto &v : host) v = (int)(next(s) >> 48);
        int *d_in = nullptr, *d_out = nullptr;
        void *d_temp = nullptr;
        size_t temp = 0;
        CHECK(cudaMalloc(&d_in, (size_t)n * sizeof(int)));
        CHECK(cudaMalloc(&d_out, (size_t)n * sizeof(int)));
        CHECK(cudaMemcpy(d_in, host.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cub::DeviceScan::InclusiveSum(d_temp, temp, d_in, d_out, (int)n));
        CHECK(cudaMalloc(&d_temp, temp));
        auto call = [&] { cub::DeviceScan::InclusiveSum(d_temp, temp, d_in, d_out, (int)n); };
        auto right = [&] {
            std::vector<int> got((size_t)n);
            if (cudaMemcpy(got.data(), d_out, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess)
                return false;
            uint32_t run = 0; // 32-bit sums wrap, as the chapter's do
            for (long long i = 0; i < n; i++) {
                run += (uint32_t)host[(size_t)i];
                if ((uint32_t)got[(size_t)i] != run) return false;
            }
            return true;
        };
        call();
        CHECK(cudaDeviceSynchronize());
        if (!right()) {
            emit(peer, "scan", n, "", "wrong", 0, 0, "sums differ");
        } else {
            int runs = 0;
            double ms = timed(call, budget, &runs);
            if (!right()) emit(peer, "scan", n, "", "wrong", 0, 0, "sums differ after the timed calls");
            else emit(peer, "scan", n, "", "pass", ms, runs, "");
        }
        cudaFree(d_in);
        cudaFree(d_out);
        cudaFree(d_temp);
    } catch (const std::string &why) {
        emit(peer, "scan", n, "", "error", 0, 0, why);
    }
}

// "uniform,equal" -> {"uniform", "equal"}
std::vector<std::string> split(const std::string &list) {
    std::vector<std::string> out;
    for (size_t at = 0; at <= list.size();) {
        size_t comma = list.find(',', at);
        std::string item = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (!item.empty()) out.push_back(item);
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    return out;
}

} // namespace

int main(int argc, char **argv) {
    long long bytes = 256LL << 20, items = 64LL << 20;
    std::string inputs = "uniform";
    double budget = 2.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i];
        if (k == "--bytes") bytes = std::atoll(argv[i + 1]);
        else if (k == "--inputs") inputs = argv[i + 1];
        else if (k == "--scan") items = std::atoll(argv[i + 1]);
        else if (k == "--budget") budget = std::atof(argv[i + 1]);
        else {
            std::fprintf(stderr, "cub_peers: unknown option %s\n", argv[i]);
            return 64;
        }
    }
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0) { // named, not timed, as peers.py names an absent peer
        std::string why = e != cudaSuccess ? std::string("no CUDA device: ") + cudaGetErrorString(e) : "no CUDA device";
        for (const std::string &kind : split(inputs))
            emit("cub::DeviceHistogram", "bytes", bytes, kind.c_str(), "absent", 0, 0, why);
        emit("cub::DeviceScan", "scan", items, "", "absent", 0, 0, why);
        return 0;
    }
    if (bytes > 0 && bytes < (1LL << 31))
        for (const std::string &kind : split(inputs)) histogram(bytes, kind.c_str(), budget);
    if (items > 0 && items < (1LL << 31)) scan(items, budget);
    return 0;
}
