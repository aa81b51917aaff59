#!/usr/bin/env python3
"""check-terms — the Chinese texts use the glossary's words.

docs/glossary.md has a table whose header names an "avoid" column: for each
term, the Chinese words not to use for it (comma-separated). Every msgstr of
po/zh_CN.po, every lessons/*/lesson.zh.md and every Chinese value of
lessons/*/lesson.ini (title_zh, zh.N) is searched for them.

    python3 scripts/check-terms.py [ROOT]
Prints "FILE:LINE: uses 'WORD' (glossary: USE)" for each and exits 1 if any."""
import glob
import os
import re
import sys


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
    for f, n, line in texts(root):
        for word, use in words:
            if word in line:
                print(f"{os.path.relpath(f, root)}:{n}: uses '{word}' (glossary: {use})")
                bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
