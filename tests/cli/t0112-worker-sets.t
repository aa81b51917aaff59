#!/bin/sh
# Untimed runs of one kernel at several sizes share a worker (engine_run_set):
# the first size alone (it builds the kernel), the others in one worker that
# builds it once; a worker that stops partway leaves the rest to a new one.
# Counted with a worker program that notes each start, then runs cltutor.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, workspace, json_check
export CLTUTOR_RESULT_CACHE=off
starts="$tmp/starts"
cat > "$tmp/worker" <<EOS
#!/bin/sh
echo start >> "$starts"
exec "$bin" "\$@"
EOS
chmod +x "$tmp/worker"
export CLTUTOR_WORKER="$tmp/worker"
count() { wc -l < "$starts" 2>/dev/null | tr -d ' '; }

# chapter 1's check: its sizes, no simulator
rm -f "$starts"
"$bin" check 1 --solution --json > "$tmp/check1.json" 2> "$tmp/check1.err"
n=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(sum(1 for r in j if r.get('kind', 'test') == 'test'))" "$tmp/check1.json" 2>/dev/null)
if [ "${n:-0}" -ge 3 ] && [ "$(count)" = 2 ]; then
  ok "check 1: $n sizes in 2 workers (the first size alone, then the others together)"
else bad "check 1 with $n sizes started $(count) workers, wanted 2" "$(cat "$tmp/check1.err" "$tmp/check1.json")"; fi

# a kernel that crashes on its fifth size (one descriptor): the sizes after it run in a new worker, and pass
rm -f "$starts"
"$bin" check 2 --kernel "$here/../grade/kernels/crash_on_one.cl" --json > "$tmp/crash.json" 2> "$tmp/crash.err"
json_check "check 2: the crashing size fails as a crash, every other size passes" \
  '[ (r["test"], r["status"]) for r in j if r.get("kind", "test") == "test" and r["status"] != "pass"] == [("1x1x64", "crash")] and sum(1 for r in j if r.get("kind", "test") == "test" and r["status"] == "pass") >= 4' \
  -- cat "$tmp/crash.json"
finish
