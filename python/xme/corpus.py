"""xme over a corpus of videos on Dask's distributed scheduler (docs/corpus.md).

    python3 -m xme.corpus VIDEO_OR_LIST... --out DIR [--scheduler tcp://HOST:8786] [estimate's options]

Each video (or each segment of a long one, --segment-frames) is a task that a worker runs in its own
process with xme.run_estimate; the vectors file of a video is byte for byte what `xme estimate -o
NAME.npy` writes with the same options. DIR/manifest.jsonl records every finished task with its outputs'
checksums: a second run on the same DIR skips them. Without --scheduler a local cluster runs one worker
per GPU and CPU workers on the cores left.
"""

import argparse
import collections
import hashlib
import json
import logging
import os
import shutil
import sys
import threading
import time

import xme
from xme import corpus_tasks

MANIFEST = "manifest.jsonl"
EXIT_INTERRUPTED = 130

# Options the corpus sets per task itself: given by the user they would write every video to one file.
OWN_OPTIONS = {
    "-o": "the corpus names each video's outputs (DIR/NAME.npy or .csv, --format)",
    "--output": "the corpus names each video's outputs (DIR/NAME.npy or .csv, --format)",
    "--json": "the corpus writes each video's summary (DIR/NAME.json)",
    "--start": "the corpus takes every frame of each video (--segment-frames splits them)",
    "--frames": "the corpus takes every frame of each video (--segment-frames splits them)",
    "--draw": "use the corpus's --pictures (DIR/NAME.frames/frame_%05d.png)",
    "--vector-array": "use the corpus's --format array (DIR/NAME.vectors.npy)",
    "--cost-array": "the corpus writes the vectors (--format) and the summary only",
    "--candidate-array": "the corpus writes the vectors (--format) and the summary only",
    "--export-mvs": "the corpus writes the vectors (--format) and the summary only",
    "--prediction": "the corpus writes the vectors (--format) and the summary only",
    "--residual": "the corpus writes the vectors (--format) and the summary only",
    "--coefficients": "the corpus writes the vectors (--format) and the summary only",
    "--read-only": "the corpus estimates",
    "-": "the corpus reads files",
}
LIST_SUFFIXES = (".txt", ".list")


class CorpusError(Exception):
    """A corpus that cannot start: a bad option, a DIR that holds another run. exit_code as xme's."""

    def __init__(self, message, exit_code=2):
        super().__init__(message)
        self.exit_code = exit_code


# ---------------------------------------------------------------------------------------------------
# Videos, names, tasks


def expand_videos(items):
    """Every video the arguments name: a file; a list (.txt or .list: a path a line, relative to the list,
    # comments); a folder (its files, sorted). Order kept, repeats dropped."""
    videos = []
    for item in items:
        if os.path.isdir(item):
            names = sorted(name for name in os.listdir(item) if not name.startswith("."))
            videos += [os.path.join(item, name) for name in names if os.path.isfile(os.path.join(item, name))]
        elif item.endswith(LIST_SUFFIXES) and os.path.isfile(item):
            base = os.path.dirname(os.path.abspath(item))
            with open(item, encoding="utf-8") as stream:
                for line in stream:
                    line = line.strip()
                    if line and not line.startswith("#"):
                        videos.append(os.path.join(base, line))
        else:
            videos.append(item)
    seen, unique = set(), []
    for video in videos:
        absolute = os.path.abspath(video)
        if absolute not in seen:
            seen.add(absolute)
            unique.append(absolute)
    return unique


def output_names(videos):
    """NAME per video: its file name without the extension; where two videos share one, NAME-HASH8 (the
    SHA-1 of the absolute path) for each of them."""
    stems = [os.path.splitext(os.path.basename(video))[0] or "video" for video in videos]
    counts = collections.Counter(stems)
    return [
        stem if counts[stem] == 1 else "%s-%s" % (stem, hashlib.sha1(video.encode()).hexdigest()[:8])
        for video, stem in zip(videos, stems)
    ]


def split_arguments(arguments):
    """(videos, estimate's options) from the words after the corpus's own options were taken: a word that
    follows an estimate option taking a value is that value."""
    takes_value = dict(xme.estimate_option_names())
    videos, options = [], []
    words = iter(arguments)
    for word in words:
        if word == "-" or not word.startswith("-"):
            if word in OWN_OPTIONS:
                raise CorpusError("%s: %s" % (word, OWN_OPTIONS[word]))
            videos.append(word)
            continue
        name = word.split("=", 1)[0]
        if name in OWN_OPTIONS:
            raise CorpusError("%s is not taken by the corpus: %s" % (name, OWN_OPTIONS[name]))
        if name not in takes_value:
            raise CorpusError("unknown option %s (xme.corpus takes its own options and xme estimate's)" % name)
        options.append(word)
        if takes_value[name] and "=" not in word:
            value = next(words, None)
            if value is None:
                raise CorpusError("%s needs a value" % name)
            options.append(value)
    return videos, options


def device_resources(job):
    """What a task asks of its worker: the family its --backend names ({"CUDA": 1}), none for "auto" or a
    job over several devices (--backends), which runs as given. `job` is check_estimate_arguments'."""
    if job["policy"] != "single":
        return {}, None
    backend = job["devices"][0]
    if backend == "auto":
        return {}, backend
    return {backend.split(":")[0].upper(): 1}, backend


def plan_jobs(videos, out_dir, options, settings, job):
    """One job per video: its final outputs, and its tasks (the video, or its segments). `job` is what
    xme.check_estimate_arguments read of the options."""
    fmt = settings["format"]
    suffix = {"npy": "npy", "csv": "csv", "array": "vectors.npy"}[fmt]
    segment_frames = settings["segment_frames"]
    refresh = job["refresh"]
    if segment_frames and job["reads_previous_pair"]:
        if refresh <= 0 or segment_frames % refresh != 0:
            raise CorpusError(
                "--segment-frames %d with a chain that reads the pair before (--predictor temporal, umh): "
                "segments must start at SPEC §8's refresh points; give --refresh R with --segment-frames a "
                "multiple of R" % segment_frames
            )
    parts_dir = os.path.join(out_dir, corpus_tasks.PARTS_FOLDER)
    resources, backend = device_resources(job)
    threads = job["threads"] or None
    jobs = []
    for video, name in zip(videos, output_names(videos)):
        outputs = {
            "vectors": os.path.join(out_dir, "%s.%s" % (name, suffix)),
            "summary": os.path.join(out_dir, name + ".json"),
        }
        base = {
            "video": video,
            "out_dir": out_dir,
            "arguments": options,
            "backend": backend,
            "threads": threads,
            "resources": resources,
            "format": fmt,
        }
        pictures = os.path.join(out_dir, name + ".frames", "frame_%05d.png") if settings["pictures"] else None
        segments = video_segments(video, segment_frames)
        job = {"id": name, "video": video, "format": fmt, "outputs": outputs, "out_dir": out_dir, "tasks": []}
        if segments is None:
            job["tasks"].append(dict(base, id=name, kind="video", start=0, frames=None, outputs=outputs,
                                     pictures=pictures))
        else:
            for index, (start, frames) in enumerate(segments):
                task_id = "%s.part%04d" % (name, index)
                part_outputs = {
                    "vectors": os.path.join(parts_dir, "%s.%s" % (task_id, suffix)),
                    "summary": os.path.join(parts_dir, task_id + ".json"),
                }
                job["tasks"].append(dict(base, id=task_id, kind="segment", start=start, frames=frames,
                                         outputs=part_outputs, pictures=pictures))
            job["vector_parts"] = [task["outputs"]["vectors"] for task in job["tasks"]]
            job["summary_parts"] = [task["outputs"]["summary"] for task in job["tasks"]]
        jobs.append(job)
    return jobs


def video_segments(video, segment_frames):
    """[(start, frames)] of a video split every segment_frames pairs (frames: None for the last, to the
    end), or None for one task: no segments asked, or a count that is not exact (a container's claim:
    the whole video is one task) or too small to split."""
    if not segment_frames:
        return None
    try:
        opened = xme.open_video(video)
        count, exact = opened.frame_count, opened.frame_count_exact
    except xme.Error:
        return None  # the task reports the error, as it would for a video not split
    if count is None or not exact or count - 1 <= segment_frames:
        return None
    pairs = count - 1
    starts = list(range(0, pairs, segment_frames))
    return [(start, None if start == starts[-1] else segment_frames + 1) for start in starts]


# ---------------------------------------------------------------------------------------------------
# The manifest: one JSON object a line, appended as tasks finish


def read_manifest(path):
    records = []
    if not os.path.exists(path):
        return records
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except ValueError:
                continue  # a line cut by a machine that stopped while writing it: the task runs again
    return records


def outputs_whole(record, out_dir):
    return all(
        os.path.isfile(os.path.join(out_dir, name)) and os.path.getsize(os.path.join(out_dir, name)) == entry["bytes"]
        for name, entry in record.get("outputs", {}).items()
    )


def finished_tasks(records, out_dir, run_options):
    """The ids of tasks recorded done whose outputs are all there, whole. A DIR of another run's options
    is refused: its files would not be this run's."""
    done = {}
    for record in records:
        if record.get("status") != "done":
            continue
        if record.get("options") != run_options:
            raise CorpusError(
                "%s holds a corpus run with other options (%s): use another --out, or the same options"
                % (out_dir, " ".join(record.get("options", {}).get("estimate", [])) or "none")
            )
        if outputs_whole(record, out_dir):
            done[record["task"]] = record
    return done


class Manifest:
    """Appends records, one line each, flushed and synced: a finished task is on disk before it counts."""

    def __init__(self, path, run_options):
        self.path = path
        self.run_options = run_options
        self.lock = threading.Lock()

    def append(self, record):
        record = dict(record, options=self.run_options, recorded=time.strftime("%Y-%m-%dT%H:%M:%S%z"))
        line = json.dumps(record, sort_keys=True) + "\n"
        with self.lock, open(self.path, "a", encoding="utf-8") as stream:
            stream.write(line)
            stream.flush()
            os.fsync(stream.fileno())


# ---------------------------------------------------------------------------------------------------
# The cluster


def local_cluster(cpu_workers, dashboard):
    """A Dask cluster of this machine: a worker per available GPU (a device not computing on the host's
    cores), with resources GPU=1 and its family (CUDA=1 or VULKAN=1), and cpu_workers CPU workers
    (CPU=1, and VULKAN=1 where Vulkan's device is lavapipe), each one task at a time, sharing the cores
    the GPU workers leave."""
    from distributed import Nanny, Scheduler, SpecCluster

    devices = [entry for entry in xme.devices() if entry["available"] and entry["backend"] != "reference"]
    gpus = [entry for entry in devices if not entry["on_host_cores"]]
    host_devices = [entry["name"] for entry in devices if entry["on_host_cores"]]
    host_devices.sort(key=lambda name: name != "cpu")  # "cpu" first: a CPU worker's "auto"
    cores = os.cpu_count() or 1
    if cpu_workers is None:
        cpu_workers = max(1, (cores - len(gpus)) // 2)
    threads = max(1, (cores - len(gpus)) // max(1, cpu_workers))
    workers = {}
    for entry in gpus:
        workers["gpu-" + entry["name"].replace(":", "")] = {
            "cls": Nanny,
            "options": {
                "nthreads": 1,
                "resources": {"GPU": 1, entry["backend"].upper(): 1},
                "env": {corpus_tasks.DEVICES_VARIABLE: entry["name"]},
                "silence_logs": logging.ERROR,
            },
        }
    for index in range(cpu_workers):
        resources = {"CPU": 1}
        for name in host_devices:
            resources[name.split(":")[0].upper()] = 1
        workers["cpu-%d" % index] = {
            "cls": Nanny,
            "options": {
                "nthreads": 1,
                "resources": resources,
                "env": {
                    corpus_tasks.DEVICES_VARIABLE: ",".join(host_devices),
                    corpus_tasks.THREADS_VARIABLE: str(threads),
                    "OMP_WAIT_POLICY": "passive",
                },
                "silence_logs": logging.ERROR,
            },
        }
    # Without bokeh Dask serves no dashboard page: no port is taken for it.
    scheduler = {"cls": Scheduler, "options": {"dashboard": dashboard, "dashboard_address": ":8787" if dashboard else None}}
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=logging.ERROR)


def offered_resources(client):
    offered = collections.Counter()
    for worker in client.scheduler_info()["workers"].values():
        offered.update(worker.get("resources", {}))
    return offered


def check_resources(client, jobs):
    wanted = {name for job in jobs for task in job["tasks"] for name in task["resources"]}
    offered = offered_resources(client)
    missing = sorted(name for name in wanted if not offered.get(name))
    if missing:
        raise CorpusError(
            "no worker of the cluster runs %s devices (its workers offer: %s): start one with "
            "`dask-worker SCHEDULER --nthreads 1 --resources \"GPU=1,%s=1\"` and %s=DEVICE in its environment"
            % (", ".join(name.lower() for name in missing), ", ".join(sorted(offered)) or "no resources",
               missing[0], corpus_tasks.DEVICES_VARIABLE),
            exit_code=4,
        )


# ---------------------------------------------------------------------------------------------------
# The run


def remove_work_folders(out_dir):
    """What tasks left half done (a killed worker, an interrupted run): never an output."""
    shutil.rmtree(os.path.join(out_dir, corpus_tasks.WORK_FOLDER), ignore_errors=True)


def submit_jobs(client, jobs, done):
    """Futures of every task that is not done, and of each segmented video's join."""
    futures = []
    for job in jobs:
        if job["id"] in done:
            continue
        segment_results = []
        for task in job["tasks"]:
            if task["id"] in done:
                segment_results.append(done[task["id"]])
                continue
            future = client.submit(corpus_tasks.run_task, task, key="xme-" + task["id"], pure=False,
                                   resources=task["resources"] or None)
            futures.append(future)
            segment_results.append(future)
        if "vector_parts" in job:
            futures.append(client.submit(corpus_tasks.join_segments, job, *segment_results, key="xme-join-" + job["id"],
                                         pure=False))
    return futures


def failure_of(future, task_id):
    try:
        error = future.exception()
    except Exception as raised:  # a cancelled future
        error = raised
    return {
        "task": task_id,
        "status": "failed",
        "kind": "join" if task_id.startswith("join-") else "task",
        "error": "%s: %s" % (type(error).__name__, error),
        "exit_kind": "internal",
        "exit_code": 1,
    }


def collect(futures, manifest, results, stop):
    """Records each future's result as it finishes, in the order they finish."""
    from distributed import as_completed

    for future in as_completed(futures):
        if stop.is_set():
            return
        task_id = future.key[len("xme-"):]
        if future.status == "finished":
            record = future.result()
        else:
            record = failure_of(future, task_id)
        manifest.append(record)
        results.append(record)
        # Its outputs are in place and recorded: if the worker that holds the result died now, Dask
        # would compute it again for a client still holding the future, writing the files anew behind
        # the record. (A segment stays held by its video's join until that has run.)
        future.release()


def summarise(jobs, done, results, wall_seconds, ready_seconds, out):
    """The end's table: videos, frames, pairs/s; per worker and device; failures."""
    finished = [r for r in results if r["status"] == "done"]
    failed = [r for r in results if r["status"] != "done" and r.get("kind") != "segment"]
    pair_records = [r for r in finished if r.get("kind") in ("video", "segment") and "segments" not in r]
    pairs = sum(r.get("pairs", 0) for r in pair_records)
    videos_done = sum(1 for r in finished if r.get("kind") == "video")
    skipped = sum(1 for job in jobs if job["id"] in done)
    frames = pairs + sum(1 for r in pair_records if r.get("kind") == "video")  # a segment's first frame is its
    frames += sum(1 for r in finished if "segments" in r)                     # video's or the one before's
    print("xme.corpus: %d video(s): %d done, %d done before (skipped), %d failed; %d frames, %d pairs in %.2f s: "
          "%.1f pairs/s (the cluster was ready after %.2f s)"
          % (len(jobs), videos_done, skipped, len(failed), frames, pairs, wall_seconds,
             pairs / wall_seconds if wall_seconds > 0 else 0.0, ready_seconds), file=out)
    per_worker = collections.defaultdict(lambda: [0, 0, 0.0, collections.Counter()])
    for r in pair_records:
        entry = per_worker[(r.get("worker", "?"), r.get("device", "?"))]
        entry[0] += 1
        entry[1] += r.get("pairs", 0)
        entry[2] += r.get("seconds", 0.0)
        stages = r.get("timing", {}).get("stages", {})
        entry[3]["setup"] += stages.get("setup_seconds", 0.0)
        entry[3]["read"] += stages.get("read_seconds", 0.0)
        entry[3]["deliver"] += stages.get("deliver_seconds", 0.0)
        entry[3]["device"] += r.get("timing", {}).get("device_seconds", 0.0)
    if per_worker:
        print("  %-28s %-12s %6s %8s %9s %9s  %s" % ("worker", "device", "tasks", "pairs", "busy s", "pairs/s",
                                                    "setup / read / deliver / device s"), file=out)
    for (worker, device), (tasks, worker_pairs, seconds, stages) in sorted(per_worker.items()):
        print("  %-28s %-12s %6d %8d %9.2f %9.1f  %.2f / %.2f / %.2f / %.2f"
              % (worker, device, tasks, worker_pairs, seconds, worker_pairs / seconds if seconds > 0 else 0.0,
                 stages["setup"], stages["read"], stages["deliver"], stages["device"]), file=out)
    for r in failed:
        print("  failed: %s (%s): %s" % (r.get("video", r["task"]), r.get("exit_kind", "?"), r.get("error", "")),
              file=out)


def run(videos, out_dir, scheduler=None, *, segment_frames=None, format="npy", pictures=False, cpu_workers=None,
        progress=True, arguments=(), **options):
    """Runs the corpus and returns its table: one dict per task finished or failed in this run (task, video,
    kind, status, outputs with bytes and sha256, pairs, device, worker, seconds; error, exit_kind and
    exit_code for a failure); the summary is printed. `options` are estimate's keywords as
    xme.estimate takes them (block=16, algo="hex", lambda_=4, device="cuda"); `arguments` the same as
    command-line words. Raises CorpusError before any work for a bad option or a DIR of other options."""
    words = list(arguments)
    for key, value in options.items():
        name = "--" + ("backend" if key == "device" else key.rstrip("_").replace("_", "-"))
        if value is True:
            words.append(name)
        elif value not in (False, None):
            words += [name, str(value)]
    return _run(expand_videos(list(videos)), os.path.abspath(out_dir), scheduler, words,
                {"segment_frames": segment_frames, "format": format, "pictures": pictures},
                cpu_workers, progress, sys.stdout)


def _run(videos, out_dir, scheduler, options, settings, cpu_workers, progress, out):
    if settings["format"] not in ("npy", "csv", "array"):
        raise CorpusError("--format %s: use npy, csv or array" % settings["format"])
    if settings["segment_frames"] is not None and settings["segment_frames"] < 1:
        raise CorpusError("--segment-frames %s: give 1 or more pairs" % settings["segment_frames"])
    if not videos:
        raise CorpusError("no video given")
    try:
        job = xme.check_estimate_arguments(["corpus-video", *options])
    except xme.Error as error:
        raise CorpusError(str(error)) from None
    os.makedirs(out_dir, exist_ok=True)
    run_options = {"estimate": options, "format": settings["format"], "segment_frames": settings["segment_frames"],
                   "pictures": settings["pictures"]}
    jobs = plan_jobs(videos, out_dir, options, settings, job)
    manifest_path = os.path.join(out_dir, MANIFEST)
    done = finished_tasks(read_manifest(manifest_path), out_dir, run_options)
    remove_work_folders(out_dir)
    os.makedirs(os.path.join(out_dir, corpus_tasks.PARTS_FOLDER), exist_ok=True)
    manifest = Manifest(manifest_path, run_options)

    from distributed import Client

    started = time.perf_counter()
    cluster = None
    try:
        import bokeh  # noqa: F401  the dashboard's only dependency
        dashboard = True
    except ImportError:
        dashboard = False
    if scheduler is None:
        cluster = local_cluster(cpu_workers, dashboard)
    client = Client(cluster if cluster is not None else scheduler)
    ready_seconds = time.perf_counter() - started
    results = []
    stop = threading.Event()
    try:
        if dashboard and progress:
            print("xme.corpus: Dask's dashboard: %s" % client.dashboard_link, file=out)
        check_resources(client, jobs)
        futures = submit_jobs(client, jobs, done)
        collector = threading.Thread(target=collect, args=(futures, manifest, results, stop), daemon=True)
        collector.start()
        try:
            if progress and futures:
                from distributed import progress as progress_bar

                progress_bar(futures)
                print(file=out)
            collector.join()
        except KeyboardInterrupt:
            stop.set()
            client.cancel(futures)
            raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        remove_work_folders(out_dir)
    table = list(results)
    summarise(jobs, done, table, time.perf_counter() - started, ready_seconds, out)
    return table


def exit_code_of(table):
    """0 when every task finished; else the exit code of the first failure (xme(1), EXIT STATUS)."""
    for record in table:
        if record["status"] != "done":
            return record.get("exit_code") or 1
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m xme.corpus",
        allow_abbrev=False,  # a prefix of one of its options may be the whole of one of estimate's
        description="Motion estimation over a corpus of videos on Dask: every other option is xme estimate's.",
        epilog="docs/corpus.md has the rules (outputs, manifest, resume, segments, workers and devices).",
    )
    parser.add_argument("--out", required=True, help="Folder of the outputs and the manifest")
    parser.add_argument("--scheduler", help="A Dask scheduler's address (tcp://HOST:8786); default: a local cluster")
    parser.add_argument("--segment-frames", type=int, help="Split each video into tasks of this many pairs")
    parser.add_argument("--format", default="npy", choices=("npy", "csv", "array"),
                        help="The vectors' file: npy or csv rows (-o), or array (--vector-array: NAME.vectors.npy, "
                             "int16 (pairs, blocks_y, blocks_x, 2)); default npy")
    parser.add_argument("--pictures", action="store_true", help="Each pair's vectors drawn: NAME.frames/*.png")
    parser.add_argument("--cpu-workers", type=int, help="CPU workers of the local cluster (default: cores/2)")
    parser.add_argument("--no-progress", action="store_true", help="No progress bar")
    own, rest = parser.parse_known_args(argv)
    try:
        words, options = split_arguments(rest)
        table = _run(expand_videos(words), os.path.abspath(own.out), own.scheduler, options,
                     {"segment_frames": own.segment_frames, "format": own.format, "pictures": own.pictures},
                     own.cpu_workers, not own.no_progress, sys.stdout)
    except CorpusError as error:
        print("xme.corpus: error: %s" % error, file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("xme.corpus: interrupted: the finished tasks' outputs are whole and in %s; run the same "
              "command again to do the rest" % os.path.join(own.out, MANIFEST), file=sys.stderr)
        return EXIT_INTERRUPTED
    code = exit_code_of(table)
    if code:
        failed = [r.get("video", r["task"]) for r in table if r["status"] != "done"]
        print("xme.corpus: error: %d task(s) failed: %s" % (len(failed), ", ".join(failed)), file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
