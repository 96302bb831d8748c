#!/usr/bin/env bash
# Interrupts `xme estimate` runs that write every kind of output, and checks what they leave (xme(1),
# SIGNALS and WRITING OUTPUTS): each output path holds its previous content or a whole file (CSV rows and
# Y4M frames whole, an NPY header whose shape is the data's, PNGs ending in IEND, .flo fields whole),
# no temporary file is left beside them, all outputs of a run hold the same pairs, and the JSON
# summary is absent or says how the run ended (the signal, an error, or every pair).
#   tools/interrupt_check.sh [RUNS] [SEED]   # RUNS (default 200) on a folder, RUNS on a small tmpfs
# Each run sends SIGINT or SIGTERM at a random time; the tmpfs (1500 KiB, mounted when run as root)
# fills up during most runs, so they end by a full disk, by the signal or both. Prints the seed, one
# line per failed run and a summary; exits 1 when any run broke a property.
# Needs: a built xme (XME, default build/ci/tools/xme, else build/default/tools/xme), /usr/bin/python3
# with numpy, the clip (CLIP, default OpenCV's tree.avi).
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200}"
seed="${2:-$(date +%s)}"
xme="${XME:-}"
if [ -z "$xme" ]; then
  for candidate in build/ci/tools/xme build/default/tools/xme; do
    [ -x "$candidate" ] && { xme=$candidate; break; }
  done
fi
clip="${CLIP:-/usr/share/doc/opencv-doc/examples/data/tree.avi}"
frames="${FRAMES:-30}"
[ -x "$xme" ] || { echo "interrupt_check: no xme binary (set XME)" >&2; exit 2; }
xme="$(cd "$(dirname "$xme")" && pwd)/$(basename "$xme")"  # the runs start in their own folders
[ -f "$clip" ] || { echo "interrupt_check: no clip $clip (set CLIP)" >&2; exit 2; }
/usr/bin/python3 -c 'import numpy' 2>/dev/null || { echo "interrupt_check: /usr/bin/python3 needs numpy" >&2; exit 2; }
echo "interrupt_check: seed $seed, $runs runs on a folder and $runs on a small tmpfs, xme $xme, clip $clip"
RANDOM=$seed
# Background jobs keep SIGINT (without job control, bash starts them with SIGINT ignored).
set -m

scratch=$(mktemp -d "${TMPDIR:-/tmp}/xme-interrupt.XXXXXX")
tmpfs="$scratch/tmpfs"
mounted=0
cleanup() {
  [ "$mounted" = 1 ] && umount "$tmpfs" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

checker="$scratch/check.py"
cat > "$checker" <<'PYTHON'
# check.py DIR STATUS SIGNAL SENT PAIRS PREVIOUS OUTPUTS...: what one run left in DIR.
import glob, json, os, struct, sys
import numpy as np

folder, status, signal, sent, pairs, previous = sys.argv[1:7]
status, sent, pairs, previous = int(status), sent == "1", int(pairs), previous == "1"
outputs = sys.argv[7:]
MARKER = b"previous run\n"
problems, counts, kept_previous = [], {}, []
width, height = 320, 240

def fail(text):
    problems.append(text)

def npy(path, descr_check):
    data = open(path, "rb").read()
    if data[:6] != b"\x93NUMPY":
        return fail(f"{path}: no NPY magic")
    length = struct.unpack("<H", data[8:10])[0]
    array = np.load(path)
    if len(data) != 10 + length + array.nbytes:
        return fail(f"{path}: {len(data)} bytes for shape {array.shape} of {array.dtype}")
    return descr_check(array)

def y4m_frames(path):
    data = open(path, "rb").read()
    header = data.find(b"\n") + 1
    if not data.startswith(b"YUV4MPEG2 ") or header == 0:
        return fail(f"{path}: no Y4M header")
    frame = 6 + width * height
    if (len(data) - header) % frame:
        return fail(f"{path}: {len(data) - header} bytes of frames, not whole {frame}-byte frames")
    for i in range((len(data) - header) // frame):
        if data[header + i * frame: header + i * frame + 6] != b"FRAME\n":
            return fail(f"{path}: frame {i} has no FRAME line")
    return (len(data) - header) // frame

def csv_frames(path):
    data = open(path, "rb").read()
    if not data.endswith(b"\n"):
        return fail(f"{path}: does not end with a newline (a cut row)")
    lines = data.decode().splitlines()
    if not lines[0].startswith("frame,x,y"):
        return fail(f"{path}: no header")
    per_frame = {}
    for line in lines[1:]:
        cells = line.split(",")
        if len(cells) != 9:
            return fail(f"{path}: a row of {len(cells)} cells: {line!r}")
        per_frame[int(cells[0])] = per_frame.get(int(cells[0]), 0) + 1
    if len(set(per_frame.values())) > 1:
        return fail(f"{path}: frames of different row counts {per_frame}")
    return len(per_frame)

def field_npy_frames(array):
    if array.ndim != 2 or array.shape[1] != 9:
        return fail(f"field npy shape {array.shape}")
    frames, rows = np.unique(array[:, 0], return_counts=True)
    if len(set(rows.tolist())) > 1:
        return fail(f"field npy: frames of different row counts")
    return len(frames)

def plane_npy_frames(array):
    if array.ndim != 3 or array.shape[1:] != (height, width):
        return fail(f"plane npy shape {array.shape}")
    return array.shape[0]

def mvs_frames(array):
    if array.ndim != 1 or "motion_x" not in array.dtype.names:
        return fail(f"mvs npy shape {array.shape} {array.dtype}")
    return len(np.unique(array["frame"]))

def png_ok(path):
    data = open(path, "rb").read()
    return data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")

def flo_ok(path):
    data = open(path, "rb").read()
    return len(data) == 12 + width * height * 8 and data[:4] == b"PIEH"

def check():
    global summary
    leftovers = [name for name in os.listdir(folder) if ".xme-" in name]
    if leftovers:
        fail(f"temporary files left: {leftovers}")
    for output in outputs:
        kind, name = output.split(":", 1)
        path = os.path.join(folder, name)
        if kind in ("png", "flo"):
            files = sorted(glob.glob(os.path.join(folder, name)))
            good = [f for f in files if (png_ok(f) if kind == "png" else flo_ok(f))]
            for f in set(files) - set(good):
                if open(f, "rb").read() != MARKER:
                    fail(f"{f}: not a whole {kind}")
            counts[name] = len(good)
            continue
        if not os.path.exists(path):
            if kind != "json":
                kept_previous.append(name) if not previous else fail(f"{name}: removed")
            continue
        if open(path, "rb").read() == MARKER:
            kept_previous.append(name)
            continue
        if kind == "json":
            summary = json.load(open(path))
            counts[name] = len(summary["frames"])
        elif kind == "csv":
            counts[name] = csv_frames(path)
        elif kind == "npy":
            counts[name] = npy(path, field_npy_frames)
        elif kind == "planes":
            counts[name] = npy(path, plane_npy_frames)
        elif kind == "mvs":
            counts[name] = npy(path, mvs_frames)
        elif kind == "y4m":
            counts[name] = y4m_frames(path)

    single = [o.split(":", 1)[1] for o in outputs if o.split(":", 1)[0] not in ("png", "flo", "json")]
    held_by = {name: n for name, n in counts.items() if n is not None}
    if len(set(held_by.values())) > 1:
        fail(f"outputs disagree on the pairs they hold: {held_by}")
    held = max(held_by.values(), default=0)
    new_single = [name for name in single if name not in kept_previous]
    if new_single and kept_previous and not (status == 7 and held == 0):
        fail(f"some outputs are new ({new_single}) and some not ({kept_previous})")
    if "s.json" in kept_previous and new_single:
        fail("the summary is the previous run's while the outputs are new")
    killed = status == 128 + int(signal)
    if status not in (0, 7) and not killed:
        fail(f"exit status {status}")
    if summary is not None:
        if summary.get("interrupted") not in (None, "SIGINT" if signal == "2" else "SIGTERM"):
            fail(f"summary: interrupted {summary.get('interrupted')}")
        complete = len(summary["frames"]) == pairs and summary["error"] is None
        if summary.get("interrupted") is None and summary["error"] is None and not complete:
            fail(f"summary: {len(summary['frames'])} of {pairs} pairs, neither interrupted nor an error")
        if status == 7 and summary["error"] is None:
            fail("exit 7 and no error in the summary")
    if status == 0 and held != pairs:
        fail(f"exit 0 with {held} of {pairs} pairs")
    return killed, held


summary = None
try:
    killed, held = check()
except Exception as error:  # a file no reader takes (a 0-byte summary, a cut NPY header)
    fail(f"{type(error).__name__}: {error}")
    killed, held = False, 0
ending = "signal" if killed else "full" if status == 7 else "complete"
print(("FAIL " + "; ".join(problems)) if problems else f"ok {ending} {held}")
PYTHON

# One run: outputs chosen at random, old content at the paths or none, the signal at a random time
# up to MAX_DELAY_MS (0: none). Prints the checker's line.
run_one() {
  local dir=$1 max_delay_ms=$2
  rm -rf "${dir:?}"/* "$dir"/.[!.]* 2>/dev/null
  local args=(estimate "$clip" --frames "$frames" --range 2 --backend cpu -q --read-threads 0)
  local outputs=()
  case $((RANDOM % 3)) in
    0) args+=(-o v.csv); outputs+=(csv:v.csv) ;;
    1) args+=(-o v.npy); outputs+=(npy:v.npy) ;;
    2) args+=(-o 'f_%03d.flo'); outputs+=('flo:f_*.flo') ;;
  esac
  args+=(--prediction p.y4m --export-mvs m.mvs.npy --json s.json)
  outputs+=(y4m:p.y4m mvs:m.mvs.npy json:s.json)
  if ((RANDOM % 2)); then
    args+=(--residual r.npy); outputs+=(planes:r.npy)
  else
    args+=(--residual r.y4m); outputs+=(y4m:r.y4m)
  fi
  if ((RANDOM % 2)); then
    args+=(--transform matrix --coefficients c.npy); outputs+=(planes:c.npy)
  fi
  args+=(--draw 'd_%03d.png'); outputs+=('png:d_*.png')
  local previous=$((RANDOM % 2))
  if [ "$previous" = 1 ]; then
    for output in "${outputs[@]}"; do
      local name=${output#*:}
      case $name in
        *'*'*) printf 'previous run\n' > "$dir/${name/\*/007}" ;;
        *) printf 'previous run\n' > "$dir/$name" ;;
      esac
    done
  fi
  local signal=$((RANDOM % 2 ? 2 : 15))
  local delay_ms=$(( (RANDOM * 32768 + RANDOM) % (max_delay_ms > 0 ? max_delay_ms : 1) ))
  (cd "$dir" && exec "$xme" "${args[@]}" > "$scratch/out" 2> "$scratch/err") &
  local pid=$!
  local sent=0
  if [ "$max_delay_ms" -gt 0 ]; then
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    kill -"$signal" "$pid" 2>/dev/null && sent=1
  fi
  wait "$pid"
  local status=$?
  local line
  line=$(/usr/bin/python3 "$checker" "$dir" "$status" "$signal" "$sent" "$((frames - 1))" "$previous" "${outputs[@]}" 2>&1 | tail -1)
  echo "$line"
  if [[ $line != ok* ]]; then
    echo "  (signal $signal after ${delay_ms} ms, status $status, previous $previous: ${args[*]}; stderr: $(tr '\n' ' ' < "$scratch/err" | cut -c1-300))"
  fi
}

failures=0
summarise() {
  local label=$1 log=$2
  local total ok bad
  total=$(grep -c '^ok\|^FAIL' "$log")
  ok=$(grep -c '^ok' "$log")
  bad=$(grep -c '^FAIL' "$log")
  echo "$label: $total runs, $ok whole and agreeing, $bad failed; ended by the signal $(grep -c '^ok signal' "$log"), by a full disk $(grep -c '^ok full' "$log"), complete $(grep -c '^ok complete' "$log"); pairs held: $(grep '^ok' "$log" | awk '{print $3}' | sort -n | uniq -c | awk '{printf "%s×%s ", $2, $1}')"
  grep -A1 '^FAIL' "$log" | head -20
  failures=$((failures + bad))
}

# The signals come at random times up to 110% of how long a run without one takes there (measured
# once), so that most land mid-run and some after its end. The shell's own job notices go to
# /dev/null (set -m prints them).
duration_ms() {
  local begin end line
  begin=$(date +%s%N)
  line=$(run_one "$1" 0 2>/dev/null)
  end=$(date +%s%N)
  if [[ $line != ok* ]]; then
    echo "interrupt_check: a run without a signal failed: $line" >&2
    echo 1000
    return 1
  fi
  echo $(( (end - begin) / 1000000 * 11 / 10 ))
}

folder="$scratch/folder"
mkdir -p "$folder"
limit=$(duration_ms "$folder") || failures=$((failures + 1))
echo "folder: signals within $limit ms"
for ((i = 0; i < runs; ++i)); do run_one "$folder" "$limit"; done > "$scratch/folder.log" 2>/dev/null
summarise "folder" "$scratch/folder.log"

mkdir -p "$tmpfs"
if mount -t tmpfs -o size=1500k xme-interrupt "$tmpfs" 2>/dev/null; then
  mounted=1
  limit=$(duration_ms "$tmpfs") || failures=$((failures + 1))
  echo "tmpfs of 1500 KiB: signals within $limit ms"
  for ((i = 0; i < runs; ++i)); do run_one "$tmpfs" "$limit"; done > "$scratch/tmpfs.log" 2>/dev/null
  summarise "tmpfs of 1500 KiB" "$scratch/tmpfs.log"
else
  echo "tmpfs of 1500 KiB: skipped: cannot mount a tmpfs (needs root); the folder runs only"
fi
echo "interrupt_check: seed $seed: $failures failed run(s)"
[ "$failures" = 0 ]
