#!/usr/bin/env python3
"""wrap-md — one line-wrapping style for the lessons' Markdown.

Paragraphs and list items are wrapped at 80 display columns (a CJK
character counts two). Headings, tables, code blocks, quotes and lines of
HTML are left alone. A line may break at a space (unless wide characters
stand on both sides of it) or between two wide characters, never inside a
code span or a link, never where the next line would start a list, a
heading, a quote or a table, never before closing punctuation nor after
opening punctuation. The course's renderer (and md4c) joins two lines with
a space unless the first ends and the second starts with a wide character,
so wrapping never changes what a learner reads.

    python3 scripts/wrap-md.py FILE...          rewrite the files
    python3 scripts/wrap-md.py --check FILE...  exit 1 naming each file that is not wrapped so
"""
import re
import sys
import unicodedata

WIDTH = 80
NO_LINE_START = set("，。、；：！？）」』》〉】’”…%,.;:!?)]}")
NO_LINE_END = set("（「『《〈【‘“([{")
BLOCK_START = re.compile(r"^(\s*)([-+*]|\d+[.)])\s|^\s*(#|>|\||```|~~~|<|={3,}|-{3,})")


def wide(ch):
    return unicodedata.east_asian_width(ch) in ("W", "F")


def width(s):
    return sum(2 if wide(c) else 1 for c in s)


def join(lines):
    """The paragraph's text, joined as the renderer joins soft line breaks."""
    out = lines[0].strip()
    for nxt in lines[1:]:
        nxt = nxt.strip()
        if out and nxt and wide(out[-1]) and wide(nxt[0]):
            out += nxt
        else:
            out += " " + nxt
    return out


def atoms(text):
    """Pieces that never break inside: code spans, links, and runs of non-space ASCII."""
    pieces = []
    i = 0
    pat = re.compile(r"`+|!?\[[^\]]*\]\([^)]*\)")
    while i < len(text):
        m = pat.match(text, i)
        if m and m.group(0).startswith("`"):
            ticks = m.group(0)
            end = text.find(ticks, m.end())
            end = len(text) if end < 0 else end + len(ticks)
            pieces.append(text[i:end])
            i = end
        elif m:
            pieces.append(m.group(0))
            i = m.end()
        else:
            pieces.append(text[i])
            i += 1
    return pieces


def break_ok(before, after, rest):
    """May a line end with before and the next start with after (rest: the next line's text)?"""
    if not before or not after:
        return False
    if after[0] in NO_LINE_START or before[-1] in NO_LINE_END:
        return False
    if BLOCK_START.match(rest):
        return False
    return True


def wrap(text, first, other):
    """Greedy wrapping of one paragraph's text; first/other: the prefixes of its lines."""
    pieces = atoms(text)
    lines = []
    line = first
    breaks = []  # (index in line, consumes a space) where this line may end
    for i, p in enumerate(pieces):
        if p == " ":
            prev = line[-1:] if line.strip() else ""
            nxt = pieces[i + 1] if i + 1 < len(pieces) else ""
            if not (prev and nxt and wide(prev[-1]) and wide(nxt[0])):
                breaks.append((len(line), True))
        elif line.strip() and wide(p[0]) and wide(line[-1]):
            breaks.append((len(line), False))
        line += p
        rest = "".join(pieces[i + 1:])
        while width(line) > WIDTH:
            for at, space in reversed(breaks):
                head, tail = line[:at].rstrip(), line[at + (1 if space else 0):]
                if head.strip() == first.strip() or not tail or not break_ok(head, tail, tail + rest):
                    continue
                lines.append(head)
                shift = at + (1 if space else 0) - len(other)
                line = other + tail
                breaks = [(b - shift, sp) for b, sp in breaks if b > at]
                break
            else:
                break  # no place to break: the line stays long
    lines.append(line.rstrip())
    return lines


def wrap_file(src):
    out = []
    lines = src.split("\n")
    i = 0
    fence = None
    while i < len(lines):
        ln = lines[i]
        s = ln.strip()
        if fence:
            out.append(ln)
            if s.startswith(fence):
                fence = None
            i += 1
            continue
        if s.startswith("```") or s.startswith("~~~"):
            fence = s[:3]
            out.append(ln)
            i += 1
            continue
        if not s or re.match(r"^\s*(#|\||>|<|={3,}$|-{3,}$)", ln) or ln.startswith("    "):
            out.append(ln)
            i += 1
            continue
        m = re.match(r"^(\s*)([-+*]|\d+[.)])(\s+)", ln)
        if m:
            first = m.group(0)
            other = " " * len(first)
            body = [ln[len(first):]]
            i += 1
            while i < len(lines) and lines[i].strip() and lines[i].startswith(other) and not BLOCK_START.match(lines[i]):
                body.append(lines[i])
                i += 1
        else:
            first = other = re.match(r"^\s*", ln).group(0)
            body = [ln]
            i += 1
            while i < len(lines) and lines[i].strip() and not BLOCK_START.match(lines[i]) and not lines[i].startswith("    "):
                body.append(lines[i])
                i += 1
        hard = [b.endswith("  ") or b.endswith("\\") for b in body]
        if any(hard[:-1]):  # hard line breaks: leave the paragraph as written
            out.extend([first + body[0].lstrip()] + body[1:] if m else body)
            continue
        out.extend(wrap(join(body), first, other))
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    check = bool(args) and args[0] == "--check"
    files = args[1:] if check else args
    if not files:
        sys.exit(__doc__)
    bad = 0
    for f in files:
        src = open(f, encoding="utf-8").read()
        new = wrap_file(src)
        if new != src:
            if check:
                print(f"{f}: not wrapped at {WIDTH} columns: run python3 scripts/wrap-md.py {f}")
                bad += 1
            else:
                open(f, "w", encoding="utf-8").write(new)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
