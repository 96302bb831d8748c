"""What the corpus's workers run (docs/corpus.md): a task estimates one video, or one segment of a long one,
in the worker's own process through xme.run_estimate (its devices opened once per worker), writes its
outputs under a folder of its own and renames each into place when the task is whole.
"""

import ast
import hashlib
import json
import os
import re
import shutil
import socket
import time
import uuid

import xme

WORK_FOLDER = ".xme-work"  # a task's outputs while it runs; what a killed worker leaves is removed
PARTS_FOLDER = ".xme-parts"  # finished segments until their video is joined

# Where a worker's own devices are named: one name per worker, or several where it may run several
# (a CPU worker: "cpu,vulkan:0" with lavapipe). Set by the local cluster; on other hosts by whoever
# starts dask-worker.
DEVICES_VARIABLE = "XME_CORPUS_DEVICES"
THREADS_VARIABLE = "XME_CORPUS_THREADS"  # --threads of a CPU worker's jobs, unless the options give one


def file_digest(path):
    """The file's SHA-256, hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def worker_devices():
    return [name for name in os.environ.get(DEVICES_VARIABLE, "").split(",") if name]


def device_for(backend):
    """The device this worker runs a task on: for "auto" (or none) its own first device; for a family
    ("cuda", "vulkan:3") its own device of that family, so that N workers of N GPUs each use theirs;
    the name as given where the worker has none of it."""
    own = worker_devices()
    if backend in (None, "auto"):
        return own[0] if own else None
    family = backend.split(":")[0]
    for name in own:
        if name.split(":")[0] == family:
            return name
    return backend


def without_option(words, name):
    """`words` without the option `name` and its value (`--backend cuda` or `--backend=cuda`)."""
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word == name:
            skip = True
        elif not word.startswith(name + "="):
            kept.append(word)
    return kept


def worker_address():
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return "local"


def _failure(task, error, started):
    return {
        "task": task["id"],
        "video": task["video"],
        "kind": task["kind"],
        "status": "failed",
        "error": str(error),
        "exit_kind": getattr(error, "kind", "internal"),
        "exit_code": getattr(error, "exit_code", 1),
        "worker": worker_address(),
        "seconds": time.perf_counter() - started,
    }


def _place(staged, final):
    """Moves a whole output to its name; returns its manifest entry."""
    entry = {"bytes": os.path.getsize(staged), "sha256": file_digest(staged)}
    os.replace(staged, final)
    return entry


def run_task(task):
    """Estimates the task's frames. Returns its manifest record: done, with each output's size and
    checksum, or failed, with xme's message and exit kind (an unreadable video does not stop the run)."""
    started = time.perf_counter()
    work = os.path.join(task["out_dir"], WORK_FOLDER, task["id"] + "-" + uuid.uuid4().hex[:12])
    os.makedirs(work)
    try:
        staged = {role: os.path.join(work, os.path.basename(path)) for role, path in task["outputs"].items()}
        vectors_option = "--vector-array" if task["format"] == "array" else "-o"
        arguments = [task["video"], *task["arguments"], vectors_option, staged["vectors"], "--json", staged["summary"]]
        device = device_for(task["backend"])
        if device is not None:  # the worker's own device of the family asked for, in place of the name given
            arguments = without_option(arguments, "--backend") + ["--backend", device]
        if task["threads"] is None and os.environ.get(THREADS_VARIABLE):
            arguments += ["--threads", os.environ[THREADS_VARIABLE]]
        if task["start"] > 0:
            arguments += ["--start", str(task["start"])]
        if task["frames"] is not None:
            arguments += ["--frames", str(task["frames"])]
        if task.get("pictures"):
            os.makedirs(os.path.dirname(task["pictures"]), exist_ok=True)
            arguments += ["--draw", task["pictures"]]
        try:
            xme.run_estimate(arguments)
        except xme.Error as error:
            return _failure(task, error, started)
        with open(staged["summary"], encoding="utf-8") as stream:
            summary = json.load(stream)
        outputs = {}
        for role, final in task["outputs"].items():
            outputs[os.path.relpath(final, task["out_dir"])] = _place(staged[role], final)
        return {
            "task": task["id"],
            "video": task["video"],
            "kind": task["kind"],
            "status": "done",
            "outputs": outputs,
            "pairs": len(summary.get("frames", [])),
            "device": ", ".join(device["name"] for device in summary.get("devices", [])),
            "worker": worker_address(),
            "host": socket.gethostname(),
            "seconds": time.perf_counter() - started,
            "timing": summary.get("timing", {}),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _npy_parts(path):
    """(header text, rows, the other axes, data offset) of an NPY file xme wrote."""
    with open(path, "rb") as stream:
        prelude = stream.read(10)
        if prelude[:8] != b"\x93NUMPY\x01\x00":
            raise ValueError(path + " is not an NPY file of version 1.0")
        length = int.from_bytes(prelude[8:10], "little")
        text = stream.read(length).decode("latin-1")
    shape = ast.literal_eval(text.strip())["shape"]
    return text, shape[0], shape[1:], 10 + length


def join_npy(parts, target):
    """The parts' rows (or pairs) one after another, under the header xme writes for the whole (same length,
    the first axis replaced): byte for byte the file one `xme estimate -o` (or --vector-array) of every frame
    writes."""
    headers = [_npy_parts(part) for part in parts]
    if len({header[2] for header in headers}) != 1:
        raise ValueError("segments of one video with different shapes: " + ", ".join(parts))
    text = headers[0][0]
    rows = sum(header[1] for header in headers)
    joined = re.sub(r"'shape': \(\d+,", "'shape': (%d," % rows, text.rstrip("\n").rstrip())
    joined = joined.ljust(len(text) - 1) + "\n"
    if len(joined) != len(text):
        raise ValueError("the joined NPY header of %s does not fit its parts' header" % target)
    with open(target, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + joined.encode("latin-1"))
        for part, header in zip(parts, headers):
            with open(part, "rb") as stream:
                stream.seek(header[3])
                shutil.copyfileobj(stream, out, 1 << 20)


def join_csv(parts, target):
    """The first part's header line, then every part's rows."""
    with open(target, "wb") as out:
        for index, part in enumerate(parts):
            with open(part, "rb") as stream:
                header = stream.readline()
                if index == 0:
                    out.write(header)
                shutil.copyfileobj(stream, out, 1 << 20)


def join_segments(job, *segments):
    """A segmented video's outputs from its segments' (in frame order): the vectors joined, the summary a
    list of the segments' summaries. Failed segments make the video fail, naming the first."""
    started = time.perf_counter()
    failed = [segment for segment in segments if segment["status"] != "done"]
    if failed:
        record = dict(failed[0])
        record.update(task=job["id"], kind="video", worker=worker_address(), seconds=0.0)
        record["error"] = "segment %s: %s" % (failed[0]["task"], failed[0]["error"])
        return record
    work = os.path.join(job["out_dir"], WORK_FOLDER, job["id"] + "-" + uuid.uuid4().hex[:12])
    os.makedirs(work)
    try:
        vectors = os.path.join(work, os.path.basename(job["outputs"]["vectors"]))
        (join_csv if job["format"] == "csv" else join_npy)(job["vector_parts"], vectors)
        summaries = []
        for part in job["summary_parts"]:
            with open(part, encoding="utf-8") as stream:
                summaries.append(json.load(stream))
        summary = os.path.join(work, os.path.basename(job["outputs"]["summary"]))
        with open(summary, "w", encoding="utf-8") as stream:
            json.dump({"input": job["video"], "segments": summaries}, stream, indent=2)
            stream.write("\n")
        outputs = {
            os.path.relpath(job["outputs"]["vectors"], job["out_dir"]): _place(vectors, job["outputs"]["vectors"]),
            os.path.relpath(job["outputs"]["summary"], job["out_dir"]): _place(summary, job["outputs"]["summary"]),
        }
        for part in job["vector_parts"] + job["summary_parts"]:
            os.remove(part)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "task": job["id"],
        "video": job["video"],
        "kind": "video",
        "status": "done",
        "outputs": outputs,
        "pairs": sum(segment["pairs"] for segment in segments),
        "device": ", ".join(sorted({segment["device"] for segment in segments})),
        "worker": worker_address(),
        "host": socket.gethostname(),
        "seconds": time.perf_counter() - started,
        "segments": [segment["task"] for segment in segments],
    }
