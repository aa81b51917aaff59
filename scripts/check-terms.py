#!/usr/bin/env python3
"""check-terms — the Chinese texts use the glossary's words.

docs/glossary.md has a table whose header names an "avoid" column: for each
term, the Chinese words not to use for it (comma-separated). Every msgstr of
po/zh_CN.po, every lessons/*/lesson.zh.md and every Chinese value of
lessons/*/lesson.ini (title_zh, zh.N) is searched for them.

Besides single words, a few phrases that read wrong are caught by pattern
(SLIPS below): a slip is a regular expression, the files it applies to, and
what to write instead.

    python3 scripts/check-terms.py [ROOT]
Prints "FILE:LINE: uses 'WORD' (glossary: USE)" or "FILE:LINE: says 'TEXT'
(WHY)" for each and exits 1 if any."""
import glob
import os
import re
import sys


# (pattern, the files it applies to as a path fragment or None for all, what to write instead)
SLIPS = [
    # every test size is an integer: the advice is against round numbers
    (re.compile(r"不要取整数"), None, "sizes are always integers: 不要取整齐的数（如 2 的幂）"),
    # work-efficient is 工作高效: a bare 高效 before a scan, a tree or the English term
    (re.compile(r"(?<!工作)高效(?=的?(?:扫描|树|前缀和|算法)|（work-efficient）|\(work-efficient\))"), None,
     "work-efficient is 工作高效 (glossary)"),
    # in the scan chapter every 高效 but the adverb 高效地 is the work-efficient one
    (re.compile(r"(?<!工作)高效(?!地)"), "lessons/08-scan/", "work-efficient is 工作高效 (glossary); 高效地 for efficiently"),
    # atomics do not synchronise work-groups: a spin barrier can hang, no group is promised to be running
    (re.compile(r"结束内核[，,、]?\s*或(?:者)?(?:是)?(?:使)?用原子操作"), None,
     "no barrier of all groups: end the kernel and start another (atomics only hand data over)"),
    # NVIDIA merges a warp's loads of one address at run time; the compiler does not decide it
    (re.compile(r"编译器(?:能|可以)?看得?出"), "lessons/06-constant/",
     "the uniform centroid read is merged by the hardware at run time, not seen by the compiler"),
    # the model's traffic falls 6.6x, not six times
    (re.compile(r"六分之一"), "lessons/03-coalesced/", "the traffic falls 6.6x: 减少为原来的 1/6.6"),
    # chapter 7 cites two books and defines neither as 原书 (Heterogeneous Computing with OpenCL 2.0 elsewhere)
    (re.compile(r"原书"), "lessons/07-bank-conflicts/", "name the book: 该书, 《OpenCL Programming by Example》"),
]


def avoid_list(root):
    path = os.path.join(root, "docs/glossary.md")
    rows, col, zh_col = [], None, None
    for line in open(path, encoding="utf-8"):
        if not line.startswith("|"):
            col = None if not line.strip() else col
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if col is None:
            low = [c.lower() for c in cells]
            if "avoid" in low:
                col = low.index("avoid")
                zh_col = next((i for i, c in enumerate(cells) if "中文" in c or "chinese" in c.lower()), 1)
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        for word in re.split(r"[,，、]", cells[col] if col < len(cells) else ""):
            word = word.strip().strip("`")
            if word and word not in ("-", "—"):
                rows.append((word, cells[zh_col]))
    if not rows:
        sys.exit(f"{path}: no table with an 'avoid' column")
    return rows


def texts(root):
    """(file, line number, text) of every Chinese text to check."""
    po = os.path.join(root, "po/zh_CN.po")
    in_str = False
    for n, line in enumerate(open(po, encoding="utf-8"), 1):
        if line.startswith("msgstr"):
            in_str = True
        elif not line.startswith('"'):
            in_str = False
        if in_str:
            yield po, n, line
    for f in sorted(glob.glob(os.path.join(root, "lessons/*/lesson.zh.md"))):
        for n, line in enumerate(open(f, encoding="utf-8"), 1):
            yield f, n, line
    for f in sorted(glob.glob(os.path.join(root, "lessons/*/lesson.ini"))):
        key = None
        for n, line in enumerate(open(f, encoding="utf-8"), 1):
            m = re.match(r"^([A-Za-z0-9_.]+)\s*=", line)
            if m:
                key = m.group(1)
            elif not line.startswith((" ", "\t")):
                key = None
            if key and (key.startswith("zh.") or key.endswith("_zh")):
                yield f, n, line


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    words = avoid_list(root)
    bad = 0
    lines = list(texts(root))
    for i, (f, n, line) in enumerate(lines):
        rel = os.path.relpath(f, root)
        for word, use in words:
            if word in line:
                print(f"{rel}:{n}: uses '{word}' (glossary: {use})")
                bad += 1
        # A wrapped Markdown paragraph breaks between two Chinese characters
        # and is read joined: give a slip the end of the line before and the
        # start of the line after, and report it on the line it starts in.
        text = line.strip()
        before = after = ""
        if f.endswith(".md"):
            if i > 0 and lines[i - 1][0] == f and lines[i - 1][1] == n - 1:
                before = lines[i - 1][2].strip()[-4:]
            if i + 1 < len(lines) and lines[i + 1][0] == f and lines[i + 1][1] == n + 1:
                after = lines[i + 1][2].strip()[:16]
        joined = before + text + after
        seen = set()
        for pat, where, why in SLIPS:
            if where and where not in rel.replace(os.sep, "/"):
                continue
            for m in pat.finditer(joined):
                if len(before) <= m.start() < len(before) + len(text) and m.start() not in seen:
                    seen.add(m.start())
                    print(f"{rel}:{n}: says '{m.group(0)}' ({why})")
                    bad += 1
                    break
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
