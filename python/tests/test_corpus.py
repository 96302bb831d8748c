"""xme.corpus on real Dask clusters (docs/corpus.md): a local cluster of two worker processes, a scheduler
and two workers started as separate processes (one of them killed mid-run), an interrupted run resumed,
and a long clip split into segments. Every output is compared byte for byte with `xme estimate`'s.

Clips are cut with ffmpeg from the opencv-doc videos at offsets drawn from the printed seed; without
Dask's python3-distributed or ffmpeg the test exits 77 (skipped) after saying why.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from support import CLIP_DIR, XME, rng

try:
    import distributed  # noqa: F401
except ImportError:
    print(f"skipped: {sys.executable} has no Dask distributed (install python3-distributed)")
    sys.exit(77)
if shutil.which("ffmpeg") is None:
    print("skipped: no ffmpeg to cut the test clips (install ffmpeg)")
    sys.exit(77)

from xme import corpus  # noqa: E402

PYTHONPATH = os.environ.get("PYTHONPATH", "")
CHAINS = [["--algo", "hex"], ["--algo", "dia+qpel", "--qp", "28"], ["--algo", "tz", "--predictor", "spatial"],
          ["--algo", "fs+hpel", "--range", "8"]]


def cut(source, path, start, frames, extra=()):
    """`frames` frames of `source` from frame `start`, as 4:2:0 Y4M (or what `path`'s extension says)."""
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", source, "-vf", f"select=gte(n\\,{start})",
                    "-frames:v", str(frames), "-pix_fmt", "yuv420p", *extra, path], check=True)


def estimate(video, options, output, *more, option="-o"):
    done = subprocess.run([XME, "estimate", video, *options, option, output, "-q", *more], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise AssertionError(f"xme estimate {video}: exit {done.returncode}: {done.stderr}")


def manifest(folder):
    with open(os.path.join(folder, corpus.MANIFEST), encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def run_corpus(*arguments, popen=None):
    """`python3 -m xme.corpus ARGUMENTS...` as a user runs it; a Popen when popen asks, else its result."""
    command = [sys.executable, "-m", "xme.corpus", *arguments]
    if popen is not None:
        return subprocess.Popen(command, **popen)
    return subprocess.run(command, capture_output=True, text=True)


class CorpusTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="xme-corpus-")
        generator = rng("corpus")
        cls.chain = CHAINS[int(generator.integers(len(CHAINS)))]
        print(f"chain: {' '.join(cls.chain)}", flush=True)
        cls.clips = []
        vtest, tree = os.path.join(CLIP_DIR, "vtest.avi"), os.path.join(CLIP_DIR, "tree.avi")
        for index in range(4):
            path = os.path.join(cls.folder, f"vtest{index}.y4m")
            cut(vtest, path, int(generator.integers(0, 700)), int(generator.integers(4, 9)))
            cls.clips.append(path)
        path = os.path.join(cls.folder, "tree.avi")  # a container: read through FFmpeg
        cut(tree, path, int(generator.integers(0, 20)), 6, ["-c:v", "mpeg4", "-q:v", "3"])
        cls.clips.append(path)
        # Bad inputs: a Y4M cut inside its third frame (two whole frames, then a damaged one), and a file
        # that is no video at all.
        truncated = os.path.join(cls.folder, "truncated.y4m")
        with open(cls.clips[0], "rb") as whole, open(truncated, "wb") as cut_file:
            data = whole.read()
            header_end = data.index(b"\n") + 1
            frame = data.index(b"FRAME", header_end + 1) - header_end
            cut_file.write(data[: header_end + 2 * frame + frame // 2])
        cls.truncated = truncated
        cls.not_video = os.path.join(cls.folder, "notes.avi")
        with open(cls.not_video, "w", encoding="utf-8") as stream:
            stream.write("not a video\n")
        cls.expected = {}
        for clip in cls.clips:
            name = os.path.splitext(os.path.basename(clip))[0]
            cls.expected[name] = os.path.join(cls.folder, f"expected-{name}.npy")
            estimate(clip, cls.chain, cls.expected[name])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def assert_outputs_equal(self, out, names, suffix="npy"):
        for name in names:
            with open(self.expected[name], "rb") as expected, open(os.path.join(out, f"{name}.{suffix}"), "rb") as got:
                self.assertEqual(got.read(), expected.read(), f"{name}.{suffix} differs from xme estimate's")

    def assert_nothing_half(self, out, expected=None):
        """Every file in DIR is the manifest, the segments' folder, or an output that is whole: recorded done
        with its checksum, or (a task that ended as the run was stopped, before its record) equal to
        `expected`'s file of that name."""
        expected = self.expected if expected is None else expected
        recorded = {name: entry for record in manifest(out) if record["status"] == "done"
                    for name, entry in record["outputs"].items()}
        for name in os.listdir(out):
            path = os.path.join(out, name)
            if name in (corpus.MANIFEST, ".xme-parts"):
                continue
            if name in recorded:
                self.assertEqual(corpus.corpus_tasks.file_digest(path), recorded[name]["sha256"], name)
            elif name.endswith(".json"):
                with open(path, encoding="utf-8") as stream:
                    json.load(stream)  # whole: it parses
            else:
                with open(expected[os.path.splitext(name)[0]], "rb") as whole, open(path, "rb") as got:
                    self.assertEqual(got.read(), whole.read(), f"{name} in {out} is not whole")
        self.assertFalse(os.path.exists(os.path.join(out, ".xme-work")), "a task's work folder was left")

    def test_local_cluster_matches_estimate_and_records_bad_inputs(self):
        out = os.path.join(self.folder, "local")
        videos = [*self.clips, self.truncated, self.not_video]
        # --backend names a family: each worker runs it on its own device of that family.
        table = corpus.run(videos, out, cpu_workers=2, progress=False, arguments=[*self.chain, "--backend", "cpu"])
        names = [os.path.splitext(os.path.basename(clip))[0] for clip in self.clips]
        self.assert_outputs_equal(out, names)
        records = manifest(out)
        self.assertEqual(sorted(r["task"] for r in records), sorted([*names, "truncated", "notes"]))
        failures = {r["task"]: r for r in records if r["status"] != "done"}
        self.assertEqual(set(failures), {"truncated", "notes"})
        for failure in failures.values():
            self.assertEqual(failure["exit_kind"], "bad_input", failure)
            self.assertEqual(failure["exit_code"], 3)
        self.assertIn("truncated", failures["truncated"]["error"])
        self.assertIn("notes.avi", failures["notes"]["error"])
        self.assertEqual(corpus.exit_code_of(table), 3)
        print("workers:", sorted({r["worker"] for r in records}), flush=True)
        for record in records:
            for name, entry in record.get("outputs", {}).items():
                self.assertEqual(entry["sha256"], corpus.corpus_tasks.file_digest(os.path.join(out, name)))
        self.assert_nothing_half(out)

    def test_worker_killed_mid_run(self):
        out = os.path.join(self.folder, "killed")
        scheduler_file = os.path.join(self.folder, "scheduler.json")
        env = dict(os.environ, PYTHONPATH=PYTHONPATH, OMP_WAIT_POLICY="passive")
        processes = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                       "--scheduler-file", scheduler_file], env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)]
        try:
            for _ in range(200):
                if os.path.exists(scheduler_file):
                    break
                time.sleep(0.05)
            workers = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", scheduler_file, "--nthreads", "1",
                                         "--no-nanny", "--host", "127.0.0.1", "--no-dashboard"], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
            processes += workers
            with open(scheduler_file, encoding="utf-8") as stream:
                address = json.load(stream)["address"]
            # Slow tasks (one thread, a wide range), so that the worker dies inside one.
            options = ["--algo", "fs", "--range", "32", "--threads", "1"]
            run = run_corpus(*self.clips, "--out", out, "--scheduler", address, "--no-progress", *options,
                             popen={"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, "env": env})
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not os.path.exists(os.path.join(out, corpus.MANIFEST)):
                time.sleep(0.02)
            workers[0].send_signal(signal.SIGKILL)
            self.assertLess(len(manifest(out)), len(self.clips), "the run ended before the worker was killed")
            stdout, stderr = run.communicate(timeout=300)
            self.assertEqual(run.returncode, 0, stdout + stderr)
        finally:
            for process in processes:
                process.kill()
                process.wait()
        names = [os.path.splitext(os.path.basename(clip))[0] for clip in self.clips]
        expected = {}
        for clip, name in zip(self.clips, names):
            expected[name] = os.path.join(self.folder, f"expected-threads-{name}.npy")
            estimate(clip, options, expected[name])
        for name in names:
            with open(expected[name], "rb") as a, open(os.path.join(out, name + ".npy"), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)
        tasks = [r["task"] for r in manifest(out)]
        self.assertEqual(sorted(tasks), sorted(names), "each task once in the manifest")
        self.assert_nothing_half(out, expected)

    def test_interrupted_run_resumes(self):
        out = os.path.join(self.folder, "resumed")
        arguments = [*self.clips, "--out", out, "--cpu-workers", "1", "--no-progress", *self.chain, "--threads", "1"]
        # As Ctrl-C in a terminal: SIGINT to the whole process group (the client and its workers).
        run = run_corpus(*arguments, popen={"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True,
                                            "start_new_session": True})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (os.path.exists(os.path.join(out, corpus.MANIFEST))
                                                   and manifest(out)):
            time.sleep(0.02)
        os.killpg(run.pid, signal.SIGINT)
        stdout, stderr = run.communicate(timeout=120)
        first = manifest(out)
        self.assertGreaterEqual(len(first), 1)
        if run.returncode == 0:
            self.skipTest("the run finished before it was interrupted (a fast machine): nothing to resume")
        self.assertEqual(run.returncode, corpus.EXIT_INTERRUPTED, stdout + stderr)
        self.assertIn("interrupted", stderr)
        self.assert_nothing_half(out)
        self.assertLess(len(first), len(self.clips), "every task finished before the interrupt")
        again = run_corpus(*arguments)
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        self.assertIn(f"{len(first)} done before (skipped)", again.stdout)
        second = manifest(out)[len(first):]
        self.assertEqual(sorted(r["task"] for r in first + second),
                         sorted(os.path.splitext(os.path.basename(clip))[0] for clip in self.clips),
                         "only the unfinished tasks ran again")
        names = [os.path.splitext(os.path.basename(clip))[0] for clip in self.clips]
        self.assert_outputs_equal(out, names)
        self.assert_nothing_half(out)

    def test_segments_give_estimates_vectors(self):
        long_clip = os.path.join(self.folder, "long.y4m")
        generator = rng("segments")
        cut(os.path.join(CLIP_DIR, "vtest.avi"), long_clip, int(generator.integers(0, 600)), 41)
        refresh = int(generator.integers(2, 5))
        segment = refresh * int(generator.integers(2, 4))
        options = ["--algo", "umh" if generator.integers(2) else "hex", "--predictor", "temporal",
                   "--refresh", str(refresh)]
        print(f"segments: {segment} pairs, {' '.join(options)}", flush=True)
        for fmt, suffix, option in (("npy", "npy", "-o"), ("csv", "csv", "-o"), ("array", "vectors.npy", "--vector-array")):
            out = os.path.join(self.folder, "segments-" + fmt)
            done = run_corpus(long_clip, "--out", out, "--cpu-workers", "2", "--segment-frames", str(segment),
                              "--format", fmt, "--no-progress", *options)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            expected = os.path.join(self.folder, "expected-long." + suffix)
            estimate(long_clip, options, expected, option=option)
            with open(expected, "rb") as a, open(os.path.join(out, "long." + suffix), "rb") as b:
                self.assertEqual(a.read(), b.read(), f"segmented long.{suffix} differs from xme estimate's")
            records = manifest(out)
            segments = [r for r in records if r["kind"] == "segment"]
            self.assertEqual(len(segments), -(-40 // segment))
            print(f"{fmt}: segments on", sorted({r["worker"] for r in segments}), flush=True)
            self.assertEqual(os.listdir(os.path.join(out, ".xme-parts")), [], "segment parts left after the join")
        refused = run_corpus(long_clip, "--out", os.path.join(self.folder, "refused"), "--segment-frames", "5",
                             "--algo", "hex", "--predictor", "temporal", "--no-progress")
        self.assertEqual(refused.returncode, 2)
        self.assertIn("refresh", refused.stderr)


if __name__ == "__main__":
    unittest.main()
