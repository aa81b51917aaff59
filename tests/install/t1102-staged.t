#!/bin/sh
# A staged (DESTDIR) install moved into place, and a program that finds no course.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a home in $tmp, install_to
cd "$tmp" || exit 1

install_to staged DESTDIR="$tmp/stage" PREFIX=/usr
expect "DESTDIR install, moved into place, finds its course" 0 'Atomic histogram' -- "$tmp/stage/usr/bin/cltutor" list
if [ -d /usr/local/share/cltutor/lessons ]; then
  ok "an absent course names where it looked (skipped: a course is installed in /usr/local, the built-in prefix)"
else
  expect "an absent course names where it looked and what to do" 64 'cannot find the course.*CLTUTOR_DATA' -- \
    sh -c "cp '$tmp/stage/usr/bin/cltutor' '$tmp/lonely' && '$tmp/lonely' list"
fi

finish
