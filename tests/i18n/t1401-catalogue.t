#!/bin/sh
# The translations: po/ whole and current (scripts/check-po.sh), the check caught on broken copies, and the language followed.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

if out=$(sh "$root/scripts/check-po.sh" "$root" "$build" 2>&1); then ok "po/: every message of the source translated, none fuzzy, formats alike, the template current"
else bad "po/: every message of the source translated, none fuzzy, formats alike, the template current" "$out"; fi

# the check on copies of the tree, each broken one way
copy() { rm -rf "$tmp/c" && mkdir -p "$tmp/c" && cp -R "$root/src" "$root/po" "$root/scripts" "$root/exercises" "$root/Makefile" "$tmp/c/"; }
fails_with() { # NAME PATTERN: check-po.sh on the copy fails and says PATTERN
  if out=$(sh "$tmp/c/scripts/check-po.sh" "$tmp/c" "$build" 2>&1); then bad "$1 (the check passed)" "$out"
  elif printf '%s\n' "$out" | grep -q -- "$2"; then ok "$1"
  else bad "$1 (no line matching: $2)" "$out"; fi
}
copy
python3 - "$tmp/c/po/zh_CN.po" <<'PY'
import sys
p = sys.argv[1]; s = open(p, encoding="utf-8").read()
s = s.replace('msgid "Correct"\nmsgstr "正确"', 'msgid "Correct"\nmsgstr ""', 1)
open(p, "w", encoding="utf-8").write(s)
PY
fails_with "an untranslated message fails the check" "1 untranslated messages"
copy
python3 - "$tmp/c/po/zh_CN.po" <<'PY'
import sys
p = sys.argv[1]; s = open(p, encoding="utf-8").read()
s = s.replace('msgstr "第 %d/%d 行"', 'msgstr "第 %s/%d 行"', 1)
open(p, "w", encoding="utf-8").write(s)
PY
fails_with "a translation whose conversions differ fails the check" "msgfmt --check failed"
copy
printf 'const char *clt_new_message(void) { return _("A sentence nobody translated yet."); }\n' >> "$tmp/c/src/ui/ui_app.c"
fails_with "a new message in the source fails the check until the template and translations follow" "not current"
copy
sed -i 's|leave early for them|leave at once for them|' "$tmp/c/exercises/02-atomic/histogram.cl"
fails_with "a changed comment in an exercise file fails the check until its translation follows" "not current"

# the program speaks the environment's language, and English stays English
k="$root/kernels/01-serial/histogram.cl"
export CLTUTOR_WORKSPACE="$tmp/ws"
expect "the catalogue is built beside the program" 0 "" -- test -f "$build/locale/zh_CN/LC_MESSAGES/cltutor.mo"
expect "LANGUAGE=zh_CN: the run's summary in Chinese" 1 "个桶不同" -- env LANGUAGE=zh_CN "$bin" run 1 --no-timing --size 100x8x4
expect "LANG=zh_CN.UTF-8 without that locale installed: still Chinese" 0 "全部 .* 个桶都与黄金参考一致" -- env LANGUAGE= LC_ALL= LANG=zh_CN.UTF-8 "$bin" run 1 --kernel "$k" --no-timing --size 100x8x4
expect "no language set: English" 0 "All 8 bins match the golden reference" -- env LANGUAGE= LC_ALL= LANG=C.UTF-8 "$bin" run 1 --kernel "$k" --no-timing --size 100x8x4
finish
