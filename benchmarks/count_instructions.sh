#!/usr/bin/env bash
# Instructions (callgrind, repeatable on a busy machine) for a clone loop and for random playouts,
# for each src folder given, e.g.: benchmarks/count_instructions.sh GAME SEATS GAMES before/src after/src
# GAMES may be "steps:N": N random actions over as many games as it takes (for trees whose rules differ,
# so that game lengths differ too).
# Each figure is net of the same script doing nothing (start-up and imports), so it counts the work alone.
set -euo pipefail
game=$1 seats=$2 games=$3; shift 3
here="$(cd "$(dirname "$0")" && pwd)"
py="${PYTHON:-$here/../.venv/bin/python}"
if [[ $games == steps:* ]]; then play="steps ${games#steps:}"; label="${games#steps:} random actions"
else play="play $games"; label="$games random games"; fi
printf '| src | 20,000 clones (instructions) | %s (instructions) |\n|---|---:|---:|\n' "$label"
count() {  # src, workload...
  local src=$1 out n; shift
  out=$(mktemp)
  PYTHONPATH=$src PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$py" "$here/_workload.py" "$game" "$seats" "$@" 2>"$out" >/dev/null
  n=$(grep -o 'Collected : [0-9]*' "$out" | grep -o '[0-9]*$')
  rm -f "$out"
  echo "$n"
}
for src in "$@"; do
  row="| $src |"
  none=$(count "$src" none)
  for work in "clone" "$play"; do
    # shellcheck disable=SC2086  # the workload is two words on purpose
    n=$(count "$src" $work)
    row="$row $((n - none)) |"
  done
  echo "$row"
done
