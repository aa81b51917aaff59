#!/usr/bin/env python3
"""peers — the libraries a learner would call instead of the course's kernels,
timed on the same GPU at the same sizes, for `cltutor bench`.

    python3 peers.py [--bytes N] [--bytes-inputs uniform,equal] [--scan N] [--integral WxH] [--budget SEC]

Prints one JSON object per line:
    {"peer": "torch.bincount", "problem": "bytes", "size": "268435456", "status": "pass",
     "median_ms": 1.23, "runs": 40, "device": "NVIDIA H100 80GB HBM3", "version": "torch 2.4.0"}
or, for a peer that cannot run here, "status": "absent" with a "message".
Exits 0 even when no peer exists (no PyTorch, no CUDA, no NPP): `bench` then
says so. Each result is checked against a plain reference before it is timed.

Peers: torch.bincount (chapter 7, uniform random bytes), torch.cumsum in
int32 (chapter 8, random uint32 below 2^16), NPP's nppiIntegral_8u32s_C1R_Ctx
(chapter 9, random bytes), through ctypes on PyTorch's CUDA buffers; and
NVIDIA's CUB, cub::DeviceHistogram::HistogramEven (chapter 7, once per input
kind of --bytes-inputs) and cub::DeviceScan::InclusiveSum (chapter 8), built
from cub/cub_peers.cu with nvcc where the CUDA toolkit is installed (kept in
~/.cache/cltutor/peers/ by the source's hash). Times come from CUDA events
around each call, back to back after a warm-up."""
import argparse
import ctypes
import ctypes.util
import glob
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def emit(**kv):
    print(json.dumps(kv), flush=True)


def absent(peer, problem, size, why):
    emit(peer=peer, problem=problem, size=size, status="absent", message=why)


def timed(torch, fn, budget):
    """Median milliseconds of fn() over CUDA events: one warm-up, then until budget or 200 runs."""
    fn()
    torch.cuda.synchronize()
    times = []
    end_at = time.time() + budget
    while len(times) < 5 or (time.time() < end_at and len(times) < 200):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times), len(times)


def peer_bincount(torch, n, budget, common):
    size = str(n)
    g = torch.Generator(device="cuda").manual_seed(7)
    data = torch.randint(0, 256, (n,), dtype=torch.uint8, device="cuda", generator=g)
    got = torch.bincount(data, minlength=256)
    want = torch.histc(data.float(), bins=256, min=0, max=255)
    if not torch.equal(got.cpu().to(torch.float32), want.cpu()) or int(got.sum()) != n:
        return emit(peer="torch.bincount", problem="bytes", size=size, input="uniform", status="wrong",
                    message="counts differ", **common)
    ms, runs = timed(torch, lambda: torch.bincount(data, minlength=256), budget)
    emit(peer="torch.bincount", problem="bytes", size=size, input="uniform", status="pass", median_ms=ms, runs=runs,
         **common)


def peer_cumsum(torch, n, budget, common):
    size = str(n)
    g = torch.Generator(device="cuda").manual_seed(8)
    data = torch.randint(0, 1 << 16, (n,), dtype=torch.int32, device="cuda", generator=g)
    out = torch.empty_like(data)
    torch.cumsum(data, 0, dtype=torch.int32, out=out)
    host = data.cpu().to(torch.int64).cumsum(0)
    if not torch.equal(out.cpu().to(torch.int64) & 0xFFFFFFFF, host & 0xFFFFFFFF):
        return emit(peer="torch.cumsum", problem="scan", size=size, status="wrong", message="sums differ", **common)
    ms, runs = timed(torch, lambda: torch.cumsum(data, 0, dtype=torch.int32, out=out), budget)
    emit(peer="torch.cumsum", problem="scan", size=size, status="pass", median_ms=ms, runs=runs, **common)


class NppiSize(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int)]


class NppStreamContext(ctypes.Structure):
    _fields_ = [("hStream", ctypes.c_void_p), ("nCudaDeviceId", ctypes.c_int),
                ("nMultiProcessorCount", ctypes.c_int), ("nMaxThreadsPerMultiProcessor", ctypes.c_int),
                ("nMaxThreadsPerBlock", ctypes.c_int), ("nSharedMemPerBlock", ctypes.c_size_t),
                ("nCudaDevAttrComputeCapabilityMajor", ctypes.c_int),
                ("nCudaDevAttrComputeCapabilityMinor", ctypes.c_int), ("nStreamFlags", ctypes.c_uint),
                ("nReserved0", ctypes.c_int)]


def find_npp():
    names = [ctypes.util.find_library("nppist")]
    for d in ("/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/x86_64-linux-gnu"):
        names += sorted(glob.glob(os.path.join(d, "libnppist.so*")))
    for p in sys.path:
        names += sorted(glob.glob(os.path.join(p, "nvidia", "npp", "lib", "libnppist.so*")))
    for n in names:
        if not n:
            continue
        try:
            return ctypes.CDLL(n), n
        except OSError:
            continue
    return None, None


def peer_npp_integral(torch, w, h, budget, common):
    size = f"{w}x{h}"
    lib, path = find_npp()
    if not lib:
        return absent("nppiIntegral_8u32s", "integral", size, "NPP (libnppist) not found")
    fn = getattr(lib, "nppiIntegral_8u32s_C1R_Ctx", None)
    if fn is None:
        return absent("nppiIntegral_8u32s", "integral", size, f"{path} has no nppiIntegral_8u32s_C1R_Ctx")
    props = torch.cuda.get_device_properties(0)
    ctx = NppStreamContext()
    ctx.hStream = torch.cuda.current_stream().cuda_stream
    ctx.nCudaDeviceId = torch.cuda.current_device()
    ctx.nMultiProcessorCount = props.multi_processor_count
    ctx.nMaxThreadsPerMultiProcessor = getattr(props, "max_threads_per_multi_processor", 2048)
    ctx.nMaxThreadsPerBlock = 1024
    ctx.nSharedMemPerBlock = 48 * 1024
    ctx.nCudaDevAttrComputeCapabilityMajor = props.major
    ctx.nCudaDevAttrComputeCapabilityMinor = props.minor
    g = torch.Generator(device="cuda").manual_seed(9)
    src = torch.randint(0, 256, (h, w), dtype=torch.uint8, device="cuda", generator=g)
    dst = torch.zeros((h + 1, w + 1), dtype=torch.int32, device="cuda")
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, NppiSize, ctypes.c_int,
                   NppStreamContext]
    fn.restype = ctypes.c_int

    def call():
        return fn(src.data_ptr(), w, dst.data_ptr(), (w + 1) * 4, NppiSize(w, h), 0, ctx)

    status = call()
    torch.cuda.synchronize()
    if status != 0:
        return emit(peer="nppiIntegral_8u32s", problem="integral", size=size, status="error",
                    message=f"NPP status {status}", **common)
    want = src.to(torch.int64).cumsum(0).cumsum(1) & 0xFFFFFFFF  # 32-bit sums wrap, as the chapter's do
    if not torch.equal(dst[1:, 1:].to(torch.int64) & 0xFFFFFFFF, want):
        return emit(peer="nppiIntegral_8u32s", problem="integral", size=size, status="wrong", message="sums differ",
                    **common)
    ms, runs = timed(torch, call, budget)
    emit(peer="nppiIntegral_8u32s", problem="integral", size=size, status="pass", median_ms=ms, runs=runs,
         **dict(common, version=f"NPP {os.path.basename(path)}"))


def find_nvcc():
    for cand in (shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def build_cub(nvcc, source):
    """The cub_peers program built from source (kept by the hash of the source and nvcc's version); (path, why)."""
    version = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    with open(source, "rb") as f:
        key = hashlib.sha256(f.read() + version.encode()).hexdigest()[:16]
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cltutor", "peers")
    try:
        os.makedirs(cache, exist_ok=True)
    except OSError:
        cache = tempfile.mkdtemp(prefix="cltutor-peers-")
    exe = os.path.join(cache, f"cub_peers-{key}")
    if os.access(exe, os.X_OK):
        return exe, None
    tmp = f"{exe}.{os.getpid()}"
    for arch in (["-arch=native"], []):
        r = subprocess.run([nvcc, "-O3", "-std=c++17", *arch, "-o", tmp, source], capture_output=True, text=True)
        if r.returncode == 0:
            os.replace(tmp, exe)
            return exe, None
    last = (r.stderr.strip().splitlines() or ["no message"])[-1]
    return None, f"nvcc could not build {os.path.basename(source)}: {last}"[:300]


def peers_cub(a):
    """CUB's histogram (once per input kind) and scan, run as a program of their own; its lines passed on."""
    kinds = [k for k in a.bytes_inputs.split(",") if k]
    rows = [("cub::DeviceHistogram", "bytes", str(a.bytes), k) for k in kinds]
    rows.append(("cub::DeviceScan", "scan", str(a.scan), ""))

    def absent_all(why):
        for peer, problem, size, kind in rows:
            emit(peer=peer, problem=problem, size=size, **({"input": kind} if kind else {}), status="absent",
                 message=why)

    nvcc = find_nvcc()
    if not nvcc:
        return absent_all("nvcc (the CUDA toolkit) not found: CUB is built from source")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cub", "cub_peers.cu")
    if not os.path.isfile(source):
        return absent_all(f"{source} is missing")
    exe, why = build_cub(nvcc, source)
    if not exe:
        return absent_all(why)
    r = subprocess.run([exe, "--bytes", str(a.bytes), "--inputs", ",".join(kinds), "--scan", str(a.scan),
                        "--budget", str(a.budget)], capture_output=True, text=True, timeout=240)
    lines = [line for line in r.stdout.splitlines() if line.startswith("{")]
    for line in lines:
        print(line, flush=True)
    if not lines:
        absent_all(f"cub_peers printed nothing (exit {r.returncode})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bytes", type=int, default=256 << 20, help="bytes for torch.bincount (chapter 7)")
    ap.add_argument("--bytes-inputs", default="uniform", help="input kinds of the bytes for CUB's histogram")
    ap.add_argument("--scan", type=int, default=64 << 20, help="uint32s for torch.cumsum (chapter 8)")
    ap.add_argument("--integral", default="8192x8192", help="image WxH for NPP's integral (chapter 9)")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds spent repeating each peer")
    a = ap.parse_args()
    w, h = (int(v) for v in a.integral.lower().split("x"))
    sizes = (("bytes", "torch.bincount", str(a.bytes)), ("scan", "torch.cumsum", str(a.scan)),
             ("integral", "nppiIntegral_8u32s", a.integral))
    peers_torch(a, w, h, sizes)
    try:  # CUB needs no PyTorch: a program of its own, on the same GPU
        peers_cub(a)
    except Exception as e:
        emit(peer="cub", problem="bytes", size=str(a.bytes), status="error", message=f"{type(e).__name__}: {e}"[:300])


def peers_torch(a, w, h, sizes):
    """The peers through PyTorch (and NPP on its buffers); each named with the reason where it cannot run."""
    try:
        import torch
    except Exception as e:  # no PyTorch here: nothing to compare with
        for ch, peer, size in sizes:
            absent(peer, ch, size, f"PyTorch not importable ({type(e).__name__})")
        return
    if not torch.cuda.is_available():
        for ch, peer, size in sizes:
            absent(peer, ch, size, "PyTorch sees no CUDA device")
        return
    common = {"device": torch.cuda.get_device_name(0), "version": f"torch {torch.__version__}"}
    runs = (lambda: peer_bincount(torch, a.bytes, a.budget, common),
            lambda: peer_cumsum(torch, a.scan, a.budget, common),
            lambda: peer_npp_integral(torch, w, h, a.budget, common))
    for (ch, peer, size), run in zip(sizes, runs):
        try:
            run()
        except Exception as e:  # one peer failing does not stop the others
            emit(peer=peer, problem=ch, size=size, status="error", message=f"{type(e).__name__}: {e}"[:300])
    torch.cuda.empty_cache()  # what it held is free for CUB

if __name__ == "__main__":
    main()
