#!/usr/bin/env python3
"""english_left — the English words left on a screen of the course in Chinese:
words of three letters or more outside code, paths, options, names, units and
the compiler's own diagnostics (quoted as it wrote them).
    english_left.py SCREEN_FILE ALLOWED_WORDS_FILE
Prints each line that holds such a word, with the words; exits 1 if any."""
import re
import sys

screen = open(sys.argv[1], encoding="utf-8").read().split("\n")
allowed = set(open(sys.argv[2], encoding="utf-8").read().split())
# names, units, keys and the simulator's and runtimes' own words, kept in every language
allowed |= set("""OpenCL GPU GPUs CPU PoCL Oclgrind NVIDIA AMD EPYC Intel SURF NPP PyTorch cltutor EN
    ms us GB MB KB KiB MiB SIMD SIMT LLVM CUDA API TAP JSON JUnit Gradescope UTF
    Enter Tab Esc Ctrl Space PgUp PgDn Home End Shift Backspace
    float float4 uint uint4 int char uchar local global constant private kernel barrier atomic_inc atomic_add
    random onebin ties serial OpenMP sectors req warp efficiency""".split())
bad = 0
in_diagnostic = 0
for n, line in enumerate(screen, 1):
    # the compiler's own diagnostics, quoted as it wrote them (PoCL warns of the CPU's vector ABI on some
    # machines), and their wrapped continuation lines
    if re.match(r"^\s{0,2}(\S+:\d+:\d+: )?(warning|error|note|fatal error): ", line):
        in_diagnostic = 1
        continue
    if in_diagnostic and re.match(r"^\s{3,}\S", line):
        continue
    in_diagnostic = 0
    text = re.sub(r"`[^`]*`", " ", line)                 # inline code
    text = re.sub(r"\S*/\S*", " ", text)                  # paths, GB/s, a/b
    text = re.sub(r"--?[A-Za-z][\w-]*", " ", text)        # options
    text = re.sub(r"\S+\.(cl|ini|md|json|c|h)\b", " ", text)
    text = re.sub(r"\b\w*[_\d]\w*\b", " ", text)          # identifiers with _ or digits, sizes, numbers
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]{2,}", text) if w not in allowed]
    if words:
        bad = 1
        print("%3d: %s   <- %s" % (n, line.rstrip(), " ".join(sorted(set(words)))))
sys.exit(bad)
