#!/usr/bin/env bash
# Instructions per game action (callgrind: the same on a busy machine) of each adapter loop of
# _adapter_workload.py (raw engine, PettingZoo's floor, PettingZoo, the batched env, SyncVectorEnv),
# net of the same script with no actions (both first play WARM actions of other games, default 2,000,
# so that what an adapter fills once is full, as in a long run), for each src folder given (default:
# this checkout's). One BLAS thread: numpy's idle BLAS threads spin, and callgrind counts that too.
#   benchmarks/count_adapter_instructions.sh GAME SEATS ACTIONS [src ...]
#   e.g. benchmarks/count_adapter_instructions.sh precious-cargo 2 3000 before/src src
set -euo pipefail
game=$1 seats=$2 actions=$3; shift 3
here="$(cd "$(dirname "$0")" && pwd)"
py="${PYTHON:-$here/../.venv/bin/python}"
loops="${LOOPS:-raw floor pettingzoo batched sync}"
count() {  # src loop actions -> "instructions actions"
  local out n
  out=$(mktemp)
  PYTHONPATH=$1 PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$py" "$here/_adapter_workload.py" "$game" "$seats" "$2" "$3" "${WARM:-2000}" 2>"$out" >"$out.n"
  n=$(grep -o 'Collected : [0-9]*' "$out" | grep -o '[0-9]*$')
  echo "$n $(cat "$out.n")"
  rm -f "$out" "$out.n"
}
printf '| %s (%s seats), instructions per action | %s |\n|---|%s\n' "$game" "$seats" \
  "$(echo "$loops" | sed 's/ / | /g')" "$(for _ in $loops; do printf -- '---:|'; done)"
for src in "${@:-$here/../src}"; do
  row="| $src |"
  for loop in $loops; do
    read -r base _ < <(count "$src" "$loop" 0)
    read -r n done < <(count "$src" "$loop" "$actions")
    row="$row $(( (n - base) / done )) |"
  done
  echo "$row"
done
