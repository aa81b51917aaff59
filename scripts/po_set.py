#!/usr/bin/env python3
"""po_set — sets translations in a .po file from a tab-separated list
(msgid TAB msgstr, C escapes as in the .po), clearing their fuzzy marks.
A message with a plural form is named by its singular msgid; its one
form (msgstr[0], for a language with one form, as Chinese) is set.
    python3 scripts/po_set.py po/zh_CN.po < translations.tsv
Used when translating by hand is quicker in a list than in the file."""
import re
import sys


def main():
    path = sys.argv[1]
    want = {}
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        msgid, msgstr = line.split("\t", 1)
        want[msgid] = msgstr
    entries = open(path, encoding="utf-8").read().split("\n\n")
    done = set()
    out = []
    for e in entries:
        m = re.search(r'^msgid "((?:[^"\\]|\\.)*)"((?:\n"(?:[^"\\]|\\.)*")*)'
                      r'(?:\nmsgid_plural "(?:[^"\\]|\\.)*"(?:\n"(?:[^"\\]|\\.)*")*)?\nmsgstr', e, re.M)
        if m:
            msgid = m.group(1) + "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))
            if msgid in want and not e.startswith("#~"):
                if "\nmsgid_plural " in e:
                    e = re.sub(r'\nmsgstr\[0\] "(?:[^"\\]|\\.)*"(?:\n"(?:[^"\\]|\\.)*")*',
                               lambda _m: '\nmsgstr[0] "' + want[msgid] + '"', e)
                else:
                    e = re.sub(r'\nmsgstr "(?:[^"\\]|\\.)*"(?:\n"(?:[^"\\]|\\.)*")*',
                               lambda _m: '\nmsgstr "' + want[msgid] + '"', e)
                e = re.sub(r'^#, fuzzy, ', '#, ', e, flags=re.M)
                e = re.sub(r'^#, fuzzy\n', '', e, flags=re.M)
                e = re.sub(r'^#\| .*\n', '', e, flags=re.M)
                done.add(msgid)
        out.append(e)
    open(path, "w", encoding="utf-8").write("\n\n".join(out))
    missing = set(want) - done
    for m in sorted(missing):
        print("po_set: not in %s: %s" % (path, m), file=sys.stderr)
    return 1 if missing else 0


sys.exit(main())
