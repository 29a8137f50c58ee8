# shellcheck shell=bash
# The bookkeeping of `scripts/reproduce.sh open` (which sources this file): several files of
# data/open searched in one run, and each certificate filed under its own file and line; and
# of `reproduce.sh open-split`: a split store of data/open/split-store unpacked and packed.
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

# The split stores of data/open/split-store: an open question answered by `solve --split`,
# whose store (every answer and certificate it has settled: kilobytes, where a saved search is
# a gigabyte) is kept in git as NAME.tar.gz, beside NAME.txt, the position it splits (its one
# line that is neither blank nor a comment). Used by `scripts/reproduce.sh open-split`.

# split_store_position NAME: the position of data/open/split-store/NAME.txt.
split_store_position() {
    local file=data/open/split-store/${1%.txt}.txt positions
    [ -f "$file" ] || {
        echo "open-split: no file '$file' (data/open/split-store holds: $(cd data/open/split-store 2>/dev/null && echo *.txt))" >&2
        return 2
    }
    positions=$(grep -vE '^[[:space:]]*(#|$)' "$file" || true)
    [ -n "$positions" ] && [ "$(printf '%s\n' "$positions" | wc -l)" -eq 1 ] || {
        echo "open-split: $file must hold one position (one line that is neither blank nor a comment)" >&2
        return 2
    }
    echo "$positions"
}

# split_store_unpack NAME DIR: DIR, the store a search goes on in, unpacked from
# data/open/split-store/NAME.tar.gz (an empty store where there is none yet) unless DIR is
# there already: a store in DIR holds whatever was settled since it was last packed. Unpacked
# beside DIR and then renamed, so that a stop halfway leaves no half store behind.
split_store_unpack() {
    local archive=data/open/split-store/$1.tar.gz dir=$2
    if [ -d "$dir" ]; then
        echo "open-split: going on with the store in $dir" >&2
        return
    fi
    rm -rf "$dir.unpacking"
    mkdir -p "$dir.unpacking"
    if [ -f "$archive" ]; then
        # Its files lie one folder down (NAME/ or ./), whatever the folder was called.
        tar xzf "$archive" -C "$dir.unpacking" --strip-components=1
        echo "open-split: $archive unpacked into $dir" >&2
    else
        echo "open-split: no $archive yet: a new store in $dir" >&2
    fi
    mv "$dir.unpacking" "$dir"
}

# split_store_pack NAME DIR: the store in DIR packed into data/open/split-store/NAME.tar.gz,
# to be committed: the same bytes for the same files (names sorted; no dates, owners or
# modes of this machine), so that git sees a change only where the store changed. Written
# beside it and then renamed, so that a stop halfway leaves the archive before it whole.
split_store_pack() {
    local archive=data/open/split-store/$1.tar.gz dir=$2
    [ -d "$dir" ] || {
        echo "open-split: no store in $dir to pack" >&2
        return 2
    }
    tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=a+rX,u+w,go-w \
        -cf - -C "$dir" . | gzip -n -9 >"$archive.packing"
    mv "$archive.packing" "$archive"
    echo "open-split: the store in $dir packed into $archive ($(find "$dir" -type f | wc -l) files, $(du -k "$archive" | cut -f1) KB)" >&2
}

# split_store_derive TABLES [LEAVE_OUT]: the 9-stone materials to answer one ply on (solve
# --derive; see open_questions in reproduce.sh), comma-separated: each of 2v7, 6v3 and 4v5
# whose system is whole in TABLES (both halves' files), so that the searches and the tables
# fit in memory; none of a system with a half in LEAVE_OUT (comma-separated materials left
# out: solve --leave-out).
split_store_derive() {
    local tables=$1 leave_out=",${2:-}," material other derive=()
    for material in 2v7 6v3 4v5; do
        other=${material#*v}v${material%v*}
        [[ $leave_out == *",$material,"* || $leave_out == *",$other,"* ]] && continue
        [ -f "$tables/5x9-loss-$material.fnval" ] && [ -f "$tables/5x9-loss-$other.fnval" ] &&
            derive+=("$material")
    done
    (IFS=,; echo "${derive[*]}")
}
