#!/usr/bin/env python3
"""Makes the launch splash samples of this folder (see README.md): three valid Lottie
animations and five that Reel must refuse. Deterministic: the same files on every run.

    pip install lottie==0.7.2
    python3 Samples/launch/make_samples.py

Cross-check (optional): pip install rlottie-python, then python3 make_samples.py --check prints
what rlottie itself reads from each file.
"""
import json
import os
import random
import sys

from lottie import Color, Point, objects
from lottie.exporters.core import export_lottie

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH, HEIGHT = 540, 960


def background(animation, color):
    """A full-canvas rectangle at the bottom of the layer stack."""
    layer = objects.ShapeLayer()
    layer.name = "background"
    group = layer.add_shape(objects.Group())
    rect = group.add_shape(objects.Rect())
    rect.position.value = Point(WIDTH / 2, HEIGHT / 2)
    rect.size.value = Point(WIDTH, HEIGHT)
    group.add_shape(objects.Fill(color))
    animation.add_layer(layer)


def snowfall(frame_rate=30, seconds=2.0, flakes=40, seed=1):
    """White flakes falling over a night sky."""
    frames = int(round(frame_rate * seconds))
    animation = objects.Animation(frames, frame_rate)
    animation.width, animation.height = WIDTH, HEIGHT
    animation.name = "snowfall"
    rng = random.Random(seed)
    layer = objects.ShapeLayer()
    layer.name = "flakes"
    for index in range(flakes):
        group = layer.add_shape(objects.Group())
        group.name = "flake %d" % index
        size = rng.uniform(8, 22)
        x = rng.uniform(0, WIDTH)
        drift = rng.uniform(-40, 40)
        start_y = rng.uniform(-HEIGHT, 0)
        flake = group.add_shape(objects.Ellipse())
        flake.size.value = Point(size, size)
        flake.position.add_keyframe(0, Point(x, start_y))
        flake.position.add_keyframe(frames - 1, Point(x + drift, start_y + HEIGHT * 1.2))
        group.add_shape(objects.Fill(Color(1, 1, 1)))
    animation.add_layer(layer)
    background(animation, Color(0.05, 0.1, 0.25))
    return animation


def lanterns(frame_rate=24, seconds=3.0, count=12, seed=2):
    """Orange lanterns rising and swaying."""
    frames = int(round(frame_rate * seconds))
    animation = objects.Animation(frames, frame_rate)
    animation.width, animation.height = WIDTH, HEIGHT
    animation.name = "lanterns"
    rng = random.Random(seed)
    layer = objects.ShapeLayer()
    layer.name = "lanterns"
    for index in range(count):
        group = layer.add_shape(objects.Group())
        group.name = "lantern %d" % index
        x = rng.uniform(40, WIDTH - 40)
        y = rng.uniform(HEIGHT * 0.6, HEIGHT * 1.1)
        body = group.add_shape(objects.Rect())
        body.size.value = Point(36, 52)
        body.rounded.value = 12
        body.position.add_keyframe(0, Point(x, y))
        body.position.add_keyframe(frames // 2, Point(x + 15, y - HEIGHT * 0.3))
        body.position.add_keyframe(frames - 1, Point(x - 10, y - HEIGHT * 0.6))
        group.add_shape(objects.Fill(Color(1, rng.uniform(0.45, 0.65), 0.1)))
    animation.add_layer(layer)
    background(animation, Color(0.12, 0.04, 0.2))
    return animation


def confetti(frame_rate=25, seconds=1.6, pieces=60, seed=3):
    """Coloured pieces bursting from the middle and spinning."""
    frames = int(round(frame_rate * seconds))
    animation = objects.Animation(frames, frame_rate)
    animation.width, animation.height = WIDTH, HEIGHT
    animation.name = "confetti"
    rng = random.Random(seed)
    palette = [Color(0.95, 0.2, 0.3), Color(0.2, 0.7, 0.95), Color(1, 0.85, 0.1), Color(0.3, 0.9, 0.4)]
    for index in range(pieces):
        layer = objects.ShapeLayer()
        layer.name = "piece %d" % index
        group = layer.add_shape(objects.Group())
        rect = group.add_shape(objects.Rect())
        rect.size.value = Point(rng.uniform(8, 16), rng.uniform(14, 28))
        group.add_shape(objects.Fill(palette[index % len(palette)]))
        end = Point(rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT))
        layer.transform.position.add_keyframe(0, Point(WIDTH / 2, HEIGHT / 2))
        layer.transform.position.add_keyframe(frames - 1, end)
        layer.transform.rotation.add_keyframe(0, 0)
        layer.transform.rotation.add_keyframe(frames - 1, rng.uniform(-720, 720))
        animation.add_layer(layer)
    background(animation, Color(0.08, 0.08, 0.1))
    return animation


def big(target_bytes=2 * 1024 * 1024 + 4096, seed=4):
    """A valid snowfall whose thousands of keyframed flakes make it larger than 2 MiB."""
    flakes = 40
    while True:
        animation = snowfall(flakes=flakes, seed=seed)
        animation.name = "big"
        size = len(json.dumps(animation.to_dict(), separators=(",", ":")))
        if size >= target_bytes:
            return animation
        flakes = int(flakes * target_bytes / size) + 10


def text_layer():
    """A greeting drawn with a text layer (ty 5), which rlottie does not draw."""
    animation = snowfall(flakes=10, seed=5)
    animation.name = "greeting"
    data = animation.to_dict()
    data["fonts"] = {"list": [{"fName": "Sans", "fFamily": "Sans", "fStyle": "Regular", "ascent": 75}]}
    data["layers"].insert(0, {
        "ddd": 0, "ind": 100, "ty": 5, "nm": "greeting", "sr": 1, "ip": 0, "op": data["op"], "st": 0,
        "ks": {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [WIDTH / 2, HEIGHT / 2, 0]},
               "a": {"a": 0, "k": [0, 0, 0]}, "s": {"a": 0, "k": [100, 100, 100]}},
        "t": {"d": {"k": [{"s": {"s": 48, "f": "Sans", "t": "Happy holidays", "j": 2, "tr": 0, "lh": 58, "ls": 0,
                                  "fc": [1, 1, 1]}, "t": 0}]},
              "p": {}, "m": {"g": 1, "a": {"a": 0, "k": [0, 0]}}, "a": []},
    })
    return data


def write(name, data):
    path = os.path.join(HERE, name)
    if not isinstance(data, (dict, str)):
        data = data.to_dict()
    # Keys keep the order the lottie package writes them in: rlottie 0.1 reads a shape's "ty"
    # before its other fields and draws nothing of a shape whose "ty" comes later (sorted keys).
    text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    with open(path, "w") as handle:
        handle.write(text)
    print("%-20s %9d bytes" % (name, len(text)))


def check():
    """What rlottie (through rlottie-python) reads from each file."""
    from rlottie_python import LottieAnimation
    for name in sorted(os.listdir(HERE)):
        if not name.endswith(".json") or name.startswith("splash-config"):
            continue
        try:
            animation = LottieAnimation.from_file(os.path.join(HERE, name))
            print("%-20s %4d frames %6.2f fps %6.2f s %s" % (
                name, animation.lottie_animation_get_totalframe(), animation.lottie_animation_get_framerate(),
                animation.lottie_animation_get_duration(), animation.lottie_animation_get_size()))
        except Exception as error:  # rlottie refuses it
            print("%-20s refused by rlottie: %s" % (name, error))


def main():
    if "--check" in sys.argv:
        check()
        return
    write("snowfall.json", snowfall())
    write("lanterns.json", lanterns())
    write("confetti.json", confetti())
    write("fast-60fps.json", snowfall(frame_rate=60, seconds=2.0))
    write("long-10s.json", snowfall(seconds=10.0))
    write("big-2mib.json", big())
    write("text-layer.json", text_layer())
    good = json.dumps(snowfall().to_dict(), separators=(",", ":"))
    write("malformed.json", good[: len(good) // 2])


if __name__ == "__main__":
    main()
