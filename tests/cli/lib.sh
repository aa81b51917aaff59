# tests/cli/lib.sh — what the command-line scripts share, sourced after
# tests/lib.sh: the test kernels ($k), a workspace of the script's own in
# $tmp/ws, and json_check.
k="$here/kernels"
export CLTUTOR_WORKSPACE="$tmp/ws"

# json_check NAME PYTHON_EXPR -- COMMAND...: the output parses and EXPR (over j) holds
json_check() {
  name=$1 expr=$2
  shift 3
  "$@" > "$tmp/out.json" 2> "$tmp/err.txt"
  if python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($expr) else 1)" "$tmp/out.json"; then
    ok "$name"
  else
    bad "$name" "$(cat "$tmp/out.json" "$tmp/err.txt")"
  fi
}
