#!/bin/sh
# Makes crates/pbem-pairing/tests/data/random-dutch.trf.gz: random Swiss
# tournaments made and paired, round by round, by the FIDE-endorsed engine
# bbpPairings (Apache-2.0, its own random tournament generator `-g`), one
# configuration per seed (see the Python lines below). Needs the built
# bbpPairings binary as $BBP. Nothing of bbpPairings is committed: only the tournaments it
# produced.
#
#   scripts/pairing-data.sh [COUNT]   (default 5000)
#
# makes COUNT tournaments. The generator is deterministic per seed, so the
# tournaments already in the file are kept and seeds are tried from the one
# after its last tournament until there are COUNT (a seed whose random
# event has no valid pairing in some round gives none and is passed over);
# an interrupted run can thus be resumed. FRESH=1 starts again from seed 0.
# JOBS=2 runs two generators at once (the default is 1).
set -eu
: "${BBP:?set BBP to the bbpPairings binary}"
file=crates/pbem-pairing/tests/data/random-dutch.trf.gz
python3 - "$file" "${1:-5000}" "${FRESH:-0}" "${JOBS:-1}" <<'PY'
import concurrent.futures, gzip, os, random, subprocess, sys, tempfile
file, count, fresh, jobs = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
bbp = os.environ["BBP"]

# The set so far: "=== tNNNNN.trf" headers, each followed by its TRF lines.
sections = []
if not fresh and os.path.exists(file):
    with gzip.open(file, "rt") as f:
        for line in f:
            if line.startswith("=== "):
                sections.append([line])
            else:
                sections[-1].append(line)
del sections[count:]
next_seed = int(sections[-1][0][5:10]) + 1 if sections else 0

def generate(seed, work):
    rng = random.Random(seed)
    players = rng.randint(8, 150)
    rounds = rng.randint(3, min(11, players - 1))
    cfg = [f"PlayersNumber={players}", f"RoundsNumber={rounds}",
           f"DrawPercentage={rng.randint(10, 60)}"]
    if rng.random() < 0.6: cfg.append(f"ForfeitRate={rng.randint(8, 60)}")
    if rng.random() < 0.5: cfg.append(f"RetiredRate={rng.randint(10, 80)}")
    if rng.random() < 0.6: cfg.append(f"HalfPointByeRate={rng.randint(5, 40)}")
    path = os.path.join(work, f"t{seed:05d}.trf")
    with open(path + ".cfg", "w") as f: f.write("\n".join(cfg) + "\n")
    r = subprocess.run([bbp, "--dutch", "-g", path + ".cfg", "-o", path, "-s", str(seed)],
                       capture_output=True)
    text = None
    if r.returncode == 0 and os.path.exists(path):
        with open(path, newline="") as f:
            text = f.read()
    for p in (path, path + ".cfg"):
        if os.path.exists(p): os.remove(p)
    if not text: return None
    lines = [l + "\n" for l in text.replace("\r", "\n").split("\n") if l]
    return [f"=== t{seed:05d}.trf\n"] + lines

def save():
    data = "".join("".join(s) for s in sections).encode()
    with open(file + ".tmp", "wb") as out:
        subprocess.run(["gzip", "-9n"], input=data, stdout=out, check=True)
    os.replace(file + ".tmp", file)

with tempfile.TemporaryDirectory() as work, \
        concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    seed = next_seed
    while len(sections) < count:
        # Batches of at most 200 seeds, saved after each: a stopped run loses little.
        batch = range(seed, seed + min(200, max(jobs, count - len(sections))))
        for section in pool.map(lambda s: generate(s, work), batch):
            if section and len(sections) < count:
                sections.append(section)
        seed = batch.stop
        save()
        print(f"{len(sections)} tournaments, next seed {seed}", file=sys.stderr)
save()
PY
