#!/usr/bin/env bash
# End-to-end test of the real binary in a real terminal: starts podlab in
# tmux on the default preset, walks the first lesson steps with the keys a
# learner would press, and checks what the screen shows.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/podlab
go build -o "$bin" .
sock="podlab-e2e-$$"
t() { tmux -L "$sock" "$@"; }
cleanup() { t kill-server 2>/dev/null || true; }
trap cleanup EXIT

screen() { t capture-pane -p -t e2e; }
expect() { # expect TEXT [TRIES]
  local tries=${2:-30}
  for _ in $(seq "$tries"); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.2
  done
  echo "e2e: the screen never showed: $1" >&2
  screen >&2
  exit 1
}

# the recovery file goes to a directory of this run, not the user's
state=$(mktemp -d)
t new-session -d -s e2e -x 120 -y 36 "PODLAB_STATE_DIR=$state $bin --paused --theme projector"
expect "Spread basics"
expect "step 1/4 · Where can mypod go?"
expect "✓ zone(pod/mypod) == zoneB" 50
# next step, apply its commands with one key, let time run
t send-keys -t e2e '>'
expect "step 2/4 · Scale the Deployment"
t send-keys -t e2e 'a'
expect "applied: scale deployment/web --replicas=6"
t send-keys -t e2e ':' 
t send-keys -t e2e 'advance 30s' Enter
expect "✓ running(deployment/web) == 6" 50
expect "all checks pass ✓"
# the explain view of a pending pod after cordoning zoneB
t send-keys -t e2e '>' 'a'
expect "applied: cordon node3; cordon node4; scale deployment/web --replicas=8"
t send-keys -t e2e ':' 
t send-keys -t e2e 'advance 10s' Enter
expect "pending ("
t send-keys -t e2e Tab Tab Tab 'e'
expect "explain · default/web-"
expect "didn't match pod topology spread constraints"
# back, undo, help, resize
t send-keys -t e2e Escape
expect "workloads"
t send-keys -t e2e 'u'
expect "undid: advance 10s"
t send-keys -t e2e '?'
expect "help · cluster"
expect "esc close"
t send-keys -t e2e Escape
expect "z zone"
t resize-window -t e2e -x 50 -y 12
expect "terminal too small"
t resize-window -t e2e -x 100 -y 30
expect "Spread basics"
# fork: lane b loosens maxSkew, both lanes get the same scale-up
t send-keys -t e2e 'F'
expect "⑂ lane a"
t send-keys -t e2e ':'
t send-keys -t e2e '@b set spread deployment/web maxSkew=3' Enter
expect "@b "
t send-keys -t e2e ':'
t send-keys -t e2e 'advance 30s' Enter
t send-keys -t e2e '6'
expect "compare lanes a | b"
expect "maxSkew 1 DoNotSchedule │ maxSkew 3 DoNotSchedule"
t send-keys -t e2e '7'
expect "metrics · lane a · lane b"
t send-keys -t e2e 'B'
expect "⑂ lane b"
t send-keys -t e2e 'F'
expect "fork closed, kept lane b"
# unsaved commands: q asks first; n stays, the recovery file holds them
t send-keys -t e2e 'q'
expect "without saving?"  # the question wraps with the command count
t send-keys -t e2e 'n'
test -s "$state/recovery.yaml" || { echo "e2e: no recovery file in $state" >&2; exit 1; }
t send-keys -t e2e 'q'
expect "without saving?"  # the question wraps with the command count
t send-keys -t e2e 'y'
sleep 0.5
if [ -e "$state/recovery.yaml" ]; then
  echo "e2e: a clean quit left the recovery file" >&2
  exit 1
fi
if t has-session -t e2e 2>/dev/null && screen | grep -q "Spread basics"; then
  echo "e2e: q did not quit" >&2
  exit 1
fi
echo "e2e: 1 passed, 0 failed"
