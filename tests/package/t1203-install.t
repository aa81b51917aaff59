#!/bin/sh
# As root, where no cltutor is installed: dpkg -i, runs from another folder, and dpkg --purge, even after a failure.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # need_tools, a clean environment, build_package, need_package
need_tools

state=$(dpkg-query -W -f='${Status}' cltutor 2>/dev/null)
if [ "$(id -u)" != 0 ]; then
  ok "dpkg -i and a run of the installed package (skipped: not root)"
elif [ -n "$state" ] && [ "${state##* }" != not-installed ]; then
  ok "dpkg -i and a run of the installed package (skipped: cltutor is already installed here: $state)"
elif [ -e /usr/bin/cltutor ] || [ -e /usr/share/cltutor ] || [ -e /usr/lib/cltutor ]; then
  ok "dpkg -i and a run of the installed package (skipped: a cltutor outside dpkg is in /usr)"
else
  need_package
  installed=yes
  if dpkg -i "$deb" > "$tmp/install.log" 2>&1; then
    ok "dpkg -i installs the package"
    mkdir -p "$tmp/elsewhere"
    cd "$tmp/elsewhere" || exit 1
    expect "the installed cltutor lists the course" 0 'Atomic histogram' -- /usr/bin/cltutor list
    expect "the installed cltutor runs the learner's (wrong) starting kernel" 1 'Wrong result' -- /usr/bin/cltutor run 1
    expect "the installed cltutor runs a reference solution" 0 '^Correct' -- \
      /usr/bin/cltutor run 2 --solution --size 200x8 --no-timing
    if dpkg-query -W -f='${Status}' oclgrind 2>/dev/null | grep -q 'install ok installed'; then
      expect "the installed cltutor analyzes with its Oclgrind plugin" 0 'sectors/req' -- \
        /usr/bin/cltutor analyze 2 --solution --size 64x16x4
    else
      ok "the installed cltutor analyzes with its Oclgrind plugin (skipped: oclgrind not installed)"
    fi
    cd "$tmp" || exit 1
  else
    bad "dpkg -i installs the package" "$(cat "$tmp/install.log")"
  fi
  if dpkg --purge cltutor > "$tmp/purge.log" 2>&1 && [ ! -e /usr/bin/cltutor ] && [ ! -e /usr/share/cltutor ] \
      && [ ! -e /usr/lib/cltutor ] && [ ! -e /usr/share/doc/cltutor ]; then
    installed=""
    ok "dpkg --purge removes every file"
  else
    bad "dpkg --purge removes every file" "$(cat "$tmp/purge.log"; ls -d /usr/bin/cltutor /usr/share/cltutor /usr/lib/cltutor /usr/share/doc/cltutor 2>&1)"
  fi
fi

finish
