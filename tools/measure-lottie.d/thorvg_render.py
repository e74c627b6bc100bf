#!/usr/bin/env python3
"""ThorVG peer for tools/measure-lottie (thorvg-python 1.1.3, ThorVG's software canvas, no worker threads).

Loads one Lottie JSON file (tools/measure-lottie unpacks .lottie packages first: ThorVG's build here refuses
them), sizes the picture to WIDTH×HEIGHT, and renders frames
first, first+step, … (< count; frame numbers relative to the animation's ip, as ThorVG counts them) into
one ARGB8888 buffer, timing set_frame + update + draw + sync (CLOCK_MONOTONIC) per frame.
Prints: "<ms per frame> <frames rendered> <load ms>".
    thorvg_render.py FILE WIDTH HEIGHT COUNT STEP
"""
import sys, time

import thorvg_python as tvg


def main():
    path, w, h, count, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), max(1, int(sys.argv[5]))
    engine = tvg.Engine(threads=0)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(w, h, w, tvg.Colorspace.ARGB8888)
    anim = tvg.LottieAnimation(engine)
    pic = anim.get_picture()
    t0 = time.perf_counter()
    res = pic.load(path)
    load = (time.perf_counter() - t0) * 1e3
    if res != tvg.Result.SUCCESS:
        print(f"thorvg: cannot load {path}: {res}", file=sys.stderr)
        sys.exit(1)
    pic.set_size(w, h)
    canvas.add(pic)
    total, frames = 0.0, 0
    for f in range(0, count, step):
        t = time.perf_counter()
        anim.set_frame(float(f))
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        total += time.perf_counter() - t
        frames += 1
    print(f"{total / frames * 1e3:.4f} {frames} {load:.3f}")


main()
