# shellcheck shell=bash
# The bookkeeping of `scripts/reproduce.sh open` (which sources this file): several files of
# data/open searched in one run, and each certificate filed under its own file and line.
# Tested by crates/fanorona/tests/open_script.rs.

# open_file FILE: the path of a file of data/open, given as its path or its name.
open_file() {
    local file=$1
    [ -f "$file" ] || file=data/open/${1%.txt}.txt
    [ -f "$file" ] || {
        echo "open: no file '$1' (data/open holds: $(cd data/open 2>/dev/null && echo *.txt))" >&2
        return 2
    }
    echo "$file"
}

# only_lines FILE LINES: FILE whole, its positions at lines other than LINES (comma-separated;
# empty: all of them) commented out, so that every line keeps its number. A line of LINES
# that holds no position is refused.
only_lines() {
    local file=$1 lines=$2 line
    for line in ${lines//,/ }; do
        [[ $line =~ ^[1-9][0-9]*$ ]] && sed -n "${line}p" "$file" | grep -qvE '^[[:space:]]*(#|$)' || {
            echo "open: $file has no position at line '$line'" >&2
            return 2
        }
    done
    awk -v wanted=",$lines," '
        wanted == ",," || /^[[:space:]]*(#|$)/ || index(wanted, "," FNR ",") { print; next }
        { print "# not asked for in this run: " $0 }' "$file"
}

# open_positions_together RUN SPEC…: RUN/positions.txt, the files of SPEC… (each FILE or
# FILE:LINE,…) whole one after another, the positions not asked for commented out, so that
# its line K is line K - open_offsets[i] of the file named open_names[i]
# (open_offsets[i] < K <= open_offsets[i] + open_counts[i]).
open_positions_together() {
    local run=$1 spec file lines offset=0
    shift
    open_names=() open_offsets=() open_counts=()
    : >"$run/positions.txt"
    for spec in "$@"; do
        file=${spec%%:*}
        lines=${spec#"$file"}
        lines=${lines#:}
        file=$(open_file "$file") || return 2
        only_lines "$file" "$lines" >>"$run/positions.txt" || return 2
        open_names+=("$(basename "$file" .txt)")
        open_offsets+=("$offset")
        open_counts+=("$(awk 'END { print NR }' "$file")")
        echo "open: lines $((offset + 1)) to $((offset + open_counts[-1])) of the run's positions are $file" >&2
        offset=$((offset + open_counts[-1]))
    done
}

# file_certificates RUN PROOFS: the certificates a run wrote into RUN (line-K.proof, K a line
# of RUN/positions.txt) moved to PROOFS/open-NAME/line-N.proof, N the line of their own file;
# RUN removed when nothing else is left in it.
file_certificates() {
    local run=$1 proofs=$2 proof line i filed
    for proof in "$run"/line-*.proof; do
        [ -e "$proof" ] || continue
        line=${proof##*/line-}
        line=${line%.proof}
        for i in "${!open_names[@]}"; do
            if [ "$line" -gt "${open_offsets[i]}" ] &&
                [ "$line" -le $((open_offsets[i] + open_counts[i])) ]; then
                filed=$proofs/open-${open_names[i]}/line-$((line - open_offsets[i])).proof
                mkdir -p "${filed%/*}"
                mv "$proof" "$filed"
                echo "open: certificate of line $((line - open_offsets[i])) of ${open_names[i]}: $filed" >&2
            fi
        done
    done
    rm -rf "$run/tops" "$run/positions.txt"
    rmdir "$run" 2>/dev/null || echo "open: $run kept (files not filed above)" >&2
}

# open_shared_state DIR STATE NAME…: the saved searches of the questions NAME… that an
# earlier version of the script kept in folders of their own, STATE/open-NAME, moved into DIR
# (where every question's are kept: they are named by position).
open_shared_state() {
    local dir=$1 state=$2 name saved
    shift 2
    mkdir -p "$dir"
    for name in "$@"; do
        for saved in "$state/open-$name"/*.dfpn; do
            [ -e "$saved" ] || continue
            if [ -e "$dir/${saved##*/}" ]; then
                echo "open: $saved left where it is: $dir has a search of that position" >&2
            else
                mv "$saved" "$dir/"
                echo "open: $saved moved into $dir (saved searches of every question are kept there)" >&2
            fi
        done
        rmdir "$state/open-$name" 2>/dev/null || true
    done
}
