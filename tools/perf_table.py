#!/usr/bin/env python3
"""The README's performance table, made from `xme bench --json` files rather than typed.

    tools/perf_table.py BENCH.json [BENCH.json ...] [--quality SUMMARY.json ...] [--size 1920x1080]

prints one markdown table: a row per device, variant and chain that the files measured (the scheduler's
whole-job rows of `--split` are left out), with its frames/s on the device's own clock and on the wall
clock, the fraction of the device's packed-SAD peak that bench measured in the same run (where it did:
not with --no-sad-peak), and the mean MC-PSNR (SPEC §12) of the pairs timed. Under the table, one line
per run: the command that measured it and the machine, from the JSON (`command`, each row's
`device_description`); a file from an xme that did not record them gets a command rebuilt from its rows'
settings, and the machine from --machine or from `xme devices` (--xme PATH) where one is given.

MC-PSNR comes from the bench rows; where a row has none, or bench ran on its synthetic scene, an
`xme estimate --json` summary given with --quality supplies it, matched by chain (and by block, range,
rate term and border where they agree). Python 3's standard library only. Exit 2 on a bad file.
"""
import argparse
import json
import shlex
import subprocess
import sys

FAMILIES = {"cpu": "CPU", "cuda": "CUDA", "vulkan": "Vulkan", "reference": "reference"}


class Refused(Exception):
    """A file that is not what this script reads: exit 2."""


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise Refused(f"cannot read {what} {path}: {e.strerror}") from e
    except json.JSONDecodeError as e:
        raise Refused(f"{what} {path} is not JSON: {e}") from e


def device_rows(bench, path):
    """The rows of one device each (not the scheduler's whole jobs), as bench wrote them."""
    if not isinstance(bench, dict) or not isinstance(bench.get("rows"), list):
        raise Refused(f"{path} is not what `xme bench --json` writes (no \"rows\" list)")
    rows = []
    for row in bench["rows"]:
        needed = ("device", "variant", "algorithm", "block", "range", "width", "height", "device_fps")
        if not isinstance(row, dict) or any(key not in row for key in needed):
            raise Refused(f"{path}: a row lacks one of {', '.join(needed)}")
        if row.get("policy"):
            continue
        rows.append(row)
    return rows


def family(device):
    return FAMILIES.get(device.split(":")[0], device.split(":")[0])


def chain_label(row):
    label = row["algorithm"]
    if row.get("lambda"):
        label += f", λ {row['lambda']}"
    if row.get("predictor") not in (None, "none"):
        label += f", {row['predictor']} predictor"
    if row.get("border") == "restrict":
        label += ", restrict"
    return label


def rebuilt_command(bench, rows):
    """The `xme bench` command that measures these rows, from their settings (older JSON files)."""

    def joined(values):
        return ",".join(str(v) for v in dict.fromkeys(values))

    all_rows = [row for row in bench["rows"] if not row.get("policy")] or rows
    command = ["xme", "bench", bench["input"] if bench.get("input") else "INPUT"]
    if "input" in bench and not bench["input"]:
        command.pop()  # recorded as null: the synthetic scene
    command += ["--backends", joined(r["device"] for r in all_rows)]
    command += ["--variants", joined(r["variant"] for r in all_rows)]
    command += ["--algos", joined(r["algorithm"] for r in all_rows)]
    command += ["--blocks", joined(r["block"] for r in all_rows)]
    command += ["--ranges", joined(r["range"] for r in all_rows)]
    command += ["--sizes", joined(f"{r['width']}x{r['height']}" for r in all_rows)]
    command += ["--pairs", joined(r.get("pairs", 8) for r in all_rows)]
    lambdas = {r.get("lambda", 0) for r in all_rows} - {0}
    if lambdas:
        command += ["--lambda", joined(sorted(lambdas))]
    predictors = {r.get("predictor", "none") for r in all_rows} - {"none"}
    if predictors:
        command += ["--predictor", joined(sorted(predictors))]
    borders = {r.get("border", "pad") for r in all_rows}
    if borders != {"pad"}:
        command += ["--border", joined(sorted(borders))]
    rounds = {r.get("rounds", 1) for r in all_rows}
    if rounds != {1}:
        command += ["--rounds", joined(sorted(rounds))]
    if all(r.get("fraction_of_sad_peak") is None for r in all_rows):
        command.append("--no-sad-peak")
    unrecorded = "; INPUT not recorded" if "input" not in bench else ""
    return shlex.join(command) + f" (rebuilt from the JSON's rows{unrecorded})"


def devices_listing(xme):
    """Each device's description line from `xme devices`, by name."""
    try:
        text = subprocess.run([xme, "devices"], capture_output=True, text=True, check=True, timeout=120).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise Refused(f"cannot run {xme} devices: {e}") from e
    descriptions = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line and not line.startswith(" ") and "[unavailable]" not in line and i + 1 < len(lines):
            descriptions[line.split()[0]] = lines[i + 1].strip()
    return descriptions


def quality_index(paths):
    """(chain, block, range, lambda, predictor, border) -> (MC-PSNR, summary path, its input)."""
    index = []
    for path in paths:
        summary = load_json(path, "the quality summary")
        try:
            p = summary["parameters"]
            psnr = summary["totals"]["mean_mc_psnr_db"]
        except (KeyError, TypeError) as e:
            raise Refused(f"{path} is not what `xme estimate --json` writes (no parameters or totals)") from e
        if psnr is None:
            continue
        key = (p.get("algorithm"), p.get("block"), p.get("range"), p.get("lambda", 0), p.get("predictor", "none"),
               p.get("border", "pad"))
        index.append((key, psnr, path, summary.get("input"), summary.get("totals", {}).get("pairs")))
    return index


def quality_for(row, index):
    key = (row["algorithm"], row["block"], row["range"], row.get("lambda", 0), row.get("predictor", "none"),
           row.get("border", "pad"))
    exact = [entry for entry in index if entry[0] == key]
    by_chain = [entry for entry in index if entry[0][0] == row["algorithm"]]
    found = exact or (by_chain if len(by_chain) == 1 else [])
    return found[0] if found else None


def number(value):
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.1f}" if value >= 10 else f"{value:,.2f}"


def table(bench_paths, quality_paths=(), size=None, machine=None, xme=None):
    """The markdown text: the table, then one line per run."""
    index = quality_index(quality_paths)
    listing = None
    notes = []  # the lines under the table, in order
    lines = [
        "| Backend | Device, variant | Chain | Block, range | Size | Frames/s (device) | Frames/s (wall) "
        "| Of SAD peak | MC-PSNR (dB) | Run |",
        "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]

    def note(text):
        if text not in notes:
            notes.append(text)
        return notes.index(text) + 1

    for path in bench_paths:
        bench = load_json(path, "the bench file")
        rows = device_rows(bench, path)
        if size:
            rows = [r for r in rows if f"{r['width']}x{r['height']}" == size]
        if not rows:
            continue
        if isinstance(bench.get("command"), list) and bench["command"]:
            command = shlex.join(bench["command"])
        else:
            command = rebuilt_command(bench, rows)
        synthetic = "input" in bench and not bench["input"]
        source = "bench's synthetic scene" if synthetic else (bench.get("input") or "bench's input")
        version = f"; xme {bench['xme_version']}" if bench.get("xme_version") else ""
        for row in rows:
            description = row.get("device_description") or machine
            if not description and xme:
                if listing is None:
                    listing = devices_listing(xme)
                description = listing.get(row["device"])
                if description:
                    description += f" (from `{xme} devices` where this table was made)"
            description = description or "machine not recorded"
            peak = row.get("fraction_of_sad_peak")
            peak_text = "–"
            peak_note = ""
            if peak is not None:
                peak_text = f"{100 * peak:.1f}%"
                peak_note = (f"; SAD peak {row.get('sad_peak_gpx_per_second', 0):,.1f} Gpx/s "
                             f"({row.get('sad_peak_instruction', '?')}), measured in the same run")
            psnr = row.get("mc_psnr_db")
            psnr_note = f"; MC-PSNR on the timed pairs of {source}"
            if not psnr or synthetic:
                found = quality_for(row, index)
                if found:
                    _, psnr, summary_path, summary_input, pairs = found
                    psnr_note = (f"; MC-PSNR from {summary_path} (`xme estimate` on {summary_input}, "
                                 f"{pairs} pairs)")
            psnr_text = f"{psnr:.2f}" if psnr else "–"
            if not psnr:
                psnr_note = ""
            run = note(f"`{command}` on {row['device']}: {description}{version}{peak_note}{psnr_note}")
            wall = row.get("wall_fps")
            lines.append(
                f"| {family(row['device'])} | {row['device']}, {row['variant']} | {chain_label(row)} "
                f"| {row['block']}, {row['range']} | {row['width']}x{row['height']} | {number(row['device_fps'])} "
                f"| {number(wall) if wall else '–'} | {peak_text} | {psnr_text} | [{run}] |")
    if len(lines) == 2:
        raise Refused("no device rows" + (f" at {size}" if size else "") + " in " + ", ".join(bench_paths))
    lines.append("")
    lines += [f"- [{i}] {text}" for i, text in enumerate(notes, 1)]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", nargs="+", metavar="BENCH.json", help="files of `xme bench --json`")
    parser.add_argument("--quality", action="append", default=[], metavar="SUMMARY.json",
                        help="`xme estimate --json` summaries: MC-PSNR where a bench row has none (repeatable)")
    parser.add_argument("--size", metavar="WxH", help="only the rows of this frame size (1920x1080)")
    parser.add_argument("--machine", help="the machine, for files that do not record their devices")
    parser.add_argument("--xme", metavar="PATH",
                        help="an xme to ask (`xme devices`) for the devices a file does not describe")
    args = parser.parse_args(argv)
    try:
        sys.stdout.write(table(args.bench, args.quality, args.size, args.machine, args.xme))
    except Refused as e:
        print(f"perf_table: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
