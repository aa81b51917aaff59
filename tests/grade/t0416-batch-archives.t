#!/bin/sh
# grade --batch as people hand work in: folders, a .zip and a .tar.gz are graded; archives with an absolute
# path, a '..', a symbolic link (zip and tar), a hard link, a zip bomb or too many entries, a broken archive
# and an unknown file are refused, each named with the reason, and nothing lands outside the scratch folder.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace, check, need_plan, make_correct, put, nomodel, make_course
need_plan

b="$tmp/batch"
mkdir -p "$b" "$tmp/src"
put "$tmp/src" 01-serial "$root/kernels/01-serial/histogram.cl"
cp -R "$tmp/src" "$b/ada"                       # a folder
cp -R "$tmp/src" "$b/bob"
echo 'notes' > "$b/notes.txt"                   # neither a folder nor an archive
head -c 300 /dev/urandom > "$b/broken.zip"      # not a zip at all
python3 - "$tmp/src" "$b" "$tmp" <<'PY'
import io, os, stat, sys, tarfile, zipfile
src, b, tmp = sys.argv[1:4]
kernel = open(os.path.join(src, "exercises/01-serial/histogram.cl"), "rb").read()
good = "exercises/01-serial/histogram.cl"
with zipfile.ZipFile(os.path.join(b, "cy.zip"), "w", zipfile.ZIP_DEFLATED) as z:      # a good zip (with folders)
    z.writestr("exercises/", b""); z.writestr("exercises/01-serial/", b""); z.writestr(good, kernel)
with tarfile.open(os.path.join(b, "dee.tar.gz"), "w:gz") as t:                           # a good tar.gz
    info = tarfile.TarInfo(good); info.size = len(kernel); t.addfile(info, io.BytesIO(kernel))
def zip_with(name, entries):
    with zipfile.ZipFile(os.path.join(b, name), "w", zipfile.ZIP_DEFLATED) as z:
        for zi, data in entries:
            z.writestr(zi, data)
def raw(n):  # a ZipInfo whose name zipfile keeps as it is
    zi = zipfile.ZipInfo(good); zi.filename = n; return zi
zip_with("abs.zip", [(good, kernel), (raw("/tmp/cltutor-abs-escape.cl"), b"x")])
zip_with("dotdot.zip", [(good, kernel), (raw("exercises/../../cltutor-dotdot-escape.cl"), b"x")])
link = zipfile.ZipInfo("exercises/01-serial/histogram.cl")
link.external_attr = (stat.S_IFLNK | 0o777) << 16
zip_with("zlink.zip", [(link, b"/etc/passwd")])
with tarfile.open(os.path.join(b, "tlink.tar.gz"), "w:gz") as t:
    info = tarfile.TarInfo("exercises/01-serial/histogram.cl"); info.type = tarfile.SYMTYPE; info.linkname = "/etc/passwd"
    t.addfile(info)
with tarfile.open(os.path.join(b, "hlink.tar.gz"), "w:gz") as t:
    info = tarfile.TarInfo("exercises/01-serial/histogram.cl"); info.type = tarfile.LNKTYPE; info.linkname = "etc/passwd"
    t.addfile(info)
with zipfile.ZipFile(os.path.join(b, "bomb.zip"), "w", zipfile.ZIP_DEFLATED) as z:       # 100 MiB of zeros
    z.writestr(good, kernel)
    with z.open("exercises/01-serial/zeros.bin", "w", force_zip64=True) as f:
        chunk = bytes(1 << 20)
        for _ in range(100): f.write(chunk)
zip_with("many.zip", [(good, kernel)] + [("f/%d" % i, b"") for i in range(2100)])
PY
ls -la "$b" | awk '{ print $5, $9 }' | grep -q 'bomb.zip' || bad "the zip bomb was not made"
nomodel "$bin" grade 1 --batch "$b" -j 2 --seed 5 -o "$tmp/grades.csv" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && python3 - "$tmp/grades.csv" <<'PY'
import csv, json, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
good = ["ada", "bob", "cy", "dee"]
for s in good:
    assert rows[s]["status"] == "ok" and float(rows[s]["score"]) == float(rows[s]["max_score"]) == 100, (s, rows[s])
why = {"abs": "absolute path", "dotdot": "'..'", "zlink": "is a link", "tlink": "is a link", "hlink": "is a link",
       "bomb": "more than 64 MiB", "many": "more than 2000", "broken": "not a readable", "notes.txt": "not a folder"}
for s, w in why.items():
    st = rows[s]["status"]
    assert st.startswith("refused: ") and w in st and rows[s]["score"] == "", (s, st)
    assert json.load(open(rows[s]["report"]))["error"], s
assert len(rows) == len(good) + len(why), sorted(rows)
PY
then ok "the folders, the zip and the tar.gz are graded; every bad entry has a refused row with its reason"
else bad "batch of archives (exit $rc)" "$(cat "$tmp/err" "$tmp/grades.csv")"; fi
for s in abs dotdot zlink tlink hlink bomb many broken notes.txt; do
  grep -q "not graded: $s" "$tmp/err" || missing="$missing $s"
done
[ -z "$missing" ] && ok "the summary names every refused entry" || bad "the summary does not name:$missing" "$(cat "$tmp/err")"
grep -q '9 entries were not graded' "$tmp/err" && ok "the summary counts the refused entries" || bad "no count of refused entries" "$(cat "$tmp/err")"
if [ -e /tmp/cltutor-abs-escape.cl ] || [ -e "$tmp/cltutor-dotdot-escape.cl" ] || [ -e "$b/../cltutor-dotdot-escape.cl" ]; then
  bad "an archive wrote outside its folder"
else ok "nothing was written outside the scratch folder"; fi

# an archive and a folder for one student: the archive is refused, the folder graded
rm -rf "$tmp/b2" && mkdir -p "$tmp/b2" && cp -R "$tmp/src" "$tmp/b2/ada" && cp "$b/cy.zip" "$tmp/b2/ada.zip"
nomodel "$bin" grade 1 --batch "$tmp/b2" --seed 5 -o "$tmp/g2.csv" 2> "$tmp/err2"
if python3 - "$tmp/g2.csv" <<'PY'
import csv, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["ada"]["status"] == "ok" and "also named ada" in rows["ada.zip"]["status"], rows
PY
then ok "ada/ and ada.zip: the folder is graded, the archive refused by name"
else bad "two entries for one student" "$(cat "$tmp/err2" "$tmp/g2.csv")"; fi

finish
