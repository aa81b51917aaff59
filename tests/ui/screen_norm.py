#!/usr/bin/env python3
"""screen_norm — a captured screen with what differs from machine to machine
and run to run replaced by fixed marks, so that it can be compared with a
stored one: the device's name (whole, cut to fit, or cut by the screen's edge), times and their
units, rates, ratios
(a machine under load can make two kernels "about as fast"), dates, the
scratch folder's path, and in the top bar the padding and the title that a
longer device name pushes out.
    tmux capture-pane -p | python3 screen_norm.py DEVICE_NAME [SCRATCH_DIR]
    python3 screen_norm.py --stored < STORED   (the top bar alone: stored screens are normalised already)"""
import re
import sys



def top_bar(text):
    """The first line, where a right-aligned device name takes the room of the title: the program's
    name and version with the course's title dropped, and runs of spaces made one double space."""
    lines = text.split("\n")
    if lines and "<device>" in lines[0]:
        head = re.sub(r"^( ?cltutor) \d+\.\d+\.\d+ · .*?(?= {2,}|$)", r"\1", lines[0])
        lines[0] = re.sub(r" {2,}", "  ", head)
    return "\n".join(lines)


def time_units(text):
    """A time's unit made one mark (a slow machine can take 1.02 s where another takes 304.2 ms),
    and the padding beside it one double space, as a field's width follows its unit."""
    text = re.sub(r"# (ms|µs|us|ns|s|秒)(?![A-Za-z])", "# <time>", text)
    return re.sub(r" {2,}# <time> {2,}| {2,}# <time>|# <time> {2,}",
                  lambda m: ("  " if m.group(0).startswith("  ") else "") + "# <time>" +
                  ("  " if m.group(0).endswith("  ") else ""), text)


if len(sys.argv) > 1 and sys.argv[1] == "--stored":
    sys.stdout.write(time_units(top_bar(sys.stdin.read())))
    sys.exit(0)
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
    # or cut by the screen's edge (a long name where a shorter one fits): a line ending in a part of it
    for n in range(len(device) - 1, 7, -1):
        text = re.sub(re.escape(device[:n]) + r"$", "<device>", text, flags=re.M)
text = top_bar(text)
rules = [
    # a machine under load can time two kernels alike
    (r"about as fast", "1.0x faster"),
    (r"速度相当", "快 1.0 倍"),
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
text = time_units(text)
# trailing spaces say nothing
sys.stdout.write("\n".join(line.rstrip() for line in text.split("\n")))
