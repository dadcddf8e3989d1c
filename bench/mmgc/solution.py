"""Reel's adapter for the ACM MM 2022 short-video streaming challenge.

The challenge's run.py creates an `Algorithm` per trace and asks its `run(...)` for every
decision. This one forwards each decision, as one JSON line, to a long-running
`reel bench mmgc-policy` process and returns its answer, so the organisers' own simulator and
scorer judge a Reel policy. See README.md next to this file.

Environment:
  REEL_BIN     the reel executable (default: this checkout's .build/release/reel, then
               .build/debug/reel, then `reel` on PATH)
  REEL_POLICY  the policy to serve: reel (default), today, scheduler, no_save or fixed_preload
  REEL_ARGS    more arguments for `reel bench mmgc-policy`, e.g. "--set preload.mediaMs=3000"
"""
import json
import os
import shlex
import shutil
import subprocess
import weakref

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))
_LEVELS = 3


def _reel_binary():
    explicit = os.environ.get("REEL_BIN")
    if explicit:
        return explicit
    for build in ("release", "debug"):
        candidate = os.path.join(_ROOT, ".build", build, "reel")
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("reel")
    if found:
        return found
    raise RuntimeError("reel not found: build it (swift build -c release --product reel) or set REEL_BIN")


class _Reel:
    """The one `reel bench mmgc-policy` process of this run.py process."""
    process = None

    @classmethod
    def ask(cls, state):
        if cls.process is None or cls.process.poll() is not None:
            command = [_reel_binary(), "bench", "mmgc-policy", "--policy", os.environ.get("REEL_POLICY", "reel")]
            command += shlex.split(os.environ.get("REEL_ARGS", ""))
            cls.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        cls.process.stdin.write(json.dumps(state, separators=(",", ":")) + "\n")
        cls.process.stdin.flush()
        line = cls.process.stdout.readline()
        if not line:
            raise RuntimeError("reel bench mmgc-policy stopped answering (exit status %s)" % cls.process.poll())
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError("reel refused the state: " + reply["error"])
        return reply


# Chunk sizes do not change while a player is queued: converted once per player.
_sizes = weakref.WeakKeyDictionary()


def _video(index, player):
    sizes = _sizes.get(player)
    if sizes is None:
        sizes = [[int(size) for size in player.video_size[level]] for level in range(_LEVELS)]
        _sizes[player] = sizes
    _, retention = player.get_user_model()
    return {
        "index": index,
        "downloaded": int(player.get_chunk_counter()),
        "levels": [int(level) for level in player.get_downloaded_bitrate()],
        "playedMs": float(player.play_timeline),
        "bufferMs": float(player.get_buffer_size()),
        "sizes": sizes,
        "retention": [float(share) for share in retention],
    }


class Algorithm:
    def __init__(self):
        pass

    def Initialize(self):
        pass

    def run(self, delay, rebuf, video_size, end_of_video, play_video_id, Players, first_step=False):
        state = {
            "first": bool(first_step),
            "delayMs": float(delay),
            "rebufferMs": float(rebuf),
            "chunkBytes": int(video_size),
            "playing": int(play_video_id),
            "queue": [_video(play_video_id + position, player) for position, player in enumerate(Players)],
        }
        reply = _Reel.ask(state)
        return int(reply["download"]), int(reply["bitrate"]), float(reply["sleep"])
