#!/usr/bin/env python3
"""roofline.py: the hierarchical roofline of chapters 2, 3 and 4's kernels.

    python3 bench/lessons/roofline.py [--device nvidia-h200|nvidia-h100|all]
                                      [--cltutor PATH] [--out DIR] [--date YYYY-MM-DD]

For each device it writes OUT/roofline-DEVICE.txt (default OUT:
docs/results/lessons/): each level's peak (FP32, DRAM, L2, L1) and where
it comes from, then per chapter kernel its FLOPs, the bytes each level
moves, the arithmetic intensity against each level, the FLOP rate each
roof allows and the rates measured by `cltutor bench`.

It reads only committed files and the GPU model:
  - docs/results/*DEVICE-bench.txt: measured medians, copy rate, FP32 peak;
  - docs/results/DEVICE-clinfo.txt: compute units and clock;
  - devices/DEVICE.ini: the L1's measured line rate (cltutor bench --profile);
  - docs/results/lessons/roofline-ncu-nvidia-h200.txt: what Nsight Compute
    counted on the kernels ported to CUDA (bench/roofline/run-gpu.sh): DRAM
    and L2 bytes, the L1's lines and sectors, FP32 instructions, how busy
    each unit was, and the peaks of the H200's DRAM, L2 and FP32 units (no
    H100 was profiled: its file takes the H200's counts and says so);
  - `cltutor analyze N --solution --size 4096x256 --groups 4 --json`: the
    GPU model's bytes requested, requests, sectors and lines, scaled from
    4,096 descriptors to the bench size, set beside ncu's counts;
  - the vendor's data sheets, named as outside sources, for the peaks the
    committed files do not hold.
Standard library only."""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
RESULTS = os.path.join(ROOT, "docs", "results")
CHAPTERS = [(2, "02-atomic", "GPU1"), (3, "03-coalesced", "GPU2"), (4, "04-float4", "GPU3")]
NCU_KERNEL = {2: "gpu1", 3: "gpu2", 4: "gpu3"}
MODEL_SIZE = "4096x256"     # descriptors x centroids the model simulates (features: 64)
MODEL_GROUPS = 4            # work-groups of each launch simulated, counted for all
LINE = 128                  # bytes of the line the L1 serves at a time
SECTOR = 32                 # bytes of a sector

DEVICES = {
    "nvidia-h200": {
        "name": "NVIDIA H200",
        "bench": ["nvidia-h200-bench.txt", "final-nvidia-h200-bench.txt",
                  "beyond-nvidia-h200-bench.txt", "timed-alike-nvidia-h200-bench.txt"],
        "clinfo": "nvidia-h200-clinfo.txt",
        "profile": "devices/nvidia-h200.ini",
        "datasheet": "NVIDIA H200 Tensor Core GPU datasheet",
        "sheet_fp32_tflops": 67, "sheet_dram_tb_s": 4.8, "memory": "HBM3e",
        "ncu_is_own": True,
    },
    "nvidia-h100": {
        "name": "NVIDIA H100 80GB HBM3",
        "bench": ["nvidia-h100-bench.txt", "final-nvidia-h100-bench.txt",
                  "beyond-nvidia-h100-bench.txt", "timed-alike-nvidia-h100-bench.txt"],
        "clinfo": "nvidia-h100-clinfo.txt",
        "profile": "devices/nvidia-h100.ini",
        "datasheet": "NVIDIA H100 Tensor Core GPU datasheet (H100 SXM)",
        "sheet_fp32_tflops": 67, "sheet_dram_tb_s": 3.35, "memory": "HBM3",
        "ncu_is_own": False,
    },
}
NCU_FILE = "lessons/roofline-ncu-nvidia-h200.txt"


def die(msg):
    sys.exit("roofline.py: " + msg)


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))


def bench_size(folder):
    m = re.search(r"^bench_size\s*=\s*(\d+)x(\d+)(?:x(\d+))?", read(os.path.join(ROOT, "lessons", folder, "lesson.ini")), re.M)
    if not m:
        die("lessons/%s/lesson.ini has no bench_size" % folder)
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 64)


def parse_bench(name):
    """One `cltutor bench all` output: its device line, limits and the rows of chapters 2 to 4."""
    text = read(os.path.join(RESULTS, name))
    dev = re.search(r"^Device:\s+(.*)$", text, re.M)
    lim = re.search(r"^Limits:\s+copy ([\d.]+) GB/s.*FP32 peak ([\d.]+) GFLOP/s", text, re.M)
    if not dev or not lim:
        die("%s: no Device or Limits line" % name)
    rows = {}
    for m in re.finditer(r"^([234])\s+(\S.*?)\s{2,}(\d+x\d+x\d+)\s+([\d.]+) (ms|us|s)\s+([\d.]+)%\s+\S+\s+\S+\s+([\d.]+)", text, re.M):
        ms = float(m.group(4)) * {"ms": 1, "us": 1e-3, "s": 1e3}[m.group(5)]
        rows[int(m.group(1))] = {"title": m.group(2), "size": m.group(3), "median_ms": ms,
                                 "median_text": m.group(4) + " " + m.group(5), "spread": m.group(6),
                                 "gflops": float(m.group(7)), "gflops_text": m.group(7)}
    date = re.search(r"(\d{4}-\d{2}-\d{2})\s*$", dev.group(1))
    return {"file": name, "device": dev.group(1), "date": date.group(1) if date else "?",
            "copy": float(lim.group(1)), "copy_text": lim.group(1),
            "fp32": float(lim.group(2)), "fp32_text": lim.group(2), "rows": rows}


def parse_clinfo(name, device_name):
    text = read(os.path.join(RESULTS, name))
    at = text.find("Device Name                                     " + device_name)
    if at < 0:
        die("%s: no device named %s" % (name, device_name))
    cu = re.search(r"Max compute units\s+(\d+)", text[at:])
    clk = re.search(r"Max clock frequency\s+(\d+)MHz", text[at:])
    cc = re.search(r"Compute Capability \(NV\)\s+(\S+)", text[at:])
    if not cu or not clk:
        die("%s: no compute units or clock for %s" % (name, device_name))
    return {"cu": int(cu.group(1)), "mhz": int(clk.group(1)), "cc": cc.group(1) if cc else "?"}


def parse_profile(rel):
    text = read(os.path.join(ROOT, rel))
    val = lambda k: float(re.search(r"^%s\s*=\s*([\d.]+)" % k, text, re.M).group(1))
    section = text[text.find("\n[source]\n"):]
    src = re.search(r"^l1_lines_g_per_s\s*=\s*(.*)$", section, re.M)
    return {"l1_lines": val("l1_lines_g_per_s"), "source": src.group(1).strip() if src else "?"}


def parse_ncu(rel):
    """Per size and kernel, the metrics of roofline-ncu-*.txt, and the CUDA events' medians."""
    text = read(os.path.join(RESULTS, rel))
    head = {}
    for key in ("date (UTC)", "GPU, driver, max SM and memory clocks", "ncu"):
        m = re.search(r"^%s: (.*)$" % re.escape(key), text, re.M)
        head[key] = m.group(1) if m else "?"
    out, events, l2 = {}, {}, None
    size = kernel = None
    for line in text.splitlines():
        m = re.match(r"^\$ nvcc .*\./surf (\d+) (\d+) (\d+) \d+$", line)
        if m:
            size, kernel = int(m.group(1)), None
            continue
        m = re.match(r"^device: .*L2 (\d+) KiB", line)
        if m:
            l2 = int(m.group(1))
        m = re.match(r"^chapter (\d) \(GPU\d\)\s+([\d.]+)\s+([\d.]+)%\s+([\d.]+)$", line)
        if m and size:
            events[(size, int(m.group(1)))] = {"ms": float(m.group(2)), "ms_text": m.group(2), "gflops_text": m.group(4)}
        m = re.match(r"^\$ ncu .* -k (gpu\d) .*\./surf (\d+) ", line)
        if m:
            kernel, size = m.group(1), int(m.group(2))
            out[(size, kernel)] = {}
            continue
        m = re.match(r"^\s+([a-z0-9_]+__[a-z0-9_.]+)\s+(?:\S+\s+)?([\d,]+(?:\.\d+)?)$", line)
        if m and kernel:
            out[(size, kernel)][m.group(1)] = float(m.group(2).replace(",", ""))
    return head, out, events, l2


def run_model(cltutor, chapter, device):
    cmd = [cltutor, "analyze", str(chapter), "--solution", "--size", MODEL_SIZE, "--groups", str(MODEL_GROUPS),
           "--gpu", device, "--json"]
    env = dict(os.environ, CLTUTOR_DATA=os.environ.get("CLTUTOR_DATA", ROOT), NO_COLOR="1")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        die("%s gave no JSON (exit %d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()[:400]))
    if j.get("status") != "ok":
        die("%s: %s" % (" ".join(cmd), j.get("message", j.get("status"))))
    k = j["kernels"][0]
    load = k["summary"]["global_load"]
    pred = j.get("prediction") or {}
    counts = (pred.get("kernels") or [{}])[0].get("counts", {})
    n_model = int(j["size"].split("x")[0])
    return {"command": "cltutor " + " ".join(cmd[1:]), "size": j["size"], "n": n_model,
            "requests": load["requests"], "bytes_requested": load["bytes_requested"],
            "sectors": load["sectors"], "bytes_moved": load["bytes_moved"],
            "l1_lines_bench": counts.get("l1_lines"), "pred_ms": pred.get("predicted_ms"),
            "pred_limit": pred.get("limit_text"), "pred_size": pred.get("size")}


def fmt(x, d=1):
    return "%.*f" % (d, x)


def table(rows, head, left=(0,)):
    """Columns two spaces apart, numbers to the right; the columns in left (and the last, when
    it is text) to the left."""
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "  ".join(str(c).ljust(w) if i in left else str(c).rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join([line(head)] + [line(r) for r in rows])


def short(name):
    """A bench file's column label: nvidia-h200-bench.txt -> h200, final-nvidia-h200-bench.txt -> final."""
    label = name.replace("-bench.txt", "")
    return re.sub(r"-?nvidia-h\d00$", "", label) or label.replace("nvidia-", "")


def write_device(dev_id, models, ncu, args):
    d = DEVICES[dev_id]
    benches = [parse_bench(b) for b in d["bench"]]
    main = benches[0]
    cl = parse_clinfo(d["clinfo"], d["name"])
    prof = parse_profile(d["profile"])
    ncu_head, ncu_metrics, ncu_events, ncu_l2 = ncu
    n, c, f = bench_size("04-float4")
    flops = 3 * n * c * f
    ncu_at = lambda ch, key: ncu_metrics[(n, NCU_KERNEL[ch])][key]
    own = d["ncu_is_own"]

    # the roofs
    g = ncu_metrics[(n, "gpu3")]
    lanes = int(g["sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"] / cl["cu"])
    fp32 = cl["cu"] * lanes * 2 * cl["mhz"] / 1e3                        # GFLOP/s
    l1_roof = prof["l1_lines"] * LINE                                    # GB/s
    if own:
        dram_roof = g["dram__bytes.sum.peak_sustained"] * g["dram__cycles_elapsed.avg.per_second"] / 1e9
        l2_roof = g["lts__t_bytes.sum.peak_sustained"] * g["lts__cycles_elapsed.avg.per_second"] / 1e9
    else:
        dram_roof = d["sheet_dram_tb_s"] * 1e3
        l2_roof = None

    o = []
    w = o.append
    w("Hierarchical roofline of chapters 2, 3 and 4 on the %s" % d["name"])
    w("written by: python3 bench/lessons/roofline.py --device %s (%s)" % (dev_id, args.date))
    w("")
    w("Problem: %d descriptors x %d centroids x %d features, the bench_size." % (n, c, f))
    w("FLOPs: 3 per feature and centroid (subtract, multiply, add), %d in all," % flops)
    w("%d per descriptor. The compilers fuse the multiply and the add: 2" % (flops // n))
    w("instructions (a subtraction, an fma) for 3 FLOPs. Nsight Compute counted,")
    ch3m = ncu_metrics[(n, "gpu2")]
    w("on chapter 3's kernel, %d fadd + 2 x %d ffma: the same FLOPs." % (
        ch3m["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"], ch3m["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"]))
    w("")
    w("== Roofs ==")
    w("")
    rows = [["FP32", fmt(fp32), "GFLOP/s", "%s: %d compute units, %d MHz," % (d["clinfo"], cl["cu"], cl["mhz"])],
            ["", "", "", "x %d FP32 lanes (ncu's ffma peak, compute capability %s) x 2" % (lanes, cl["cc"])],
            ["", main["fp32_text"], "GFLOP/s", "measured: %s, FP32 peak (%s)" % (main["file"], main["date"])],
            ["", fmt(d["sheet_fp32_tflops"] * 1e3, 0), "GFLOP/s", "outside source: %s" % d["datasheet"]]]
    if own:
        rows += [["DRAM", fmt(dram_roof), "GB/s", "ncu: dram__bytes.sum.peak_sustained, %d B/cycle" % g["dram__bytes.sum.peak_sustained"]],
                 ["", "", "", "x dram__cycles_elapsed.avg.per_second, %.4f GHz" % (g["dram__cycles_elapsed.avg.per_second"] / 1e9)]]
    rows += [["" if own else "DRAM", fmt(d["sheet_dram_tb_s"] * 1e3, 0), "GB/s", "outside source: %s, %s" % (d["datasheet"], d["memory"])],
             ["", main["copy_text"], "GB/s", "measured copy, read + write: %s" % main["file"]]]
    if l2_roof:
        rows += [["L2", fmt(l2_roof), "GB/s", "ncu: lts__t_bytes.sum.peak_sustained, %d B/cycle" % g["lts__t_bytes.sum.peak_sustained"]],
                 ["", "", "", "x lts__cycles_elapsed.avg.per_second, %.4f GHz" % (g["lts__cycles_elapsed.avg.per_second"] / 1e9)]]
    else:
        rows += [["L2", "n/a", "", "not measured: no profile of this GPU here"]]
    rows += [["L1", fmt(l1_roof), "GB/s", "%s: l1_lines_g_per_s %s x 128 B" % (d["profile"], prof["l1_lines"])],
             ["", "", "", "(%s)" % prof["source"]]]
    w(table(rows, ["level", "peak", "unit", "source"], left=(0, 2, 3)))
    w("")
    w("The roofs below use the peaks: FP32 %s GFLOP/s, DRAM %s GB/s." % (fmt(fp32), fmt(dram_roof)))
    w("The L1 serves one 128-byte line per cycle per SM, whatever the bytes used in")
    w("it: its roof is that line rate, measured, and a kernel's L1 bytes are the")
    w("lines its loads touch x 128 B. A warp's coalesced 4-byte load touches 1 line")
    w("for its 128 bytes; chapter 2's descriptor load touches 32 for the same 128.")
    if own:
        l1b = g["l1tex__t_bytes.sum.peak_sustained"] * cl["mhz"] / 1e3
        w("(ncu's byte peak, l1tex__t_bytes.sum.peak_sustained %d B/cycle, gives" % g["l1tex__t_bytes.sum.peak_sustained"])
        w("%s GB/s, which such loads never reach: chapter 2 keeps the L1's data" % fmt(l1b))
        w("pipe %s%% busy, l1tex__data_pipe_lsu_wavefronts, moving %s GB/s of sectors.)" % (
            fmt(ncu_at(2, "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_active"), 2),
            fmt(ncu_at(2, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") * SECTOR / ncu_at(2, "gpu__time_duration.sum"), 1)))
    w("")

    # bytes per level
    w("== Bytes per level, whole launch; per descriptor below each ==")
    w("")
    w("requested: lanes x 4 B of every load (GPU model)")
    w("L1: lines the loads touch x 128 B")
    w("    (ncu: l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum)")
    w("sectors: 32-byte sectors the loads touch x 32 B")
    w("    (ncu: l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)")
    w("L2: sectors the L1 read from L2 x 32 B (ncu: lts__t_sectors_srcunit_tex_op_read.sum)")
    w("DRAM: bytes read from DRAM (ncu: dram__bytes_read.sum)")
    w("GPU model: %s," % models[2]["command"].replace(" 2 ", " N ", 1))
    w("    scaled from %d to %d descriptors" % (models[2]["n"], n))
    if not own:
        w("ncu's counts are the H200's (no H100 was profiled), assumed the same here.")
    w("")
    needed = n * f * 4 + c * f * 4 + c * 4
    lv = {}
    rows = []
    for ch, folder, gpu in CHAPTERS:
        mo = models[ch]
        scale = n / mo["n"]
        req = mo["bytes_requested"] * scale
        l1 = ncu_at(ch, "l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum") * LINE
        sec = ncu_at(ch, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") * SECTOR
        l2 = ncu_at(ch, "lts__t_sectors_srcunit_tex_op_read.sum") * SECTOR
        dram = ncu_at(ch, "dram__bytes_read.sum")
        lv[ch] = {"req": req, "L1": l1, "sec": sec, "L2": l2, "DRAM": dram}
        rows.append(["%d %s" % (ch, gpu), "%d" % req, "%d" % l1, "%d" % sec, "%d" % l2, "%d" % dram])
        rows.append(["", "%d" % (req / n), "%d" % (l1 / n), "%d" % (sec / n), "%d" % (l2 / n), "%d" % (dram / n)])
    w(table(rows, ["kernel", "requested", "L1", "sectors", "L2", "DRAM"]))
    w("needed from DRAM, each input read once: %d B, %d per descriptor" % (needed, needed // n))
    w("L1 lines of chapter 2's loads against chapter 3's: %sx; DRAM bytes read against" % fmt(lv[2]["L1"] / lv[3]["L1"], 2))
    w("those needed, chapter 4: %sx" % fmt(lv[4]["DRAM"] / needed, 1))
    w("")
    w("ncu against the GPU model, bench size:")
    rows = []
    for ch, folder, gpu in CHAPTERS:
        mo = models[ch]
        scale = n / mo["n"]
        rows.append(["%d %s" % (ch, gpu), "%d" % (mo["requests"] * scale), "%d" % ncu_at(ch, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
                     "%d" % (mo["l1_lines_bench"]), "%d" % ncu_at(ch, "l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum"),
                     "%d" % (mo["sectors"] * scale), "%d" % ncu_at(ch, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")])
    w(table(rows, ["kernel", "requests", "ncu", "lines", "ncu", "sectors", "ncu"]))
    w("Chapter 4: the model takes vload4 as one 16-byte load; NVIDIA's compilers")
    w("keep four 4-byte loads (docs/results/ch4-loads-nvidia-h200.txt), and ncu")
    w("counts those, as many requests as chapter 3's.")
    w("")

    # intensity and roofs
    w("== Arithmetic intensity I (FLOP/B) and the rate each roof allows (GFLOP/s) ==")
    w("")
    roofs = [("DRAM", dram_roof), ("L2", l2_roof), ("L1", l1_roof)]
    rows = []
    binding = {}
    for ch, folder, gpu in CHAPTERS:
        r = ["%d %s" % (ch, gpu)]
        best = ("FP32", fp32)
        for name, roof in roofs:
            inten = flops / lv[ch][name]
            r.append(fmt(inten, 4))
            if roof:
                att = inten * roof
                r.append(fmt(att))
                if att < best[1]:
                    best = (name, att)
            else:
                r.append("n/a")
        binding[ch] = best
        rows.append(r)
    w(table(rows, ["kernel", "DRAM I", "roof", "L2 I", "roof", "L1 I", "roof"]))
    w("With only the DRAM bytes needed: I = %s FLOP/B, roof %s GFLOP/s," % (fmt(flops / needed, 1), fmt(flops / needed * dram_roof, 0)))
    w("above the FP32 peak, %s GFLOP/s." % fmt(fp32))
    w("Ridge points, FP32 peak / bandwidth: DRAM %s, L2 %s, L1 %s FLOP/B." % (
        fmt(fp32 / dram_roof, 1), fmt(fp32 / l2_roof, 1) if l2_roof else "n/a", fmt(fp32 / l1_roof, 2)))
    w("")
    w("== The lowest roof against the rates measured (GFLOP/s) ==")
    w("")
    rows = []
    for ch, folder, gpu in CHAPTERS:
        name, att = binding[ch]
        rows.append(["%d %s" % (ch, gpu), name, fmt(att)] + [b["rows"][ch]["gflops_text"] for b in benches])
    w(table(rows, ["kernel", "binds", "roof"] + [short(b["file"]) for b in benches]))
    w("")
    w("Measured: `cltutor bench all` (OpenCL), each file's GFLOP/s column:")
    for b in benches:
        w("  %s: docs/results/%s, %s" % (short(b["file"]), b["file"], b["date"]))
    over = [(ch, b) for ch, _, _ in CHAPTERS for b in benches if b["rows"][ch]["gflops"] > binding[ch][1]]
    if over:
        w("Above its roof: the roof takes the DRAM bytes of the profiled CUDA launch; a")
        w("faster run read fewer. At the DRAM peak, each such run read at most:")
        for ch, b in over:
            w("  chapter %d, %s: %s GFLOP/s, at most %d B from DRAM" % (
                ch, short(b["file"]), b["rows"][ch]["gflops_text"], flops / b["rows"][ch]["gflops"] * dram_roof))
        w("ncu counts CUDA launches only; no OpenCL run's DRAM bytes were counted.")
    w("")
    w("The same runs as times, spread (max - min over median), and their limits:")
    rows = [["%d %s" % (ch, gpu)] + ["%s %s%%" % (b["rows"][ch]["median_text"], b["rows"][ch]["spread"]) for b in benches]
            for ch, folder, gpu in CHAPTERS]
    rows.append(["copy GB/s"] + [b["copy_text"] for b in benches])
    rows.append(["FP32 GFLOP/s"] + [b["fp32_text"] for b in benches])
    w(table(rows, [""] + [short(b["file"]) for b in benches]))
    w("")

    # what the profiler saw
    if own:
        w("== Nsight Compute, one launch of each CUDA port (%s) ==" % ncu_head["date (UTC)"][:10])
        w("")
        rows = []
        for ch, folder, gpu in CHAPTERS:
            t = ncu_at(ch, "gpu__time_duration.sum") * 1e-9
            rows.append(["%d %s" % (ch, gpu), fmt(t * 1e3, 3), fmt(flops / t / 1e9), fmt(lv[ch]["DRAM"] / t / 1e9),
                         fmt(ncu_at(ch, "dram__throughput.avg.pct_of_peak_sustained_elapsed"), 2),
                         fmt(ncu_at(ch, "lts__throughput.avg.pct_of_peak_sustained_elapsed"), 2),
                         fmt(ncu_at(ch, "l1tex__throughput.avg.pct_of_peak_sustained_active"), 2)])
        w(table(rows, ["kernel", "ms", "GFLOP/s", "DRAM GB/s", "DRAM %", "L2 %", "L1 %"]))
        w("ms: gpu__time_duration; %: each unit's throughput against its peak")
        w("CUDA events, median of 20 launches:")
        for ch, _, _ in CHAPTERS:
            ev = ncu_events[(n, ch)]
            w("  chapter %d: %s ms, %s GFLOP/s" % (ch, ev["ms_text"], ev["gflops_text"]))
        w("Hit rates of the loads' sectors, in L1 and in L2:")
        for ch, _, _ in CHAPTERS:
            w("  chapter %d: %s%% and %s%%" % (ch,
                fmt(100 * ncu_at(ch, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum") / ncu_at(ch, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 1),
                fmt(100 * ncu_at(ch, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum") / ncu_at(ch, "lts__t_sectors_srcunit_tex_op_read.sum"), 1)))
        w("Warps active, of the SM's maximum (sm__warps_active): " + ", ".join("%s%%" % (
            fmt(ncu_at(ch, "sm__warps_active.avg.pct_of_peak_sustained_active"), 2)) for ch, _, _ in CHAPTERS))
        w("The L2 holds %d KiB (cudaGetDeviceProperties); the descriptors take" % ncu_l2)
        w("%d KiB: each pass of the loop over centroids reads them all again." % (n * f * 4 // 1024))
        w("")
        half = sorted({s for (s, k) in ncu_metrics if s != n})
        for h in half:
            w("== The same kernels at %d descriptors, %d KiB of them ==" % (h, h * f * 4 // 1024))
            w("")
            rows = []
            for ch, folder, gpu in CHAPTERS:
                m = ncu_metrics[(h, NCU_KERNEL[ch])]
                ev = ncu_events[(h, ch)]
                rows.append(["%d %s" % (ch, gpu), ev["ms_text"], ev["gflops_text"], "%d" % m["dram__bytes_read.sum"],
                             fmt(m["dram__throughput.avg.pct_of_peak_sustained_elapsed"], 2),
                             fmt(m["lts__throughput.avg.pct_of_peak_sustained_elapsed"], 2),
                             fmt(m["l1tex__throughput.avg.pct_of_peak_sustained_active"], 2)])
            w(table(rows, ["kernel", "ms", "GFLOP/s", "DRAM B", "DRAM %", "L2 %", "L1 %"]))
            w("ms, GFLOP/s: CUDA events, median of 20; the rest: ncu, one launch")
            for ch, _, _ in CHAPTERS:
                a, b = ncu_events[(n, ch)], ncu_events[(h, ch)]
                w("  chapter %d: %s GFLOP/s at %d, %s at %d: %sx the rate" % (
                    ch, a["gflops_text"], n, b["gflops_text"], h, fmt(float(b["gflops_text"]) / float(a["gflops_text"]), 2)))
            w("")
    else:
        w("== Measured here without a profiler ==")
        w("")
        w("No H100 was profiled. The committed benches, against the H200's (the first")
        w("file of each):")
        h200 = parse_bench(DEVICES["nvidia-h200"]["bench"][0])
        for ch, folder, gpu in CHAPTERS:
            a, b = main["rows"][ch], h200["rows"][ch]
            w("  chapter %d: %s here, %s on the H200: %sx" % (ch, a["median_text"], b["median_text"], fmt(a["median_ms"] / b["median_ms"], 2)))
        w("  copy: %s GB/s here, %s GB/s on the H200: %sx" % (main["copy_text"], h200["copy_text"], fmt(h200["copy"] / main["copy"], 2)))
        w("A kernel held by DRAM slows by about the ratio of the copy rates; one held")
        w("by the L1, whose line rate is the same on both (%s here, %s on the" % (
            prof["l1_lines"], parse_profile(DEVICES["nvidia-h200"]["profile"])["l1_lines"]))
        w("H200, G lines/s), does not.")
        w("")

    w("== The GPU model's prediction (no caches: every sector it moves is DRAM) ==")
    w("")
    for ch, folder, gpu in CHAPTERS:
        mo = models[ch]
        w("chapter %d: %s ms at %s, %s" % (ch, fmt(mo["pred_ms"], 3), mo["pred_size"], mo["pred_limit"]))
    w("")
    w("Sources: the committed files named above;")
    w("ncu: docs/results/%s" % NCU_FILE)
    w("(%s; ncu %s;" % (ncu_head["GPU, driver, max SM and memory clocks"], ncu_head["ncu"].split(" (")[0].replace("Version ", "")))
    w("sh bench/roofline/run-gpu.sh OUT). Outside source, for the peaks marked so:")
    w("%s; not measured here." % d["datasheet"])
    path = os.path.join(args.out, "roofline-%s.txt" % dev_id)
    with open(path, "w", encoding="utf-8") as fo:
        fo.write("\n".join(o) + "\n")
    print("wrote %s" % os.path.relpath(path, ROOT))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="all", choices=["all"] + sorted(DEVICES))
    ap.add_argument("--cltutor", default=os.environ.get("CLTUTOR"), help="the cltutor binary (default: $CLTUTOR, build/cltutor, build-dev/cltutor)")
    ap.add_argument("--out", default=os.path.join(RESULTS, "lessons"))
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    args = ap.parse_args()
    if not args.cltutor:
        for cand in ("build/cltutor", "build-dev/cltutor"):
            if os.access(os.path.join(ROOT, cand), os.X_OK):
                args.cltutor = os.path.join(ROOT, cand)
                break
    if not args.cltutor:
        die("no cltutor binary: build it (make) or pass --cltutor PATH")
    devices = sorted(DEVICES) if args.device == "all" else [args.device]
    ncu = parse_ncu(NCU_FILE)
    os.makedirs(args.out, exist_ok=True)
    for dev in devices:
        with concurrent.futures.ThreadPoolExecutor(3) as ex:
            futs = {ch: ex.submit(run_model, args.cltutor, ch, dev) for ch, _, _ in CHAPTERS}
            models = {ch: fu.result() for ch, fu in futs.items()}
        write_device(dev, models, ncu, args)


if __name__ == "__main__":
    main()
