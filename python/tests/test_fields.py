"""The Python module against the xme program: the same fields on a real clip and on random frames.

Run by CTest (`ctest -R python`), or from the build tree:
    PYTHONPATH=build/ci/python python3 python/tests/test_fields.py
"""
import itertools
import os
import tempfile
import threading
import unittest

from support import CLIP, FieldChecks, numpy, rng, run_cli, write_gray_y4m, xme


@unittest.skipUnless(os.path.exists(CLIP), f"{CLIP} is missing: install opencv-doc")
@unittest.skipUnless(xme.ffmpeg_available(), "this xme reads no .avi: it was built without FFmpeg")
class RealClip(FieldChecks):
    @classmethod
    def setUpClass(cls):
        cls.frames = list(itertools.islice(xme.open_video(CLIP), 4))

    def test_open_video_reads_the_luma(self):
        video = xme.open_video(CLIP)
        self.assertEqual((video.width, video.height), (768, 576))
        frame = next(video)
        self.assertEqual((frame.shape, frame.dtype, frame.strides), ((576, 768), numpy.uint8, (768, 1)))
        self.assertGreater(frame.std(), 10, "a real picture, not a flat one")
        self.assertTrue(numpy.array_equal(frame, self.frames[0]))

    def test_estimate_equals_the_cli_per_pair(self):
        chains = [
            dict(algo="fs", range=8),
            dict(algo="fs+hpel", block=8, range=4, border="restrict"),
            dict(search="hex", subpel="qpel", qp=28, predictor="spatial", center="predictor"),
        ]
        for options in chains:
            cli = [f"--{'lambda' if k == 'lambda_' else k}={v}" for k, v in options.items()]
            rows = run_cli(CLIP, "--backend", "cpu", "--frames", 3, *cli)
            for frame in (1, 2):
                field = xme.estimate(self.frames[frame - 1], self.frames[frame], device="cpu", **options)
                self.assert_field_equals_rows(field, rows, frame, f"{options}, frame {frame}")
                self.assertTrue(numpy.any(field.vectors != 0), "the clip moves")

    def test_estimator_stream_equals_the_cli(self):
        options = dict(algo="dia+qpel", lambda_=16, predictor="temporal", refresh=2)
        rows = run_cli(CLIP, "--backend", "cpu", "--frames", 4, "--algo", "dia+qpel", "--lambda", 16,
                       "--predictor", "temporal", "--refresh", 2)
        with xme.Estimator(device="cpu", **options) as estimator:
            fields = list(estimator.run(self.frames))
        self.assertEqual([field.frame for field in fields], [1, 2, 3])
        for field in fields:
            self.assertEqual(field.device, "cpu")
            self.assert_field_equals_rows(field, rows, field.frame, f"stream, frame {field.frame}")

    def test_run_estimate_writes_the_clis_files(self):
        """Whole jobs in this process, one after another on the devices the first opened, write what
        `xme estimate` writes; a bad option is refused in the CLI's words."""
        generator = rng("run_estimate")
        start = int(generator.integers(0, 700))
        chain = ["--algo", ["hex", "tz+qpel", "fs+hpel"][int(generator.integers(3))], "--frames", "4",
                 "--start", str(start)]
        expected = run_cli(CLIP, *chain)
        with tempfile.TemporaryDirectory() as folder:
            for round in range(2):
                output = os.path.join(folder, f"v{round}.npy")
                vectors = os.path.join(folder, f"vectors{round}.npy")
                xme.run_estimate([CLIP, *chain, "-o", output, "--json", os.path.join(folder, "s.json"),
                                  "--vector-array", vectors])
                numpy.testing.assert_array_equal(numpy.load(output), expected)
                # --vector-array holds each pair's field as xme.Field.vectors does.
                stack = numpy.load(vectors)
                self.assertEqual(stack.shape, (3, 36, 48, 2))
                video = xme.open_video(CLIP)
                video.skip(start)
                frames = list(itertools.islice(video, 2))
                field = xme.estimate(frames[0], frames[1], algo=chain[1])
                numpy.testing.assert_array_equal(stack[0], field.vectors)
        with self.assertRaisesRegex(xme.InvalidArgument, "--block"):
            xme.run_estimate([CLIP, "--block", "7"])
        self.assertTrue(xme.check_estimate_arguments(["x", "--predictor", "temporal"])["reads_previous_pair"])
        self.assertFalse(xme.check_estimate_arguments(["x", "--algo", "hex"])["reads_previous_pair"])

    def test_partitions_equal_the_cli(self):
        rows = run_cli(CLIP, "--backend", "cpu", "--frames", 2, "--algo", "fs+p41", "--range", 4)
        field = xme.estimate(self.frames[0], self.frames[1], device="cpu", algo="fs+p41", range=4)
        by, bx = field.cost.shape
        grid = rows.reshape(by, bx, 41, 15)
        numpy.testing.assert_array_equal(field.partition_vectors, grid[..., 3:5])
        numpy.testing.assert_array_equal(field.partition_cost, grid[..., 5])
        numpy.testing.assert_array_equal(field.partition_chosen, grid[..., 14] == 1)
        self.assertEqual(xme.PARTITIONS[9], (0, 0, 8, 4))


class RandomFrames(FieldChecks):
    def frames(self, name, count=3, shape=(45, 67)):
        generator = rng(name)
        first = generator.integers(0, 256, size=shape, dtype=numpy.uint8)
        # Each frame the one before moved by a random vector, with noise: real motion to find.
        frames = [first]
        for _ in range(count - 1):
            shift = (0, 0)
            while shift == (0, 0):  # (0, 0) came one time in 49, and then nothing moved
                shift = tuple(int(v) for v in generator.integers(-3, 4, size=2))
            moved = numpy.roll(frames[-1], shift, axis=(0, 1))
            noise = generator.integers(-4, 5, size=shape)
            frames.append(numpy.clip(moved.astype(int) + noise, 0, 255).astype(numpy.uint8))
        return frames

    def test_estimate_and_stream_equal_the_cli(self):
        frames = self.frames("cli")
        options = dict(algo="fs+qpel", block=8, range=5, qp=20, predictor="temporal")
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "random.y4m")
            write_gray_y4m(path, frames)
            self.assertTrue(all(numpy.array_equal(a, b) for a, b in zip(xme.open_video(path), frames)))
            rows = run_cli(path, "--backend", "cpu", "--algo", "fs+qpel", "--block", 8, "--range", 5,
                           "--qp", 20, "--predictor", "temporal")
        first = xme.estimate(frames[0], frames[1], device="cpu", **options)
        self.assert_field_equals_rows(first, rows, 1, "estimate")
        self.assertEqual(first.cost_kind, "satd+rate")
        fields = list(xme.Estimator(device="cpu", **options).run(frames))
        for field in fields:
            self.assert_field_equals_rows(field, rows, field.frame, f"stream, frame {field.frame}")

    def test_any_strides_give_the_same_field(self):
        reference, current = self.frames("strides", count=2, shape=(40, 56))
        expected = xme.estimate(reference, current, device="reference", block=8, range=4, algo="fs+hpel")
        wide = numpy.zeros((40, 80), numpy.uint8)
        wide[:, 10:66] = current  # rows 80 apart: viewed in place
        doubled = numpy.zeros((40, 112), numpy.uint8)
        doubled[:, ::2] = current  # samples 2 apart: copied
        flipped = numpy.ascontiguousarray(current[::-1])[::-1]  # rows running backwards: copied
        transposed = numpy.ascontiguousarray(current.T).T
        for name, layout in [("row stride 80", wide[:, 10:66]), ("column stride 2", doubled[:, ::2]),
                             ("negative row stride", flipped), ("transposed", transposed)]:
            self.assertTrue(numpy.array_equal(layout, current), name)
            field = xme.estimate(reference, layout, device="cpu", block=8, range=4, algo="fs+hpel")
            self.assert_fields_equal(expected, field, name)
        self.assertTrue(numpy.any(expected.vectors != 0), "the frames move")

    def test_the_stream_follows_device_and_chain(self):
        frames = self.frames("stream", count=3)
        estimator = xme.Estimator(device="cpu", algo="fs+hpel", range=4)
        self.assertEqual(estimator.chain, "fs+hpel")
        fields = []
        for frame in frames:
            fields += estimator.feed(frame)
        fields += estimator.finish()
        self.assertEqual([field.frame for field in fields], [1, 2])
        for field, (reference, current) in zip(fields, zip(frames, frames[1:])):
            direct = xme.estimate(reference, current, device="reference", algo="fs+hpel", range=4)
            self.assert_fields_equal(direct, field, f"frame {field.frame}")

    def test_split_over_two_devices_keeps_the_stream_in_order(self):
        frames = self.frames("split", count=6, shape=(24, 40))
        options = dict(algo="fs+qpel", range=3, block=8, lambda_=8, predictor="temporal")
        single = list(xme.Estimator(device="reference", **options).run(frames))
        estimator = xme.Estimator(devices=["cpu", "reference"], **options)
        split = list(estimator.run(frames))
        self.assertEqual(estimator.devices, ["cpu", "reference"])
        self.assertEqual([field.frame for field in split], [1, 2, 3, 4, 5])
        for want, got in zip(single, split):
            self.assert_fields_equal(want, got, f"frame {got.frame} on {got.device}")

    def test_compare_checks_every_device_against_the_others(self):
        reference, current = self.frames("compare", count=2)
        report = xme.compare(reference, current, devices=["cpu", "reference"], algo="fs+qpel", range=4)
        self.assertTrue(report["agree"], report["agreements"])
        self.assertEqual(set(report["fields"]), {"cpu", "reference"})
        self.assert_fields_equal(report["fields"]["reference"], report["fields"]["cpu"], "compare")
        by, bx = report["fields"]["cpu"].cost.shape
        self.assertEqual([entry["blocks_compared"] for entry in report["agreements"]], [by * bx] * 3)
        self.assertEqual(report["agreements"][1]["expected"], "cpu")
        # Labelled as `xme compare --json` labels them.
        self.assertEqual([entry["pair"] for entry in report["agreements"]],
                         ["cpu vs reference costs", "cpu vs reference", "reference vs reference costs"])

    def test_every_available_device_agrees_with_the_reference(self):
        """Python to each backend here (lavapipe's Vulkan; CUDA on a GPU machine) and back."""
        reference, current = self.frames("devices", count=2, shape=(72, 88))
        names = [d["name"] for d in xme.devices() if d["available"] and d["name"] != "reference"]
        report = xme.compare(reference, current, devices=["reference", *names], algo="fs+hpel", range=6)
        self.assertTrue(report["agree"], report["agreements"])
        print(f"\n    agreeing with the reference: {', '.join(names)}", end=" ", flush=True)

    def test_threads_estimate_side_by_side(self):
        """The GIL is released while a device works: threads share devices and get each pair's field."""
        pairs = [self.frames(f"thread {i}", count=2) for i in range(4)]
        expected = [xme.estimate(*pair, device="reference", range=4, algo="fs+hpel") for pair in pairs]
        results = [None] * len(pairs)

        def work(i):
            results[i] = xme.estimate(*pairs[i], device="cpu", range=4, algo="fs+hpel")

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(pairs))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for i, (want, got) in enumerate(zip(expected, results)):
            self.assert_fields_equal(want, got, f"thread {i}")

if __name__ == "__main__":
    unittest.main()
