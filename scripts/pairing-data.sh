#!/bin/sh
# Regenerates tests/data/pairing/random-dutch.trf.gz: random Swiss
# tournaments made and paired, round by round, by the FIDE-endorsed engine
# bbpPairings (Apache-2.0, its own random tournament generator `-g`), one
# configuration per seed (see the Python lines below). Needs the built
# bbpPairings binary as $BBP. Nothing of bbpPairings is committed: only the
# tournaments it produced.
set -eu
: "${BBP:?set BBP to the bbpPairings binary}"
out=$(mktemp -d)
count=${1:-5000}
python3 - "$out" "$count" <<'PY'
import os, random, subprocess, sys
out, count = sys.argv[1], int(sys.argv[2])
bbp = os.environ["BBP"]
for i in range(count):
    rng = random.Random(i)
    players = rng.randint(8, 150)
    rounds = rng.randint(3, min(11, players - 1))
    cfg = [f"PlayersNumber={players}", f"RoundsNumber={rounds}",
           f"DrawPercentage={rng.randint(10, 60)}"]
    if rng.random() < 0.6: cfg.append(f"ForfeitRate={rng.randint(8, 60)}")
    if rng.random() < 0.5: cfg.append(f"RetiredRate={rng.randint(10, 80)}")
    if rng.random() < 0.6: cfg.append(f"HalfPointByeRate={rng.randint(5, 40)}")
    path = os.path.join(out, f"t{i:05d}.trf")
    with open(path + ".cfg", "w") as f: f.write("\n".join(cfg) + "\n")
    # A seed whose random event has no valid pairing in some round is skipped.
    r = subprocess.run([bbp, "--dutch", "-g", path + ".cfg", "-o", path, "-s", str(i)],
                       capture_output=True)
    if r.returncode != 0 and os.path.exists(path):
        os.remove(path)
PY
for f in "$out"/t*.trf; do
    [ -s "$f" ] || continue
    echo "=== $(basename "$f")"
    tr '\r' '\n' < "$f" | grep -v '^$'
done | gzip -9n > tests/data/pairing/random-dutch.trf.gz
rm -r "$out"
