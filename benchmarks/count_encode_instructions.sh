#!/usr/bin/env bash
# Instructions per encode_state call (callgrind: the same on a busy machine), for each game, with the
# compiled encoders this checkout built and with their pure-Python twins; net of the same script
# without the encoding. Another build (0.1.0's, say) is compared with SRC=path/to/its/src.
#   benchmarks/count_encode_instructions.sh [GAME:SEATS ...]   (default: all four games)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${PYTHON:-$here/../.venv/bin/python}"
count() {  # env..., then the workload's arguments come from $game $seats $reps
  local out n
  out=$(mktemp)
  env "$@" PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$py" "$here/_encode_workload.py" "$game" "$seats" "$reps" 2>"$out" >"$out.calls"
  n=$(grep -o 'Collected : [0-9]*' "$out" | grep -o '[0-9]*$')
  echo "$n $(cat "$out.calls")"
  rm -f "$out" "$out.calls"
}
printf '| game | compiled (instructions per call) | pure Python |\n|---|---:|---:|\n'
for spec in "${@:-contraband:4 precious-cargo:2 merchants-cove:3 cornish-smuggler:3}"; do
  for gs in $spec; do
    game=${gs%:*} seats=${gs#*:}
    row="| $game, $seats seats |"
    for mode in compiled pure; do
      flags=(PYTHONPATH="${SRC:-}")
      [ "$mode" = pure ] && flags+=(FREETRADER_PURE=1)
      reps=0; read -r base _ < <(count "${flags[@]}")
      reps=10; read -r n calls < <(count "${flags[@]}")
      row="$row $(( (n - base) / calls )) |"
    done
    echo "$row"
  done
done
