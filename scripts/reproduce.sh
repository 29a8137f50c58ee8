#!/usr/bin/env bash
# Reproduce the published Fanorona game values (SPEC.md §4) and compute the ones not published.
#
#   scripts/reproduce.sh quick   # the small boards, in minutes
#   scripts/reproduce.sh full    # also the 5x9 tables up to 7 stones and the 5x9 start
#
# For each game: build the endgame tables it uses (skipped when already built), solve the start
# with two proof-number searches, write the certificate, and check it with the independent
# checker. Prints a Markdown table: our value, the published value, time, nodes, check.
# Environment: TABLES (default tables/), PROOFS (default proofs/), MAX_NODES (per search),
# MEMORY (MiB of transposition table per search).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-quick}
tables=${TABLES:-tables}
proofs=${PROOFS:-proofs}
max_nodes=${MAX_NODES:-200000000}
memory=${MEMORY:-2048}
mkdir -p "$proofs"

cargo build --release --quiet
bin=target/release/fanorona

field() { # field NAME JSON: the value of a top-level field of a one-line JSON document
    sed -E "s/.*\"$1\":\"?([^,\"}]*)\"?.*/\1/" <<<"$2"
}

echo "| game | start | our value | published | tables | time (s) | nodes | certificate |"
echo "|---|---|---|---|---|---|---|---|"

game() { # game BOARD START-ARGS PUBLISHED TABLE-STONES NAME
    local board=$1 start=$2 published=$3 stones=$4 name=$5
    if [ "$stones" -gt 0 ]; then
        "$bin" tables build --board "$board" --stones "$stones" --tables "$tables" --json >/dev/null
    fi
    local certificate="$proofs/$name.proof"
    local report
    report=$("$bin" solve $start --tables "$tables" --stones "$stones" --certificate "$certificate" \
        --max-nodes "$max_nodes" --memory "$memory" --json 2>/dev/null) || true
    local value nodes seconds check
    value=$(field value "$report")
    nodes=$(field nodes "$report")
    seconds=$(field seconds "$report")
    if [ -f "$certificate" ] && "$bin" check-proof "$certificate" --tables "$tables" --json >/dev/null 2>&1; then
        check="checked"
    else
        check="none"
    fi
    printf "| %s | %s | %s | %s | %s | %.1f | %s | %s |\n" \
        "$board" "$name" "$value" "$published" "$stones" "$seconds" "$nodes" "$check"
}

game 3x3 "--board 3x3" win 0 3x3
game 3x5 "--board 3x5" win 0 3x5
game 5x3 "--board 5x3" win 0 5x3
game 3x7 "--board 3x7" win 6 3x7
game 7x3 "--board 7x3" win 6 7x3
game 5x5 "--board 5x5" draw 8 5x5
game 5x5 "--position BBBBB/BBBBB/BW1WB/WWWWW/WWWWW_w" win 8 5x5-palindromic
game 3x9 "--board 3x9" "(compute)" 6 3x9
game 9x3 "--board 9x3" "(compute)" 6 9x3
game 5x7 "--board 5x7" "(compute)" 7 5x7
game 7x5 "--board 7x5" "(compute)" 7 7x5

if [ "$mode" = full ]; then
    game 5x9 "--board 5x9" draw 7 5x9
fi
