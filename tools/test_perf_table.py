#!/usr/bin/env python3
"""tools/perf_table.py on a real `xme bench --json` made here (CTest's perf_table): small frames, two
pairs, every device this machine has (the CPU, and lavapipe in CI), as a smoke test of the script, not
of the figures. XME_BINARY names the xme program; without it the test is skipped (exit 77)."""
import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import perf_table  # noqa: E402

XME = os.environ.get("XME_BINARY", "")
CLIP = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"


def run(*args):
    result = subprocess.run([XME, *args], capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise AssertionError(f"xme {' '.join(args)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def table_rows(text):
    """The table's rows (header and separator left out), each a list of cells."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def notes(text):
    return {int(line[3:line.index("]")]): line for line in text.splitlines() if line.startswith("- [")}


class PerfTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory(prefix="xme_perf_table_")
        cls.bench_path = os.path.join(cls.dir.name, "bench.json")
        # A real clip where this build reads it (FFmpeg), cropped to 64x48; else bench's synthetic scene.
        cls.clip = CLIP if os.path.exists(CLIP) and "FFmpeg" in run("--version") else None
        run("bench", *([cls.clip] if cls.clip else []), "--algos", "fs,fs+qpel", "--blocks", "16", "--ranges", "4",
            "--sizes", "64x48", "--pairs", "2", "--warm-up", "0", "--json", cls.bench_path)
        with open(cls.bench_path, encoding="utf-8") as f:
            cls.bench = json.load(f)
        cls.rows = [row for row in cls.bench["rows"] if not row.get("policy")]

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def write(self, name, content):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(content, f)
        return path

    def test_one_row_per_device_row_with_its_figures_and_run(self):
        text = perf_table.table([self.bench_path])
        rows = table_rows(text)
        self.assertEqual(len(rows), len(self.rows), text)
        runs = notes(text)
        for cells, row in zip(rows, self.rows):
            backend, device, chain, block_range, size, fps, wall, peak, psnr, ref = cells
            self.assertEqual(backend, perf_table.family(row["device"]))
            self.assertEqual(device, f"{row['device']}, {row['variant']}")
            self.assertTrue(chain.startswith(row["algorithm"]), chain)
            self.assertEqual(block_range, "16, 4")
            self.assertEqual(size, "64x48")
            self.assertEqual(fps, perf_table.number(row["device_fps"]))
            self.assertEqual(wall, perf_table.number(row["wall_fps"]))
            self.assertIsNotNone(row["fraction_of_sad_peak"])  # bench measured the peak
            self.assertEqual(peak, f"{100 * row['fraction_of_sad_peak']:.1f}%")
            self.assertGreater(row["mc_psnr_db"], 0)
            self.assertEqual(psnr, f"{row['mc_psnr_db']:.2f}")
            note = runs[int(ref.strip("[]"))]
            self.assertIn("`xme bench ", note)
            self.assertIn("--json " + self.bench_path, note)
            self.assertIn(row["device_description"], note)
            if self.clip:
                self.assertIn("MC-PSNR on the timed pairs of " + self.clip, note)
        self.assertIn("cpu", {row["device"] for row in self.rows})

    def test_a_file_without_command_or_machine_gets_them_rebuilt(self):
        old = copy.deepcopy(self.bench)
        for key in ("command", "input", "xme_version"):
            old.pop(key, None)
        for row in old["rows"]:
            row.pop("device_description", None)
        path = self.write("old.json", old)
        text = perf_table.table([path], xme=XME)
        self.assertEqual(len(table_rows(text)), len(self.rows), text)
        devices = ",".join(dict.fromkeys(row["device"] for row in self.rows))
        for line in notes(text).values():
            self.assertIn("(rebuilt from the JSON's rows; INPUT not recorded)", line)
            self.assertIn(f"--backends {devices} ", line)
            self.assertIn("--algos fs,fs+qpel", line)
            self.assertIn("--sizes 64x48", line)
            self.assertIn(f"`{XME} devices`", line)  # the machine, from xme devices
        text = perf_table.table([path], machine="the test's machine")
        self.assertTrue(all("the test's machine" in line for line in notes(text).values()), text)

    def test_mc_psnr_from_an_estimate_summary_by_chain(self):
        no_quality = copy.deepcopy(self.bench)
        for row in no_quality["rows"]:
            row["mc_psnr_db"] = 0
        path = self.write("no_quality.json", no_quality)
        summary = os.path.join(self.dir.name, "fs.json")
        source = [self.clip]
        if not self.clip:  # three frames of a gray ramp moving right, as raw video
            source = [os.path.join(self.dir.name, "ramp.gray"), "--size", "64x48", "--pix-fmt", "gray"]
            with open(source[0], "wb") as f:
                f.write(bytes((3 * x + 5 * y + 2 * t) % 256 for t in range(3) for y in range(48) for x in range(64)))
        run("estimate", *source, "--frames", "3", "--backend", "cpu", "--algo", "fs", "--block", "16", "--range",
            "4", "-q", "--json", summary)
        with open(summary, encoding="utf-8") as f:
            expected = json.load(f)["totals"]["mean_mc_psnr_db"]
        text = perf_table.table([path], quality_paths=[summary])
        runs = notes(text)
        for cells in table_rows(text):
            chain, psnr, ref = cells[2], cells[8], cells[9]
            if chain == "fs":
                self.assertEqual(psnr, f"{expected:.2f}")
                self.assertIn("MC-PSNR from " + summary, runs[int(ref.strip("[]"))])
            else:
                self.assertEqual(psnr, "–")  # no summary of that chain

    def test_size_filter_and_refusals(self):
        self.assertEqual(len(table_rows(perf_table.table([self.bench_path], size="64x48"))), len(self.rows))
        with self.assertRaises(perf_table.Refused):
            perf_table.table([self.bench_path], size="1920x1080")
        bad = self.write("bad.json", {"frames": []})
        result = subprocess.run([sys.executable, os.path.join(HERE, "perf_table.py"), bad], capture_output=True,
                                text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("is not what `xme bench --json` writes", result.stderr)


if __name__ == "__main__":
    if not XME or not os.path.exists(XME):
        print("skipped: XME_BINARY names no xme program", file=sys.stderr)
        sys.exit(77)
    unittest.main()
