#!/usr/bin/env python3
"""The body of tools/measure-lottie (read its header for usage). Arguments:
    bench.py CAPROF RLOTTIE_RENDER CORPUS REPEATS STEP [FILTER]
Prints Markdown (tables and totals) on stdout, progress on stderr.
"""
import json, math, os, re, shutil, statistics, subprocess, sys, tempfile, time, zipfile

caprof, rlottie, corpus, repeats, step = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
only = sys.argv[6] if len(sys.argv) > 6 else ""
here = os.path.dirname(os.path.abspath(__file__))
thorvg = [sys.executable, os.path.join(here, "thorvg_render.py")]
TIMEOUT = 600
tmp = tempfile.mkdtemp(prefix="measure-lottie.")
STAGES = ["evaluate", "images", "plan", "raster", "render", "png"]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def unpack(lottie, dest):
    """A .lottie package as a JSON file the peers can load: its first animation, with the package's
    images beside it (dotLottie v1 keeps them in images/, v2 in i/; assets name them relative)."""
    os.makedirs(dest, exist_ok=True)
    with zipfile.ZipFile(lottie) as z:
        first = json.loads(z.read("manifest.json"))["animations"][0]["id"]
        for n in z.namelist():
            if n.endswith("/"):
                continue
            data = z.read(n)
            if n.endswith(f"/{first}.json"):
                open(os.path.join(dest, "animation.json"), "wb").write(data)
            elif n.split("/")[0] in ("images", "i"):
                open(os.path.join(dest, os.path.basename(n)), "wb").write(data)
    return os.path.join(dest, "animation.json")


# The animations: manifest order, size from the manifest (the snapshot's pixels), ip/op/fr from the JSON.
samples = []
for i, s in enumerate(json.load(open(os.path.join(corpus, "manifest.json")))["samples"]):
    path = os.path.join(corpus, s["sample"])
    if only and not re.search(only, s["sample"]):
        continue
    peer_path = unpack(path, os.path.join(tmp, f"pkg{i}")) if path.endswith(".lottie") else path
    d = json.load(open(peer_path))
    w, h = s["size"]
    count = max(1, round(d["op"] - d["ip"]))                 # frames ip, ip+1, … < op
    frames = len(range(0, count, step))                        # every STEP-th of them: ip, ip+STEP, …
    samples.append(dict(name=s["sample"].removeprefix("samples/"), path=path, peer=peer_path, w=w, h=h,
                        scale=w / d["w"], fr=float(d["fr"]), count=count, frames=frames, bytes=os.path.getsize(path),
                        runs={"rlottie": [], "thorvg": [], "caprof": []}))
log(f"measure-lottie: {len(samples)} animations, {sum(s['frames'] for s in samples)} frames each engine, "
    f"{repeats} repetitions, every {step}. frame")

env = dict(os.environ)
env.setdefault("VK_DRIVER_FILES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
stage_re = re.compile(r"per frame: evaluate ([\d.]+), images ([\d.]+), plan ([\d.]+), raster ([\d.]+) \(\d+ rasterised in all\), "
                      r"render ([\d.]+), png ([\d.]+) ms")
one_re = re.compile(r"load ([\d.]+) ms")
first_re = re.compile(r"evaluate ([\d.]+) ms, images ([\d.]+) ms, plan ([\d.]+) ms, raster ([\d.]+) ms, render ([\d.]+) ms, png ([\d.]+) ms")
cache_re = re.compile(r"frame cache: (\d+) unchanged")


def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT)
    return time.perf_counter() - t0, p


def peer(engine, s):
    cmd = ([rlottie] if engine == "rlottie" else thorvg) + [s["peer"], str(s["w"]), str(s["h"]), str(s["count"]), str(step)]
    try:
        _, p = run(cmd)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode != 0:
        log(f"  {engine} failed on {s['name']}: {p.stderr.strip()[:200]}")
        return None
    ms, n, load = p.stdout.split()
    return dict(ms=float(ms), load=float(load))


def caprof_run(s):
    """One frame alone (process start to the first PNG written: the start-up), then all the frames."""
    out = os.path.join(tmp, "frames")
    shutil.rmtree(out, ignore_errors=True)
    common = ["--scale", repr(s["scale"])]
    try:
        wall1, p1 = run([caprof, "render", s["path"], "--time", "0", "-o", os.path.join(tmp, "one.png")] + common)
        walln, pn = run([caprof, "render", s["path"], "--frames", f"0:{s['frames']}f", "--fps", repr(s["fr"] / step),
                         "-o", out] + common)
    except subprocess.TimeoutExpired:
        return None
    if p1.returncode != 0 or pn.returncode != 0:
        log(f"  caprof failed on {s['name']}: {(p1.stderr + pn.stderr).strip()[-300:]}")
        return None
    m, l, f = stage_re.search(pn.stderr), one_re.search(p1.stderr), first_re.search(p1.stderr)
    if not m or not l or not f:
        log(f"  caprof: no stage timings for {s['name']}: {pn.stderr.strip()[-300:]}")
        return None
    mean = dict(zip(STAGES, map(float, m.groups())))
    first = dict(zip(STAGES, map(float, f.groups())))
    n = s["frames"]
    # Frames 2…N: (N·mean(1…N) − first) / (N − 1), the first frame (pipeline creation, first uploads)
    # taken from the one-frame run; an animation of one frame keeps that frame.
    stages = {k: max(0.0, (n * mean[k] - first[k]) / (n - 1)) if n > 1 else mean[k] for k in STAGES}
    c = cache_re.search(pn.stderr)
    return dict(startup=wall1 * 1e3, load=float(l.group(1)), stages=stages, first=first, mean=mean,
                wall=(walln - wall1) * 1e3 / (n - 1) if n > 1 else None,      # per frame after the first, PNG writing included
                ms=sum(v for k, v in stages.items() if k != "png"),            # per frame, rendering stages only
                reused=int(c.group(1)) if c else 0)


ENGINES = ["rlottie", "thorvg", "caprof"]
started = time.perf_counter()
for r in range(repeats):
    order = ENGINES[r % 3:] + ENGINES[:r % 3]          # interleaved, and which engine goes first rotates
    for i, s in enumerate(samples):
        for e in order:
            s["runs"][e].append(caprof_run(s) if e == "caprof" else peer(e, s))
        log(f"[{r + 1}/{repeats}] {i + 1}/{len(samples)} {s['name']} ({time.perf_counter() - started:.0f} s)")


if os.environ.get("MEASURE_LOTTIE_JSON"):     # every run's numbers, for another summary without a rerun
    json.dump([{k: v for k, v in s.items()} for s in samples], open(os.environ["MEASURE_LOTTIE_JSON"], "w"), indent=1)


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, digits=2):
    return "—" if v is None else f"{v:.{digits}f}"


rows = []
for s in samples:
    runs = s["runs"]
    c = [x for x in runs["caprof"] if x]
    row = dict(s=s,
               rlottie=med([x and x["ms"] for x in runs["rlottie"]]),
               thorvg=med([x and x["ms"] for x in runs["thorvg"]]),
               caprof=med([x["ms"] for x in c]),
               wall=med([x["wall"] for x in c]),
               startup=med([x["startup"] for x in c]),
               load=med([x["load"] for x in c]),
               stages={k: med([x["stages"][k] for x in c]) for k in STAGES} if c else None,
               mean={k: med([x["mean"][k] for x in c]) for k in STAGES} if c else None,
               reused=med([x["reused"] for x in c]),
               peer_load={e: med([x and x["load"] for x in runs[e]]) for e in ("rlottie", "thorvg")})
    row["ratio"] = row["caprof"] / row["thorvg"] if row["caprof"] is not None and row["thorvg"] else None
    rows.append(row)

print(f"{len(samples)} animations, every {step}. frame from ip to op ({sum(s['frames'] for s in samples)} frames per engine "
      f"per repetition), {repeats} repetitions interleaved (rlottie, ThorVG, caprof per animation, the first engine rotating), "
      f"medians of the repetitions. Wall time of the whole run: {time.perf_counter() - started:.0f} s.\n")
print("ms per frame. rlottie, ThorVG: rendering only (the file loaded once beforehand), one thread. caprof: *render* = the sum "
      "of its per-frame stages without PNG encoding (evaluate + images + plan + raster + render) over frames 2…N, i.e. "
      "(N·mean of frames 1…N − the first frame) / (N − 1), the first frame from the one-frame run (an animation of one frame: "
      "that frame, marked \\*); *wall* = "
      "(whole `--frames` run − one-frame run) / (frames − 1), PNG encoding and writing included. *start-up* = the wall time "
      "of a one-frame process (launch, Vulkan start, load, first frame, PNG). *load* = caprof's import stage "
      "(read, JSON parse, Lottie → layer tree). *reused* = frames caprof's frame cache found unchanged. "
      "caprof/ThorVG uses *render*.\n")
print("| animation | px | frames | rlottie | ThorVG | caprof render | caprof wall | caprof/ThorVG | start-up ms | load ms | reused |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    s = r["s"]
    star = "\\*" if s["frames"] == 1 else ""
    print(f"| {s['name']} | {s['w']}×{s['h']} | {s['frames']} | {fmt(r['rlottie'])} | {fmt(r['thorvg'])} | {fmt(r['caprof'])} | "
          f"{fmt(r['wall'])} | {fmt(r['ratio'])}{star} | {fmt(r['startup'], 0)} | {fmt(r['load'], 1)} | {fmt(r['reused'], 0)} |")

print("\n**Totals** (over the animations every engine rendered):\n")
both = [r for r in rows if all(r[e] is not None for e in ("rlottie", "thorvg", "caprof"))]
left = [r["s"]["name"] for r in rows if r not in both]
if left:
    print(f"Left out of the totals (an engine failed): {', '.join(left)}.\n")
print("| | rlottie | ThorVG | caprof render | caprof wall |")
print("|---|---:|---:|---:|---:|")
print(f"| median ms/frame | {fmt(med([r['rlottie'] for r in both]))} | {fmt(med([r['thorvg'] for r in both]))} | "
      f"{fmt(med([r['caprof'] for r in both]))} | {fmt(med([r['wall'] for r in both]))} |")
frames_total = sum(r["s"]["frames"] for r in both)
def seconds(key):
    return sum(r[key] * r["s"]["frames"] for r in both if r[key] is not None) / 1e3
print(f"| all frames, s ({frames_total} frames) | {seconds('rlottie'):.2f} | {seconds('thorvg'):.2f} | {seconds('caprof'):.2f} | "
      f"{sum((r['wall'] if r['wall'] is not None else r['caprof']) * r['s']['frames'] for r in both) / 1e3:.2f} |")
ratios = [r["ratio"] for r in both if r["ratio"] is not None]
if ratios:
    geo = 2 ** statistics.mean(math.log2(max(x, 1e-3)) for x in ratios)
    print(f"\ncaprof/ThorVG (render, per animation): median {statistics.median(ratios):.2f}, geometric mean {geo:.2f}, "
          f"min {min(ratios):.2f}, max {max(ratios):.2f}; all frames: {seconds('caprof') / seconds('thorvg'):.2f}. "
          f"caprof/rlottie all frames: {seconds('caprof') / seconds('rlottie'):.2f}.")
ok = [r for r in rows if r["startup"] is not None]
print(f"\ncaprof start-up (one-frame process, wall): median {fmt(med([r['startup'] for r in ok]), 0)} ms, "
      f"min {fmt(min((r['startup'] for r in ok), default=None), 0)} ms, max {fmt(max((r['startup'] for r in ok), default=None), 0)} ms.")

big = max(rows, key=lambda r: r["s"]["bytes"])
bigjson = max((r for r in rows if r["s"]["path"].endswith(".json")), key=lambda r: r["s"]["bytes"], default=None)
for r, what in ((big, "largest corpus file"), (bigjson, "largest JSON file")):
    if r is None:
        continue
    print(f"\nImport of the {what}, {r['s']['name']} ({r['s']['bytes'] / 1024:.0f} KB): caprof load {fmt(r['load'], 1)} ms "
          f"(median of {repeats}); for comparison rlottie {fmt(r['peer_load']['rlottie'], 1)} ms, "
          f"ThorVG {fmt(r['peer_load']['thorvg'], 1)} ms (their load calls; the peers read the unpacked JSON of a .lottie).")

print("\n**Where caprof's time goes** (its stage timings summed over one run of every animation, medians of the repetitions; "
      "load once per process, the others the `--frames` run's per-frame means × frames, first frames included):\n")
tot = {k: sum(r["mean"][k] * r["s"]["frames"] for r in ok if r["mean"] and r["mean"][k] is not None) for k in STAGES}
tot = {"load": sum(r["load"] for r in ok if r["load"] is not None), **tot}
allms = sum(tot.values())
names = {"load": "load (JSON parse + Lottie mapping)", "evaluate": "evaluate", "images": "images (decode)", "plan": "plan",
         "raster": "raster (shape rasterisation)", "render": "render (upload + composite)", "png": "png (encode, beside rendering)"}
print("| stage | s | share |")
print("|---|---:|---:|")
for k, v in tot.items():
    print(f"| {names[k]} | {v / 1e3:.2f} | {100 * v / allms:.1f} % |")
print(f"| sum | {allms / 1e3:.2f} | |")
shutil.rmtree(tmp, ignore_errors=True)
