#!/bin/bash
# A training sitting on a machine with a GPU: resume runs side by side on its one GPU (or start
# them, where training/NAME holds no run yet), each with more games side by side than a CPU
# plays, each stopped by SIGTERM after LIMIT seconds (so it finishes the iteration under way and
# checkpoints it), then pack the run folders into OUT as 15 MB parts.
#
#   LIMIT=450 OUT=/tmp/sitting training/sitting.sh azul-2p kiln-2p-canvas tuileries-2p-anchored tiles-2p
#
# Where the machine cannot install from an index, put the wheels it lacks (pgx, mctx, svgwrite, threadpoolctl)
# in .whl/ in this repository's root: they are installed into /tmp/site first, and tileworks is
# imported from src/ (carry src/tileworks.egg-info too: its entry points name the games). Fetch them
# here at the locked versions (.whl/ travels untracked; keep it out of commits):
#
#   python3 -m pip download -q --no-deps -d .whl $(grep -E '^(pgx|mctx|svgwrite|threadpoolctl)==' requirements-dev.lock | cut -d' ' -f1)
set -u
LIMIT=${LIMIT:-450}
OUT=${OUT:-sitting}

# each run's own settings (as in its config.json), with the GPU's number of games
declare -A SETTINGS=(
  [azul-2p]="azul --games 2048 --steps 32 --simulations 16 --opponents random,greedy,mcts:easy"
  [azul-2p-prelu]="azul --games 2048 --steps 32 --simulations 16 --opponents random,greedy,mcts:easy"
  # Azul's network that reads the sources and every seat's board (docs/agents.md, "Azul reads its boards")
  [azul-3p-canvas]="azul -o players=3 --network board --imitate greedy --imitate-games 1000 --anchor 0.5 --games 2048 --steps 32 --simulations 16 --opponents random,greedy"
  # anchored at 0.5 to 196 iterations, where it drew level with the flat network (strength.md, "The fourth
  # H200 sitting"); from there, half as near greedy's choices, which took it past the flat network head to
  # head and not against the levels by 537 (strength.md, "The fifth H200 sitting"): from there, a search
  # four times as deep at each decision, for sharper targets
  [azul-2p-canvas]="azul --network board --imitate greedy --imitate-games 1000 --anchor 0.25 --games 2048 --steps 32 --simulations 64 --opponents random,greedy,mcts:easy"
  [azul-4p-canvas]="azul -o players=4 --network board --imitate greedy --imitate-games 1000 --anchor 0.5 --games 2048 --steps 32 --simulations 16 --opponents random,greedy"
  # KILN's network that reads the kiln and the warehouse in play as boards (docs/agents.md, "KILN reads two boards")
  [kiln-2p-canvas]="kiln --network board --imitate greedy --imitate-games 1000 --anchor 0.5 --games 2048 --steps 32 --simulations 16 --opponents random,greedy"
  [tuileries-2p-board]="tuileries --network board --imitate greedy --imitate-games 2000 --games 2048 --steps 32 --simulations 16 --opponents random,greedy"
  # Tuileries' board run drifted from greedy's choices (docs/strength.md): started again with an anchor to them,
  # on the CPU (45 iterations at 256 games): level with the shipped network, its search still leading away from
  # greedy's choices (strength.md, "Tuileries anchored to greedy's choices, on the CPU"): its value comes first
  # standardised where it stood at 45 and 18 iterations on (strength.md, "Standardising a run where it stands")
  [tuileries-2p-anchored]="tuileries --network board --imitate greedy --imitate-games 2000 --anchor 0.5 --standardise --games 2048 --steps 32 --simulations 16 --opponents random,greedy"
  # imitation of 6,000 greedy games with the numbers off the board standardised, so that its value reads the
  # points (strength.md, "Tuileries' value could not see the points"); to go on anchored, as the other board runs
  [tuileries-2p-standardised]="tuileries --network board --imitate greedy --imitate-games 6000 --imitate-epochs 4 --anchor 0.5 --games 2048 --steps 32 --simulations 16 --opponents random,greedy"
  # unanchored to 19 iterations (0.30 against greedy); from there anchored to greedy's choices as the other
  # board runs are, so that more self-play does not walk it away from them (strength.md, "The seventh H200 sitting");
  # its points reach it out of 3,960: standardised where it stands, as Tuileries' anchored run was
  # (strength.md, "Standardising a run where it stands")
  [tiles-2p]="tiles --network board --imitate greedy --imitate-games 1000 --anchor 0.5 --standardise --games 2048 --steps 16 --simulations 8 --opponents random,greedy"
)
settings() {
  [ -n "${SETTINGS[$1]:-}" ] || { echo "no settings for a run named $1 (runs: ${!SETTINGS[*]})" >&2; return 1; }
  echo "${SETTINGS[$1]}"
}
[ $# -gt 0 ] || { echo "name the runs to resume, e.g. azul-2p tiles-2p" >&2; exit 2; }
for name in "$@"; do settings "$name" >/dev/null || exit 2; done

mkdir -p "$OUT"
log=$OUT/sitting.log
start=$(date +%s)
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site:$PWD/src
fi
# several runs share the GPU: each takes memory as it needs it, not three quarters of it up front
export XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONUNBUFFERED=1
# compiled programs kept on the machine (build/ is ignored, so it stays there between calls): a call
# after the first loads them instead of compiling again, most of its first iteration
export JAX_COMPILATION_CACHE_DIR=$PWD/build/jax-cache
{ nvidia-smi -L; python3 -c "import jax; print(jax.__version__, jax.devices())"; } >>"$log" 2>&1

train() {
  local name=$1 arguments
  arguments=$(settings "$name")
  # shellcheck disable=SC2086  # the settings are words
  timeout -s TERM -k 40 "$LIMIT" python3 -c "from tileworks.cli.main import main; main()" train $arguments \
    --out "training/$name" --iterations 3000 --eval-games 0 --checkpoint-every 5 --quiet >"$OUT/$name.log" 2>&1
  echo "$name exit $? after $(( $(date +%s) - start )) s" >>"$log"
}

runs=(); for name in "$@"; do train "$name" & runs+=($!); done
# how busy the GPU is once the runs have compiled (they compile for a minute or two)
(sleep 120; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv >>"$log" 2>&1) &
sampler=$!
wait "${runs[@]}"
kill "$sampler" 2>/dev/null
for name in "$@"; do
  echo "== $name: $(grep -c policy_loss "training/$name/metrics.jsonl") iterations" >>"$log"
  tail -n 1 "training/$name/metrics.jsonl" >>"$log"
done
folders=(); for name in "$@"; do folders+=("training/$name"); done
tar cf - "${folders[@]}" | split -b 15M -d - "$OUT/sitting.tar.part"
echo "done after $(( $(date +%s) - start )) s; unpack with: cat $OUT/sitting.tar.part* | tar xf -" >>"$log"
