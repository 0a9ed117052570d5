#!/bin/sh
# Makes crates/pbem-pairing/tests/data/random-accelerated.trf.gz: random Swiss
# tournaments with accelerated rounds, every round paired by the
# FIDE-endorsed engine bbpPairings (Apache-2.0). Its random generator (`-g`)
# knows no acceleration, so this script plays the tournament itself: it
# writes the TRF of the rounds so far, has bbpPairings pair the next round
# (`--dutch FILE -p OUT`), invents results (by rating, with draws,
# forfeits, half-point byes and withdrawals) and repeats. Even seeds use the
# Baku method (C.04.7; TRF-2026 `192 FIDE_DUTCH_2025_BAKU`, or its points as
# `250` records where bbpPairings' Baku group differs from C.04.7's, see
# below), odd seeds random fictitious points given by TRF-2026 `250` records. Needs the built
# bbpPairings binary as $BBP; nothing of bbpPairings is committed, only the
# tournaments it paired.
#
#   scripts/pairing-data-accelerated.sh [COUNT]   (default 400)
set -eu
: "${BBP:?set BBP to the bbpPairings binary}"
python3 - crates/pbem-pairing/tests/data/random-accelerated.trf.gz "${1:-400}" <<'PY'
import gzip, os, random, subprocess, sys, tempfile
file, count = sys.argv[1], int(sys.argv[2])
bbp = os.environ["BBP"]

def tournament(seed, work):
    rng = random.Random(seed)
    n = rng.randint(8, 120)
    rounds = rng.randint(4, min(11, n - 1))
    ratings = sorted((rng.randint(1400, 2700) for _ in range(n)), reverse=True)
    draw = rng.randint(10, 50) / 100
    forfeit = rng.choice([0, 0, 0.01, 0.03])
    hpb = rng.choice([0, 0, 0.01, 0.03])
    retire = rng.choice([0, 0, 0.005, 0.02])
    head = [f"012 Accelerated {seed}", f"142 {rounds}", "152 W"]
    if seed % 2 == 0 and n % 4 in (0, 3):
        head.insert(1, "192 FIDE_DUTCH_2025_BAKU")
    elif seed % 2 == 0:
        # bbpPairings' Baku group GA is the first half of the players
        # rounded up (n/2 rounded up), C.04.7's the first half rounded up to
        # an even number (2 * (n/4 rounded up)); they differ when n/2 rounded
        # up is odd. There the fictitious points of C.04.7 are written as
        # 250 records, which bbpPairings applies as given.
        ga = 2 * -(-n // 4)
        accelerated = -(-rounds // 2)
        full = -(-accelerated // 2)
        head.append(f"250      {1.0:>4.1f} {1:03d} {full:03d} {1:04d} {ga:04d}")
        if accelerated > full:
            head.append(f"250      {0.5:>4.1f} {full + 1:03d} {accelerated:03d} {1:04d} {ga:04d}")
    else:
        # Fictitious points for the top of the list in the first rounds.
        top = rng.randint(1, n)
        first_end = rng.randint(1, rounds)
        head.append(f"250      {1.0:>4.1f} {1:03d} {first_end:03d} {1:04d} {top:04d}")
        if first_end < rounds and rng.random() < 0.7:
            second_end = rng.randint(first_end + 1, rounds)
            head.append(f"250      {0.5:>4.1f} {first_end + 1:03d} {second_end:03d} {1:04d} {top:04d}")
    entries = [[] for _ in range(n)]   # (opponent, colour, result)
    gone = set()
    def text():
        lines = list(head)
        for i in range(n):
            pts = sum({"1": 1, "+": 1, "U": 1, "=": .5, "H": .5}.get(r, 0) for _, _, r in entries[i])
            line = f"001 {i + 1:>4} {'':4} {'Player%04d' % (i + 1):33} {ratings[i]:>4} {'':26} {pts:>4.1f} {i + 1:>4}"
            for o, c, r in entries[i]:
                line += f"  {o:>4} {c} {r}" if o else f"  0000 - {r}"
            lines.append(line)
        return "\r".join(lines) + "\r"
    for rnd in range(rounds):
        for i in range(n):
            if i in gone:
                entries[i].append((0, "-", "Z"))
            elif rng.random() < retire:
                gone.add(i)
                entries[i].append((0, "-", "Z"))
            elif rng.random() < hpb:
                entries[i].append((0, "-", "H"))
        path = os.path.join(work, f"a{seed}.trf")
        with open(path, "w", newline="") as f: f.write(text())
        r = subprocess.run([bbp, "--dutch", path, "-p", path + ".out"], capture_output=True)
        if r.returncode != 0:
            return None
        with open(path + ".out") as f:
            pairs = [tuple(map(int, l.split())) for l in f.read().split("\n")[1:] if l.strip()]
        for w, b in pairs:
            if b == 0:
                entries[w - 1].append((0, "-", "U"))
                continue
            w, b = w - 1, b - 1
            x = rng.random()
            if x < forfeit:
                rw, rb = ("+", "-") if rng.random() < 0.5 else ("-", "+")
            else:
                expect = 1 / (1 + 10 ** ((ratings[b] - ratings[w] - 30) / 400))
                if rng.random() < draw:
                    rw = rb = "="
                elif rng.random() < expect:
                    rw, rb = "1", "0"
                else:
                    rw, rb = "0", "1"
            entries[w].append((b + 1, "w", rw))
            entries[b].append((w + 1, "b", rb))
    return [f"=== a{seed:05d}.trf\n"] + [l + "\n" for l in text().split("\r") if l]

sections = []
with tempfile.TemporaryDirectory() as work:
    seed = 0
    while len(sections) < count:
        t = tournament(seed, work)
        if t: sections.append(t)
        seed += 1
data = "".join("".join(s) for s in sections).encode()
with open(file, "wb") as out:
    subprocess.run(["gzip", "-9n"], input=data, stdout=out, check=True)
PY
