#!/usr/bin/env bash
# Reproduce the published Fanorona game values (SPEC.md §4) and compute the ones not published.
#
#   scripts/reproduce.sh quick   # the small boards, in minutes
#   scripts/reproduce.sh full    # also the 5x9 tables up to 7 stones and the 5x9 start
#   scripts/reproduce.sh first-move TURN   # one of White's first moves on 5x9 (e.g. d2-e3A),
#                                # searched to the end: hours, resumable (see first_move below)
#   scripts/reproduce.sh eight-stones [SYSTEM…]   # the 5x9 tables up to 7 stones, then the
#                                # 8-stone systems named (default all four: 4v4 3v5 2v6 1v7), each built and
#                                # verified: hours, resumable; first-move searches use them
#   scripts/reproduce.sh nine-stones [SYSTEM…]   # the 8-stone layer (built, not verified),
#                                # then the 9-stone systems named (default 5v4 3v6), values
#                                # alone, each built and verified: about 4 hours a system on 2
#                                # cores, resumable; the 9-stone searches and certificates use them
#   scripts/reproduce.sh hunt-tables   # the lopsided systems 1v8 + 8v1 and 1v9 + 9v1 (values
#                                # alone, over the 8-stone layer), built and verified, and the
#                                # hunts bench with and without them (HUNT_NODES a position)
#   scripts/reproduce.sh left-right   # the open problem: the 5x9 left-right start, both sides'
#                                # searches at once, as far as they go: resumable (see left_right)
#   scripts/reproduce.sh left-right TURN   # Black's search after one of White's first moves
#                                # there (e.g. e4-e3W, a Black win: 20 minutes over the
#                                # 8-stone layer, about an hour over less), resumable
#   scripts/reproduce.sh open FILE[:LINE,…]…   # open questions of data/open (e.g.
#                                # d3-e3W-held-if-both): the tables their searches use, then
#                                # Black's search at each of their positions (or those lines
#                                # alone), all in one run: hours, resumable
#   scripts/reproduce.sh open-split NAME [status]   # an open question answered by splitting,
#                                # its store kept in data/open/split-store (see open_split)
#   scripts/reproduce.sh open-top FILE…   # the tops of their saved searches into data/open/top
#                                # (to commit: a lost machine's searches start there)
#   scripts/reproduce.sh more-boards [BOARD[:STONES]…]   # the 3xN and Nx3 boards past nine
#                                # (N = 11 … 21), no published values: about an hour (see below)
#   scripts/reproduce.sh recorded   # every certificate kept in data/proofs checked, over the
#                                # tables it needs (built first: up to 1½ hours for 5x9's 8 stones)
#   scripts/reproduce.sh split SIDE FEN [TURN,…]   # "can SIDE force a win?" after each turn
#                                # from FEN, searched apart, then joined at FEN (see split below)
#   scripts/reproduce.sh search-benches [SOLVE-OPTION…]   # the two search benches of data/:
#                                # how many positions of known value a search settles, in how
#                                # many nodes (see below); e.g. `search-benches --counting weak`
#
# For each game: build the endgame tables it uses (skipped when already built), solve the start
# with two proof-number searches, write the certificate, and check it with the independent
# checker. Prints a Markdown table: our value, the published value, the time to build the tables
# (0 when they were already there), the search time, nodes, and the certificate check.
# Environment: TABLES (default tables/), PROOFS (default proofs/), MAX_NODES (per search),
# MEMORY (MiB of transposition table per search) for the small boards; FULL_MAX_NODES and
# FULL_MEMORY for the 5x9 start (its draw took 808 M nodes for White's search), FIRST_MOVE_NODES
# for each first move.
set -euo pipefail
# The whole script is one block, which bash reads to its end before it runs any of it: a run
# takes hours, and bash reads a plain script as it goes, so an edit written over this
# file during a run would otherwise change the rest of that run's commands under it.
{
cd "$(dirname "$0")/.."
# shellcheck source=scripts/open-questions.sh
source scripts/open-questions.sh

mode=${1:-quick}
tables=${TABLES:-tables}
proofs=${PROOFS:-proofs}
max_nodes=${MAX_NODES:-200000000}
memory=${MEMORY:-2048}
mkdir -p "$proofs" "$tables"

cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/fanorona
[ -x "$bin" ] || { echo "reproduce: no fanorona binary at $bin after the build" >&2; exit 1; }

# A line on stderr saying which step a long run is at, and when it began (the builds' own
# progress lines say how far each has got).
step() { # step TEXT…
    echo "reproduce: $(date '+%F %T'): $*" >&2
}

# Wait for the background command PID to end, passing a stop of this shell (Ctrl-C, SIGTERM,
# SIGHUP) on to it, so that it saves and exits (`wait` returns early when a signal comes: wait
# again until PID is gone). Returns PID's exit status.
wait_passing_stops() { # wait_passing_stops PID
    local pid=$1 status=0
    # shellcheck disable=SC2064 # PID is fixed now
    trap "kill -TERM $pid 2>/dev/null || true" INT TERM HUP
    while :; do
        wait "$pid" && status=0 || status=$?
        kill -0 "$pid" 2>/dev/null || break
    done
    trap - INT TERM HUP
    return "$status"
}

field() { # field NAME JSON: the value of a top-level field of a one-line JSON document
    sed -E "s/.*\"$1\":\"?([^,\"}]*)\"?.*/\1/" <<<"$2"
}

# The value of one of White's first moves on 5x9, as far as it takes: each side's search alone
# ("can White force a win?" is quick; "can Black force a win?" took 10.9 billion nodes after
# d2-e3A over the 7-stone tables, and 332 million over the whole 8-stone layer, which the
# searches use where `eight-stones` has built it), saved in $STATE as it goes (run the same
# command again to go on after a stop or a Ctrl-C), each writing the certificate of what it found, then every certificate checked
# together. FIRST_MOVE_MEMORY (MiB, default 8192: the process peaks near 20 GB) and
# FIRST_MOVE_MAX_NODES (per run of a search) bound it.
first_move() { # first_move TURN
    local turn=$1 position report
    if [[ -z "$turn" || "$turn" = *" "* ]] || ! report=$("$bin" moves --after "$turn" --json); then
        echo "first-move: '$turn' is not one of White's first turns (fanorona moves lists them)" >&2
        exit 2
    fi
    position=$(field position "$report")
    local state=${STATE:-state}/5x9-$turn
    "$bin" tables build --board 5x9 --stones 7 --tables "$tables" --json >/dev/null
    local certificates=()
    for side in white black; do
        local certificate="$proofs/5x9-$turn-$side-search.proof"
        echo "5x9 after $turn: can $side force a win? (state in $state)" >&2
        if "$bin" solve --position "$position" --tables "$tables" --only "$side" \
            --max-nodes "${FIRST_MOVE_MAX_NODES:-20000000000}" \
            --memory "${FIRST_MOVE_MEMORY:-8192}" --state "$state" \
            --certificate "$certificate" --json; then
            certificates+=("$certificate")
        else
            echo "not settled yet: run the same command again to go on" >&2
            exit 1
        fi
    done
    "$bin" check-proof "${certificates[@]}" --tables "$tables" --json
}

# The four systems of the 8-stone layer, the most useful first.
eight_stone_systems=(4v4 3v5 2v6 1v7)

# Every 5x9 table of at most 8 stones, built where missing (not verified: eight_stones
# verifies): from nothing 1 h 4 min to 1 h 10 min on 2 cores (data/tables-5x9.md). Each
# build's JSON report goes to stdout.
eight_stone_layer() {
    step "the 5x9 tables up to 7 stones (skipped where built)"
    "$bin" tables build --board 5x9 --stones 7 --tables "$tables" --json
    local system
    for system in "${eight_stone_systems[@]}"; do
        step "the 8-stone system $system (skipped where built)"
        "$bin" tables build --board 5x9 --stones 8 --only "$system" --tables "$tables" --json
    done
}

# 8-stone systems over the complete 7-stone tables, the most useful first (data/eight-stones.md):
# 4v4 took 62 minutes, 3v5 + 5v3 about 1.6 hours and 2v6 + 6v2 48 minutes to build on 2 cores.
# A build or a verification stopped or killed goes on from its last saved state when run again.
eight_stones() { # eight_stones [SYSTEM…]
    local systems=("$@")
    [ ${#systems[@]} -gt 0 ] || systems=("${eight_stone_systems[@]}")
    "$bin" tables build --board 5x9 --stones 7 --tables "$tables" --json
    for system in "${systems[@]}"; do
        "$bin" tables build --board 5x9 --stones 8 --only "$system" --tables "$tables" --json
        "$bin" tables verify --board 5x9 --stones 8 --only "$system" --tables "$tables" --json
    done
}

# 9-stone systems over the whole 8-stone layer, for their values alone (one value file a
# material, no distances; 2.125 bits a slot while solving with frontier blocks of 16, so that
# 5v4 + 4v5, 5.6 × 10^10 slots, fits in 24 GB): the first two that the 5x9 searches meet most,
# 5v4 + 4v5 and 3v6 + 6v3. A stopped build or verification goes on when run again.
nine_stones() { # nine_stones [SYSTEM…]
    local systems=("$@")
    [ ${#systems[@]} -gt 0 ] || systems=(5v4 3v6)
    eight_stone_layer
    for system in "${systems[@]}"; do
        "$bin" tables build --board 5x9 --stones 9 --only "$system" --values-only \
            --frontier-block 16 --checkpoint-minutes 30 --tables "$tables" --json
        "$bin" tables verify --board 5x9 --stones 9 --only "$system" --tables "$tables" --json
    done
}

# Lopsided systems for hunts (a side of many stones taking the last few of the other), values
# alone, each over only the smaller systems its captures reach: 1v8 + 8v1 (9 stones, 21
# minutes on 2 cores) and 1v9 + 9v1 (10 stones), each built and verified; then the hunts bench
# over the 8-stone layer without them, with 1v8 + 8v1, and with both (data/hunts-4v8-4v9.txt).
hunt_tables() {
    eight_stone_layer
    for stones in 9 10; do
        "$bin" tables build --board 5x9 --stones "$stones" --only "1v$((stones - 1))" \
            --values-only --checkpoint-minutes 30 --tables "$tables" --json
        "$bin" tables verify --board 5x9 --stones "$stones" --only "1v$((stones - 1))" \
            --tables "$tables" --json
    done
    echo "| tables | nodes a position | settled | nodes | seconds |"
    echo "|---|---|---|---|---|"
    local left_out
    for left_out in 1v8,8v1,1v9,9v1 1v9,9v1 none; do
        hunt_bench "$left_out" "${HUNT_NODES:-2000000}"
    done
}

hunt_bench() { # hunt_bench LEFT-OUT MAX-NODES: the hunts bench without the systems named
    local left_out=$1 budget=$2 row
    # The 9-stone systems other than the lopsided ones are left out too, so that only these
    # change between the rows.
    local leave=3v6,6v3,4v5,5v4,2v7,7v2
    [ "$left_out" = none ] || leave="$leave,$left_out"
    row=$(bench_row data/hunts-4v8-4v9.txt --max-nodes "$budget" --memory 1024 \
        --leave-out "$leave")
    printf "| 8 stones, without %s | %s | %s |\n" "$left_out" "$budget" "$row"
}

# The left-right start (SPEC.md §3, unsolved): both sides' searches at once (one per core), over
# every table in $tables (the 8-stone systems too, where built), saved in $STATE/5x9-left-right as
# they go; run the same command again to go on after a stop or a Ctrl-C. A side's search that
# settles as "no" writes the certificate of the other side's hold. LEFT_RIGHT_MEMORY (MiB per
# search, default 4096: two of them beside the 8-stone value files fit in 24 GB) and
# LEFT_RIGHT_MAX_NODES (per search) bound it. `fanorona solve --start left-right --state DIR
# --status` shows where it stands, turn by turn.
#
# With a TURN, Black's search alone after that first move of White's (White's cannot win after
# any: Black's hold from the start covers them all), its certificate in
# $proofs/5x9-left-right/TURN.proof where it settles.
left_right() {
    local state=${STATE:-state}/5x9-left-right
    "$bin" tables build --board 5x9 --stones 7 --tables "$tables" --json >/dev/null
    if [ -n "${1:-}" ]; then
        echo "5x9 left-right start, after $1: Black's search (state in $state)" >&2
        if ! "$bin" solve --start left-right --each-turn --turns "$1" --only black \
            --tables "$tables" --max-nodes "${LEFT_RIGHT_MAX_NODES:-20000000000}" \
            --memory "${LEFT_RIGHT_MEMORY:-4096}" --state "$state" \
            --certificate "$proofs/5x9-left-right" --json; then
            echo "not settled yet: run the same command again to go on" >&2
            exit 1
        fi
        return
    fi
    echo "5x9 left-right start: both sides' searches (state in $state)" >&2
    if ! "$bin" solve --start left-right --tables "$tables" \
        --max-nodes "${LEFT_RIGHT_MAX_NODES:-20000000000}" \
        --memory "${LEFT_RIGHT_MEMORY:-4096}" --state "$state" \
        --certificate "$proofs/5x9-left-right.proof" --json; then
        echo "not settled yet: run the same command again to go on" >&2
        exit 1
    fi
}

# A question too big for one search, split by the turns of a position: "can SIDE force a win?"
# after each turn from FEN (or only the TURNs named), one search per turn, SPLIT_PARALLEL at once
# (default 2: one per core), each saved in $STATE/split-KEY as it goes (KEY: a checksum of FEN;
# run the same command again to go on) and writing its certificate to $proofs/split-KEY/. Once
# every turn's search has settled, the certificates are joined at FEN and checked together
# (`check-proof --at FEN`, with any certificates named in SPLIT_WITH, e.g. the other side's
# hold), and the joined one is written to $proofs/split-KEY.proof, to be joined again one level
# up (SPLIT_WITH there). Tables: those already in $tables (build them first). SPLIT_MEMORY (MiB
# per search, default 4096) and SPLIT_MAX_NODES (per search and run) bound it.
split() { # split SIDE FEN [TURN,…]
    local side=$1 fen=$2 turns=${3:-}
    local key
    key=$(printf '%s' "$fen" | cksum | cut -d' ' -f1)
    local state=${STATE:-state}/split-$key directory=$proofs/split-$key
    local chosen=()
    [ -n "$turns" ] && chosen=(--turns "$turns")
    echo "after each turn from $fen: can $side force a win? (state in $state, certificates in $directory)" >&2
    if ! "$bin" solve --position "$fen" --each-turn "${chosen[@]}" --only "$side" \
        --parallel "${SPLIT_PARALLEL:-2}" --tables "$tables" \
        --max-nodes "${SPLIT_MAX_NODES:-20000000000}" --memory "${SPLIT_MEMORY:-4096}" \
        --state "$state" --certificate "$directory" --json; then
        echo "not settled yet: run the same command again to go on" >&2
        exit 1
    fi
    local with=()
    [ -n "${SPLIT_WITH:-}" ] && read -r -a with <<<"$SPLIT_WITH"
    "$bin" check-proof "$directory"/*.proof "${with[@]}" --at "$fen" --tables "$tables" \
        --write "$proofs/split-$key.proof" --json
}

if [ "$mode" = split ]; then
    split "${2:?split needs a side (white or black)}" "${3:?split needs a position (FEN)}" "${4:-}"
    exit
fi

if [ "$mode" = left-right ]; then
    left_right "${2:-}"
    exit
fi

if [ "$mode" = eight-stones ]; then
    shift
    eight_stones "$@"
    exit
fi

if [ "$mode" = nine-stones ]; then
    shift
    nine_stones "$@"
    exit
fi

# The open questions kept in data/open (each FILE: its path, or its name such as
# d3-e3W-held-if-both; FILE:LINE,LINE… only the positions at those lines of it), as far as they
# go. First the tables their searches use, each built where
# missing: the 8-stone layer (34 GB), then the 9-stone systems of OPEN_NINE (default all four,
# 1v8 2v7 5v4 3v6, about 7 hours on 2 cores from nothing; not verified here, see nine-stones),
# values alone. 5v4 + 4v5 goes before 3v6 + 6v3: a build holds two states at its peak (30 GB
# for 5v4 + 4v5, 20 GB for 3v6 + 6v3), so the larger one built beside fewer finished value
# files needs 73 GB of disk at the most instead of 79. Then "can Black force a win?" (the question of every file there)
# at each of their positions, all in one run over one copy of the tables, OPEN_PARALLEL at once
# (default 2, one per core; the rest wait for a search to settle or reach OPEN_MAX_NODES), each
# saved in $STATE/open as it goes (saved searches are named by position, so every question
# shares the folder) and its certificate written to $proofs/open-NAME/line-N.proof where it
# settles (N: the line of its own file). Every step goes on where it stopped: run the same
# command again after a stop or a Ctrl-C. OPEN_MEMORY (MiB a search, a power of two, default
# 1024), OPEN_HELD_MEMORY (MiB for its held positions, default an eighth of that) and
# OPEN_MAX_NODES (a search and a run) bound it; OPEN_FROM_SEARCH=FILE starts the searches it has
# no state or top of from that saved search (solve --from-search). `fanorona solve --positions
# FILE --only black --state $STATE/open --status` shows where each search stands.
open_questions() { # open_questions FILE[:LINE,…]…
    # A saved search to start from that is not there is refused now, not after hours of builds.
    [ -z "${OPEN_FROM_SEARCH:-}" ] || [ -f "$OPEN_FROM_SEARCH" ] || {
        echo "open: OPEN_FROM_SEARCH: no file '$OPEN_FROM_SEARCH'" >&2
        exit 2
    }
    # One positions file of them all (see open_positions_together in open-questions.sh).
    open_run=$(mktemp -d "$proofs/.open-run.XXXXXX")
    trap 'rm -rf "$open_run"' EXIT # until the search: a refusal or failed check leaves nothing
    local together=$open_run/positions.txt
    open_positions_together "$open_run" "$@" || exit 2
    local state=${STATE:-state}/open
    open_shared_state "$state" "${STATE:-state}" "${open_names[@]}"
    local nine system derive=()
    read -r -a nine <<<"${OPEN_NINE:-1v8 2v7 5v4 3v6}"
    # Where every recorded table of up to 9 stones is here as recorded (the trailers' checksums, read in a
    # second), the builds have nothing to do: skipped, because each would first read the
    # tables below it whole to check them (8 minutes of reading, sixtieth session). `solve`
    # still checks the files it searches over, whole, as it opens them.
    local built=no
    if "$bin" tables list --board 5x9 --tables "$tables" --expect data/tables-5x9.md \
        --all-recorded-up-to 9 >/dev/null 2>&1; then
        built=yes
        echo "every table of up to 9 stones recorded in data/tables-5x9.md is in $tables as recorded: no build" >&2
    else
        eight_stone_layer >/dev/null
    fi
    for system in "${nine[@]}"; do
        [ $built = yes ] || step "the 9-stone system $system, values alone (skipped where built)"
        [ $built = yes ] ||
            "$bin" tables build --board 5x9 --stones 9 --only "$system" --values-only \
                --frontier-block 16 --checkpoint-minutes 30 --tables "$tables" --json >/dev/null
        # The larger systems answer one half one ply on from the other, so that the searches
        # and the tables fit in memory together (solve --derive).
        case $system in
        2v7 | 7v2) derive+=(2v7) ;;
        3v6 | 6v3) derive+=(6v3) ;;
        4v5 | 5v4) derive+=(4v5) ;;
        esac
    done
    # Every table the searches use must be the file recorded in data/tables-5x9.md, byte for
    # byte (the checksums in the files' trailers, read in seconds): the verified files (2v7 +
    # 7v2: the same build as the record's, not verified yet), not a build gone wrong.
    "$bin" tables list --board 5x9 --tables "$tables" --expect data/tables-5x9.md >&2 || {
        echo "open: the tables in $tables are not the recorded ones (above); not searching" >&2
        exit 1
    }
    local derived=()
    [ ${#derive[@]} -eq 0 ] || derived=(--derive "$(IFS=,; echo "${derive[*]}")")
    # A search that $state has lost starts from its top kept in data/open/top/NAME, if any
    # (see open-top below): the tops of every file asked for, linked into one folder.
    local tops=() name top
    mkdir "$open_run/tops"
    for name in "${open_names[@]}"; do
        for top in data/open/top/"$name"/*.dfpn; do
            [ ! -e "$top" ] || ln -sf "$PWD/$top" "$open_run/tops/"
        done
    done
    tops=(--from-top "$open_run/tops")
    # A file split from a position searched before (such as d3-e3W-e5-d4A) starts, where
    # neither has its search, from that position's saved search: OPEN_FROM_SEARCH=FILE.
    [ -z "${OPEN_FROM_SEARCH:-}" ] || tops+=(--from-search "$OPEN_FROM_SEARCH")
    # OPEN_HELD_MEMORY=MiB: a larger set of held positions than an eighth of OPEN_MEMORY.
    local held=()
    [ -z "${OPEN_HELD_MEMORY:-}" ] || held=(--held-memory "$OPEN_HELD_MEMORY")
    step "$*: can Black force a win? (state in $state, certificates in $proofs/open-NAME)"
    # The search runs in the background so that a stop of this shell (Ctrl-C, SIGTERM, SIGHUP)
    # is passed on to it: it saves and exits, and this shell waits for it (`wait` returns early
    # when a signal comes), then files the certificates written so far under their own files.
    "$bin" solve --positions "$together" --only black --parallel "${OPEN_PARALLEL:-2}" \
        --tables "$tables" "${derived[@]}" --memory "${OPEN_MEMORY:-1024}" \
        "${held[@]}" --max-nodes "${OPEN_MAX_NODES:-20000000000}" --state "$state" \
        --save-every 10 "${tops[@]}" --certificate "$open_run" --json &
    local search=$! status=0
    trap - EXIT # its certificates are filed below, whatever comes
    wait_passing_stops "$search" || status=$?
    file_certificates "$open_run" "$proofs"
    [ "$status" -eq 0 ] || {
        echo "not settled yet: run the same command again to go on" >&2
        exit 1
    }
}

# The tops of the searches of open questions saved in $STATE/open (their costliest
# positions, 8 MiB each: `solve --write-top`), written into data/open/top/NAME to be
# committed, so that a machine that loses its saved searches goes on from them.
open_tops() { # open_tops FILE…
    local spec file name
    for spec in "$@"; do
        file=$(open_file "$spec") || exit 2
        name=$(basename "$file" .txt)
        open_shared_state "${STATE:-state}/open" "${STATE:-state}" "$name"
        "$bin" solve --positions "$file" --only black --state "${STATE:-state}/open" \
            --write-top "data/open/top/$name" --top-slots "${OPEN_TOP_SLOTS:-65536}"
    done
}

# An open question answered by splitting (`solve --split`), its store kept in git: "can Black
# force a win?" at the position of data/open/split-store/NAME.txt, each open position after a
# turn searched apart (SPLIT_MAX_NODES each, default 20 M), the one nearest to settling split
# again, best first, up to SPLIT_DEPTH turns deep (default 24), SPLIT_PARALLEL at once (default
# 1: a table build may hold the other core), SPLIT_MEMORY MiB each (default 1024). Tables:
# those already in $tables (build them first, e.g. with `open`); the 9-stone systems whole
# there are answered one ply on (split_store_derive); SPLIT_LEAVE_OUT="3v6,6v3" searches
# without those (solve --leave-out), to leave memory for a table build beside it. The store
# goes on in $STATE/split-store/NAME, unpacked from data/open/split-store/NAME.tar.gz the first
# time; when the run ends (settled, out of work at SPLIT_MAX_NODES, or stopped by Ctrl-C or
# SIGTERM: run the same command to go on) it is packed back there, to be committed. A later
# run searches again what was left open only with a larger SPLIT_MAX_NODES or over more tables
# than that search had. `open-split NAME status`: where the split stands, searching nothing.
# SPLIT_AT="TURNS" roots the split (or the status) at the position those turns lead to from
# NAME's, with the same store: answers are kept by position, so what the whole split settled
# there is read back, and what is settled there counts for the whole split on its next run.
# It steers the work to one line, e.g. the one nearest to settling a turn of the root.
open_split() { # open_split NAME [status]
    local name=${1%.txt} position store derive
    position=$(split_store_position "$name") || exit 2
    store=${STATE:-state}/split-store/$name
    split_store_unpack "$name" "$store"
    derive=$(split_store_derive "$tables" "${SPLIT_LEAVE_OUT:-}")
    local solve=(solve --position "$position" --split --only black --tables "$tables"
        --split-depth "${SPLIT_DEPTH:-24}" --max-nodes "${SPLIT_MAX_NODES:-20000000}"
        --memory "${SPLIT_MEMORY:-1024}" --parallel "${SPLIT_PARALLEL:-1}" --state "$store")
    [ -z "$derive" ] || solve+=(--derive "$derive")
    [ -z "${SPLIT_LEAVE_OUT:-}" ] || solve+=(--leave-out "$SPLIT_LEAVE_OUT")
    [ -z "${SPLIT_AT:-}" ] || solve+=(--after "$SPLIT_AT")
    if [ "${2:-}" = status ]; then
        "$bin" "${solve[@]}" --status
        return
    fi
    [ -z "${2:-}" ] || {
        echo "open-split: '$2' is not 'status'" >&2
        exit 2
    }
    # SPLIT_TAKE="FILE…": certificates settled before (e.g. by a hand split) taken into the
    # store, each checked against the tables first, as the answers at their positions.
    local take=()
    [ -z "${SPLIT_TAKE:-}" ] || read -r -a take <<<"$SPLIT_TAKE"
    [ ${#take[@]} -eq 0 ] || solve+=(--take "${take[@]}")
    step "$name ($position)${SPLIT_AT:+ after $SPLIT_AT}: can Black force a win? split, the store in $store"
    # As in open_questions: a stop of this shell is passed on to the search, which keeps what
    # it has settled; the store is packed whatever came.
    "$bin" "${solve[@]}" --json &
    local status=0
    wait_passing_stops $! || status=$?
    split_store_pack "$name" "$store"
    [ "$status" -eq 0 ] || {
        echo "not settled yet: run the same command again to go on (a larger SPLIT_MAX_NODES, or tables built since, searches the open positions again)" >&2
        exit 1
    }
}

if [ "$mode" = open-split ]; then
    shift
    open_split "${1:?open-split needs a store of data/open/split-store, e.g. d3-e3W-a4W-i3W}" "${2:-}"
    exit
fi

if [ "$mode" = open-top ]; then
    shift
    open_tops "${@:?open-top needs a file of data/open, e.g. d3-e3W-last}"
    exit
fi

if [ "$mode" = open ]; then
    shift
    open_questions "${@:?open needs a file of data/open, e.g. d3-e3W-held-if-both}"
    exit
fi

if [ "$mode" = hunt-tables ]; then
    hunt_tables
    exit
fi

if [ "$mode" = first-move ]; then
    first_move "${2:?first-move needs a turn, e.g. d2-e3A}"
    exit
fi

# The certificates kept in data/proofs (packed; listed in its README, with the tables each
# needs): the tables built first where missing (up to RECORDED_MAX_STONES stones, default 8:
# 5 to 10 minutes for the 5x9 tables up to 7, 1 to 1½ hours for the 8-stone layer; 9 adds the
# 9-stone layer for values alone, 5v4 + 4v5 for the certificates over it and the other three
# systems for those over all of it, about 7 hours more on 2 cores), then each certificate checked with the
# independent checker. One over tables not built is refused, naming the tables it needs.
recorded() {
    local max_stones=${RECORDED_MAX_STONES:-8} board stones
    # "5x9 up to 7 stones and 3v5, 4v4, 5v3": a partial layer, one system per material.
    sed -nE 's/^\| `[^`]*` \|[^|]*\|[^|]*\| ([0-9]+x[0-9]+) up to ([0-9]+) stones and ([^|]*) \|.*/\1 \2 \3/p' \
        data/proofs/README.md | tr -d ',' | sort -u | while read -r board stones systems; do
        [ "$((stones + 1))" -le "$max_stones" ] || continue
        "$bin" tables build --board "$board" --stones "$stones" --tables "$tables" >&2
        # Past 8 stones a system is solved for its values alone (see nine_stones).
        local values_only=()
        [ "$((stones + 1))" -le 8 ] || values_only=(--values-only --frontier-block 16)
        for system in $systems; do
            "$bin" tables build --board "$board" --stones "$((stones + 1))" --only "$system" \
                "${values_only[@]}" --tables "$tables" >&2
        done
    done
    sed -nE 's/^\| `[^`]*` \|[^|]*\|[^|]*\| ([0-9]+x[0-9]+) up to ([0-9]+) stones \|.*/\1 \2/p' \
        data/proofs/README.md | sort -u | while read -r board stones; do
        [ "$stones" -le "$max_stones" ] || continue
        if [ "$board" = 5x9 ] && [ "$stones" -eq 8 ]; then
            eight_stone_layer >&2
        elif [ "$board" = 5x9 ] && [ "$stones" -eq 9 ]; then
            # The whole 9-stone layer, each system for its values alone.
            nine_stones 1v8 2v7 5v4 3v6 >&2
        else
            "$bin" tables build --board "$board" --stones "$stones" --tables "$tables" >&2
        fi
    done
    echo "| certificate | position | value | strategy positions | table leaves | check |"
    echo "|---|---|---|---|---|---|"
    local proof report why errors
    errors=$(mktemp)
    for proof in data/proofs/*.fnpack; do
        if report=$("$bin" check-proof "$proof" --tables "$tables" --json 2>"$errors"); then
            printf "| %s | %s | %s | %s | %s | holds |\n" "$(basename "$proof")" \
                "$(field position "$report")" "$(field value "$report")" \
                "$(field positions "$report")" "$(field table_leaves "$report")"
        else
            why=$(tail -1 "$errors")
            case "$why" in
            # Tables past RECORDED_MAX_STONES (the 9-stone systems, built only when it is 9):
            # said so, not counted as refuted.
            *"it needs the"* | *" is missing"*) printf "| %s | | | | | not checked here: %s |\n" "$(basename "$proof")" "$why" ;;
            *) printf "| %s | | | | | refuted: %s |\n" "$(basename "$proof")" "$why" ;;
            esac
        fi
    done
    rm -f "$errors"
    joined
}

# The values that pairs of kept certificates prove together (the README's "joined" table:
# "| A.fnpack + B.fnpack | `POSITION` | VALUE |"), each checked with `check-proof A B --at`.
joined() {
    echo
    echo "| joined | at | value | listed | strategy positions | check |"
    echo "|---|---|---|---|---|---|"
    local first second position listed report value verdict why errors
    errors=$(mktemp)
    sed -nE 's/^\| ([^ |`]+\.fnpack) \+ ([^ |`]+\.fnpack) \| `([^`]+)` \| ([a-z]+) \|$/\1|\2|\3|\4/p' \
        data/proofs/README.md | while IFS='|' read -r first second position listed; do
        if report=$("$bin" check-proof "data/proofs/$first" "data/proofs/$second" \
            --tables "$tables" --at "$position" --json 2>"$errors"); then
            value=$(field value "$report")
            verdict=holds
            [ "$value" = "$listed" ] || verdict="holds, but not for the listed value"
            printf "| %s + %s | %s | %s | %s | %s | %s |\n" "$first" "$second" "$position" \
                "$value" "$listed" "$(field positions "$report")" "$verdict"
        else
            why=$(tail -1 "$errors")
            case "$why" in
            # Tables past RECORDED_MAX_STONES, as for the certificates one by one.
            *"it needs the"* | *" is missing"*) verdict="not checked here: $why" ;;
            *) verdict="refuted: $why" ;;
            esac
            printf "| %s + %s | %s | | %s | | %s |\n" "$first" "$second" "$position" \
                "$listed" "$verdict"
        fi
    done
    rm -f "$errors"
}

if [ "$mode" = recorded ]; then
    recorded
    exit
fi

# The search benches: positions whose answer is known (Black wins), searched with a node
# budget each, to measure a change to the search by what it settles and the nodes it takes
# (nodes do not depend on the machine; data/results.md, "Fifty-third session", has the figures
# of the search as it stands and of the changes tried). Builds the 5x9 tables up to 7 stones
# where they are missing (about 4 minutes on 2 cores), then runs each bench on one core: about
# a minute and a half in all. Options after the mode go to each `solve`, to measure one.
search_benches() { # search_benches [SOLVE-OPTION…]
    "$bin" tables build --board 5x9 --stones 7 --tables "$tables" --json >/dev/null
    echo "| bench | table stones | nodes a position | settled | nodes | seconds |"
    echo "|---|---|---|---|---|---|"
    search_bench data/lopsided-2v5.txt 4 5000000 "$@"
    search_bench data/split-black-wins-40.txt 7 1000000 "$@"
}

search_bench() { # search_bench FILE TABLE-STONES MAX-NODES [SOLVE-OPTION…]
    local file=$1 stones=$2 budget=$3 row
    shift 3
    row=$(bench_row "$file" --stones "$stones" --max-nodes "$budget" --memory 512 "$@")
    printf "| %s | %s | %s | %s |\n" "$file" "$stones" "$budget" "$row"
}

# bench_row FILE [SOLVE-OPTION…]: "can Black force a win?" for each position of FILE, one
# search each; prints "SETTLED of N | NODES | SECONDS" for a Markdown row.
bench_row() {
    local file=$1 start report answers settled nodes seconds
    shift
    start=$(date +%s.%N)
    # A position left unsettled makes solve exit non-zero; its report is still printed.
    report=$("$bin" solve --positions "$file" --only black --tables "$tables" --json "$@" \
        2>/dev/null || true)
    seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    # Black's answer is the mover's or the waiting side's; the other is not asked.
    answers=$(grep -oE '"mover_can_force_a_win":"[a-z]*","waiting_can_force_a_win":"[a-z]*"' \
        <<<"$report" || true)
    [ -n "$answers" ] || { echo "reproduce: no report from the bench $file" >&2; exit 1; }
    settled=$(grep -vc '"unknown","waiting_can_force_a_win":"unknown"' <<<"$answers" || true)
    nodes=$(grep -o '"nodes":[0-9]*' <<<"$report" | awk -F: '{ n += $2 } END { print n }')
    printf "%s of %s | %s | %s" "$settled" "$(wc -l <<<"$answers")" "$nodes" "$seconds"
}

if [ "$mode" = search-benches ]; then
    shift
    search_benches "$@"
    exit
fi

echo "| board | start | our value | published | tables (stones) | tables built in (s) | search (s) | nodes | certificate |"
echo "|---|---|---|---|---|---|---|---|---|"

game() { # game BOARD PUBLISHED TABLE-STONES NAME [POSITION]
    local board=$1 published=$2 stones=$3 name=$4 position=${5:-}
    local where=(--board "$board")
    [ -n "$position" ] && where=(--position "$position")
    local built=0
    if [ "$stones" -gt 0 ]; then
        local build
        build=$("$bin" tables build --board "$board" --stones "$stones" --tables "$tables" \
            --json 2>/dev/null) || {
            echo "reproduce: the $board tables of $stones stones failed to build" >&2
            exit 1
        }
        built=$(field seconds "$build")
    fi
    local certificate="$proofs/$name.proof"
    rm -f "$certificate"
    local report
    report=$("$bin" solve "${where[@]}" --tables "$tables" --stones "$stones" \
        --certificate "$certificate" --max-nodes "$max_nodes" --memory "$memory" --json \
        2>/dev/null) || true # not settled within the limits: still a report, value unknown
    if [ -z "$report" ]; then
        echo "reproduce: fanorona solve gave no report for $name" >&2
        exit 1
    fi
    local value nodes seconds check confirmed
    value=$(field value "$report")
    nodes=$(field nodes "$report")
    seconds=$(field seconds "$report")
    check="none"
    if [ -f "$certificate" ] &&
        confirmed=$("$bin" check-proof "$certificate" --tables "$tables" --json 2>/dev/null); then
        if [ "$(field value "$confirmed")" = null ]; then
            # Only one search settled: the certificate of a bound (that side cannot lose).
            check="bound checked: $(sed -E 's/.*"strategist":"([a-z]+)".*/\1/' <<<"$confirmed") cannot lose"
        else
            check="checked"
        fi
    fi
    printf "| %s | %s | %s | %s | %s | %.1f | %.1f | %s | %s |\n" \
        "$board" "$name" "$value" "$published" "$stones" "$built" "$seconds" "$nodes" "$check"
}

# Boards past nine files or ranks (no published values): the 3xN and Nx3 boards up to 63
# points, over tables of 6 stones (11x3 over 8: 12.8 M nodes, where over 6 White's search is
# not settled in 400 M; 3x15 over 7: 8.0 M nodes, where over 6 White's search is not settled
# in 50 M), MORE_MAX_NODES nodes per search (default 50 M). 3x11, 3x13, 3x15 and 11x3 settle;
# the others give a bound or nothing at that budget (data/results.md): about an hour and a
# quarter in all on 2 cores, most of it building tables. 3x17 settles over 7 stones with a
# larger budget (White wins, 364 M nodes for White's search; about 40 minutes, tables included):
#   MEMORY=4096 MORE_MAX_NODES=1500000000 scripts/reproduce.sh more-boards 3x17:7
# and 3x19 over 6 stones (White wins, 193 M nodes for both searches; about 4 minutes):
#   MEMORY=4096 MORE_MAX_NODES=200000000 scripts/reproduce.sh more-boards 3x19
# With BOARD[:STONES]… after the mode, those boards alone.
if [ "$mode" = more-boards ]; then
    max_nodes=${MORE_MAX_NODES:-50000000}
    shift
    boards=("$@")
    if [ ${#boards[@]} -eq 0 ]; then
        boards=(3x11:6 11x3:8 3x13:6 13x3:6 3x15:7 15x3:6)
        for n in 17 19 21; do boards+=("3x$n:6" "${n}x3:6"); done
    fi
    for entry in "${boards[@]}"; do
        board=${entry%%:*}
        stones=6
        [ "$entry" != "$board" ] && stones=${entry#*:}
        game "$board" "(none)" "$stones" "$board"
    done
    exit
fi

game 3x3 win 0 3x3
game 3x5 win 0 3x5
game 5x3 win 0 5x3
game 3x7 win 6 3x7
game 7x3 win 6 7x3
game 5x5 draw 8 5x5
game 5x5 win 8 5x5-palindromic "BBBBB/BBBBB/BW1WB/WWWWW/WWWWW w"
game 3x9 "(not given)" 6 3x9
game 9x3 "(not given)" 6 9x3
game 5x7 "(not given)" 7 5x7
game 7x5 "(not given)" 7 7x5

if [ "$mode" = full ]; then
    max_nodes=${FULL_MAX_NODES:-3000000000}
    memory=${FULL_MEMORY:-4096}
    game 5x9 draw 7 5x9
    max_nodes=${FIRST_MOVE_NODES:-200000000}
    # The value of each of White's five first moves (positions with Black to move).
    game 5x9 "(not given)" 7 5x9-d2-e3A "BBBBBB1BB/BBBBB1BBB/BWBWWBWBW/WWW1WWWWW/WWWWWWWWW b"
    game 5x9 "(not given)" 7 5x9-e2-e3A "BBBB1BBBB/BBBB1BBBB/BWBWWBWBW/WWWW1WWWW/WWWWWWWWW b"
    game 5x9 "(not given)" 7 5x9-f2-e3A "BB1BBBBBB/BBB1BBBBB/BWBWWBWBW/WWWWW1WWW/WWWWWWWWW b"
    game 5x9 "(not given)" 7 5x9-d3-e3A "BBBBBBBBB/BBBBBBBBB/BWB1W1WBW/WWWWWWWWW/WWWWWWWWW b"
    game 5x9 "(not given)" 7 5x9-d3-e3W "BBBBBBBBB/BBBBBBBBB/BW2WBWBW/WWWWWWWWW/WWWWWWWWW b"
fi
exit
}
