#!/bin/sh
# What a confined worker may do (threads, its scratch folder) and may not (sockets, exec, fork, ptrace, reads and writes elsewhere).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, a workspace and TMPDIR, nomodel, check, put

mkdir -p "$tmp/outside"
CLTUTOR_SELFTEST_SECRET=hush "$bin" __worker-selftest "$tmp/outside" > "$tmp/self.txt" 2>&1
rc=$?
self() { grep -q "^$1" "$tmp/self.txt"; }
if [ $rc -eq 0 ]; then ok "the worker's self-test passes"; else bad "worker self-test (exit $rc)" "$(cat "$tmp/self.txt")"; fi
for p in "socket(AF_INET): refused" "socket(AF_UNIX): refused" "execve(/bin/sh): refused" "fork: refused" \
         "clone without CLONE_THREAD: refused" "ptrace the parent: refused" \
         "see the grader's environment (CLTUTOR_SELFTEST_SECRET): refused" \
         "write one file larger than a run may hand back: refused"; do
  if self "$p"; then ok "confined worker: $p"; else bad "confined worker: $p" "$(cat "$tmp/self.txt")"; fi
done
if self "thread: allowed" && self "kernel before the probes: ran" && self "kernel after the probes: ran" &&
   self "write inside the scratch folder: allowed"; then
  ok "confined worker: threads, its scratch folder and the kernel still work"
else bad "confined worker: what must still work" "$(cat "$tmp/self.txt")"; fi
if grep -q "Landlock ABI" "$tmp/self.txt"; then
  if self "write outside the scratch folder: refused" && [ ! -e "$tmp/outside/outside-the-scratch-folder" ] &&
     self "read another submission outside the scratch folder: refused" &&
     self "open the parent's memory (/proc/PID/mem): refused"; then
    ok "confined worker (Landlock): no read or write outside its folder, no reading the parent's memory"
  else bad "confined worker (Landlock)" "$(cat "$tmp/self.txt")"; fi
else
  ok "confined worker: Landlock is not available on this kernel, its checks skipped ($(grep '^confinement' "$tmp/self.txt"))"
fi

if grep -q "writes: a tmpfs of" "$tmp/self.txt"; then
  if self "write more than the worker's budget into its scratch folder: refused" &&
     self "create more files than the worker's budget: refused"; then
    ok "confined worker (its own tmpfs): no more bytes or files than its budget"
  else bad "confined worker (its own tmpfs)" "$(cat "$tmp/self.txt")"; fi
else
  ok "confined worker: no mount namespace here, the write budget's checks skipped ($(grep -o 'writes: .*' "$tmp/self.txt"))"
fi

finish
