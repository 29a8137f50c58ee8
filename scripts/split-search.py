#!/usr/bin/env python3
"""Split search: "can SIDE force a win from FEN?" answered by many small searches instead of one.

The prototype (twentieth session) of what should become `fanorona solve --split`: every
position's turns are searched apart (`fanorona solve --position P --each-turn --only SIDE`, one
transposition table each, BUDGET nodes per turn), and the turns left open are split again, depth
first, up to DEPTH levels. Where SIDE moves, one turn it wins after settles the position; where
the other side moves, one turn after which SIDE cannot win settles it. On 5x9 after e2-e3A most
turns settle in thousands to millions of nodes, where one search of billions did not.

Each split position's report is kept in OUT/reports/KEY.json (KEY: a checksum of the position)
and its turns' certificates in OUT/proofs/KEY/, so a second run goes on where the first stopped;
`fanorona check-proof OUT/proofs/KEY/*.proof --at P --write FILE` joins one level (see the
README, "check-proof").

    scripts/split-search.py FEN [--side black] [--depth 12] [--budget 20000000]
        [--tables tables] [--out split] [--parallel 2] [--memory 2048]

Environment: FANORONA, the binary (default target/release/fanorona).
"""
import argparse, hashlib, json, os, subprocess, sys


def key(fen):
    return hashlib.sha1(fen.encode()).hexdigest()[:12]


class Split:
    def __init__(self, args):
        self.args = args
        self.binary = os.environ.get("FANORONA", "target/release/fanorona")
        os.makedirs(os.path.join(args.out, "reports"), exist_ok=True)

    def turns(self, fen):
        """Each turn from `fen`: (notation, position after it, "yes"/"no"/"unknown" for SIDE)."""
        report_file = os.path.join(self.args.out, "reports", key(fen) + ".json")
        if not os.path.exists(report_file):
            run = subprocess.run(
                [self.binary, "solve", "--position", fen, "--each-turn", "--only", self.args.side,
                 "--parallel", str(self.args.parallel), "--memory", str(self.args.memory),
                 "--tables", self.args.tables, "--max-nodes", str(self.args.budget),
                 "--certificate", os.path.join(self.args.out, "proofs", key(fen)), "--json"],
                capture_output=True, text=True)
            if not run.stdout:
                sys.exit(f"split-search: fanorona solve failed at {fen}: {run.stderr[-500:]}")
            with open(report_file, "w") as f:
                f.write(run.stdout)
        with open(report_file) as f:
            report = json.load(f)
        side_letter = self.args.side[0]
        result = []
        for turn in report["turns"]:
            search = turn["search"]
            moves_there = search["position"].endswith(" " + side_letter)
            answer = search["mover_can_force_a_win" if moves_there else "waiting_can_force_a_win"]
            result.append((turn["notation"], search["position"], answer))
        return result

    def solve(self, fen, depth, indent=""):
        """Whether SIDE can force a win from `fen`: "yes", "no" or "unknown"."""
        turns = self.turns(fen)
        answers = [answer for _, _, answer in turns]
        side_moves = fen.endswith(" " + self.args.side[0])
        print(f"{indent}{fen}: {answers.count('yes')} yes, {answers.count('no')} no, "
              f"{answers.count('unknown')} open", flush=True)
        settles, other = ("yes", "no") if side_moves else ("no", "yes")
        if settles in answers:
            return settles
        if all(answer == other for answer in answers):
            return other
        if depth == 0:
            return "unknown"
        all_settled = True
        for notation, after, answer in turns:
            if answer != "unknown":
                continue
            print(f"{indent}  {notation}:", flush=True)
            found = self.solve(after, depth - 1, indent + "    ")
            print(f"{indent}  {notation} -> {found}", flush=True)
            if found == settles:
                return settles
            all_settled = all_settled and found != "unknown"
        return other if all_settled else "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fen")
    parser.add_argument("--side", default="black", choices=["white", "black"])
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--budget", type=int, default=20_000_000)
    parser.add_argument("--tables", default="tables")
    parser.add_argument("--out", default="split")
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--memory", type=int, default=2048)
    args = parser.parse_args()
    answer = Split(args).solve(args.fen, args.depth)
    print(f"can {args.side} force a win from {args.fen}? {answer}")


if __name__ == "__main__":
    main()
