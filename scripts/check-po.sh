#!/bin/sh
# The translations are whole and current: po/cltutor.pot holds every message
# the source marks (_(), N_(), and the message arguments of set_msg,
# set_item, add_item, verify_init), and each po/LANG.po translates all of
# them, none fuzzy, with the same printf conversions (msgfmt --check).
# The exercise files' comments (context "exercise comment") are checked
# against the files when BUILD holds kcomment-pot (`make pot` builds it).
# Prints one line per problem; exits 1 when there is any.
#   sh scripts/check-po.sh [ROOT [BUILD]]
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
build=${2:-}
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
flags=$(sed -n 's/^XGETTEXT_FLAGS = //p' Makefile | sed 's/ *\\$//')
more=$(sed -n '/^XGETTEXT_FLAGS = /{n;p}' Makefile)
# shellcheck disable=SC2086
xgettext $flags $more -o "$tmp/now.pot" $(ls src/*/*.c src/*/*.h | sort) || exit 2
if [ -n "$build" ] && [ -x "$build/kcomment-pot" ]; then
  # shellcheck disable=SC2046
  "$build/kcomment-pot" $(ls exercises/*/*.cl | LC_ALL=C sort) | msguniq --no-wrap -o "$tmp/ex.pot" - &&
    msgcat --use-first --no-wrap -o "$tmp/now.pot" "$tmp/now.pot" "$tmp/ex.pot" || exit 2
  cp po/cltutor.pot "$tmp/have.pot"
else
  msggrep --no-wrap -v --msgctxt -e 'exercise comment' -o "$tmp/have.pot" po/cltutor.pot || exit 2
fi
strip() { grep -v '^"POT-Creation-Date:' "$1" | grep -v '^#: '; }
if ! strip "$tmp/have.pot" > "$tmp/a" || ! strip "$tmp/now.pot" > "$tmp/b" || ! cmp -s "$tmp/a" "$tmp/b"; then
  echo "po/cltutor.pot is not current: run make pot, then translate what it added"
  diff "$tmp/a" "$tmp/b" | grep '^[<>] msgid' | head -n 10
  bad=1
fi
for po in po/*.po; do
  msgfmt --check -o /dev/null "$po" 2>"$tmp/err" || { echo "$po: msgfmt --check failed:"; head -n 10 "$tmp/err"; bad=1; }
  n=$(msgattrib --only-fuzzy --no-obsolete "$po" | grep -c '^msgid ' || true)
  [ "$n" -gt 0 ] && { echo "$po: $((n - 1)) fuzzy translations:"; msgattrib --only-fuzzy --no-obsolete "$po" | grep '^msgid ' | tail -n +2 | head -n 10; bad=1; }
  n=$(msgattrib --untranslated --no-obsolete "$po" | grep -c '^msgid ' || true)
  [ "$n" -gt 0 ] && { echo "$po: $((n - 1)) untranslated messages:"; msgattrib --untranslated --no-obsolete "$po" | grep '^msgid ' | tail -n +2 | head -n 10; bad=1; }
  msgcmp "$po" "$tmp/now.pot" 2>"$tmp/err" || { echo "$po: messages of the source it lacks:"; grep -v 'not used' "$tmp/err" | head -n 10; bad=1; }
done
exit $bad
