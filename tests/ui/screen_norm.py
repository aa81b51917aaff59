#!/usr/bin/env python3
"""screen_norm — a captured screen with what differs from machine to machine
and run to run replaced by fixed marks, so that it can be compared with a
stored one: the device's name (whole, or cut to fit), times, rates, ratios,
dates, and the scratch folder's path.
    tmux capture-pane -p | python3 screen_norm.py DEVICE_NAME [SCRATCH_DIR]"""
import re
import sys

device = sys.argv[1] if len(sys.argv) > 1 else ""
scratch = sys.argv[2] if len(sys.argv) > 2 else ""
text = sys.stdin.read()
if scratch:
    text = text.replace(scratch, "<tmp>")
# the scratch folder's path cut short by a dialog drawn over it
text = re.sub(r"/tmp/tmp\.[A-Za-z0-9]{1,10}", "<tmp>", text)
if device:
    text = text.replace(device, "<device>")
    # the device's name cut to fit a narrow bar ends in an ellipsis
    for n in range(len(device) - 1, 3, -1):
        text = text.replace(device[:n] + "…", "<device>…").replace(device[:n] + "~", "<device>~")
rules = [
    (r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?", "<date>"),
    (r"\d+(\.\d+)?x (faster|slower)", r"#x \2"),
    (r"(快|慢) \d+(\.\d+)? 倍", r"\1 # 倍"),
    (r"\d+(\.\d+)? ?(ms|µs|us|ns|GB/s|GFLOP/s|s|秒)\b", r"# \2"),
    (r"\d+(\.\d+)? ?(ms|µs|us|ns|秒)", r"# \2"),
    (r"±\d+(\.\d+)?%", "±#%"),
    (r"(faster|slower)", "<faster/slower>"),
    (r"(快|慢) # 倍", "<快/慢> # 倍"),
    # a reference is timed after the learner's run: measured or not yet, the screen is the same
    (r"vs chapter (\d+): measuring…", r"vs chapter \1: #x <faster/slower>"),
    (r"对比第 (\d+) 章：测量中…", r"对比第 \1 章：<快/慢> # 倍"),
]
for pattern, repl in rules:
    text = re.sub(pattern, repl, text)
# trailing spaces say nothing
sys.stdout.write("\n".join(line.rstrip() for line in text.split("\n")))
