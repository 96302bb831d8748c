"""xme.References (SPEC §14) against `xme estimate --refs` and `--direction both`: the same decisions,
as arrays instead of rows.

Run by CTest (`ctest -R python`), or from the build tree:
    PYTHONPATH=build/ci/python python3 python/tests/test_references.py
"""
import itertools
import os
import unittest

from support import CLIP, numpy, rng, run_cli, xme


@unittest.skipUnless(os.path.exists(CLIP), f"{CLIP} is missing: install opencv-doc")
@unittest.skipUnless(xme.ffmpeg_available(), "this xme reads no .avi: it was built without FFmpeg")
class References(unittest.TestCase):
    def test_the_cli_rows_as_arrays(self):
        random = rng("references")
        start = int(random.integers(0, 200))
        video = xme.open_video(CLIP)
        video.skip(start)
        frames = list(itertools.islice(video, 5))
        settings = [dict(refs=[-1, -2, 1], algo="hex", qp=28),
                    dict(refs="-1,+1", search="tz", subpel="qpel", lambda_=2, predictor="temporal"),
                    dict(direction="both", algo="tz", predictor="spatial", lambda_=1)]
        for setting in settings:
            with self.subTest(start=start, **setting):
                cli = []
                for key, value in setting.items():
                    if key == "refs":
                        value = ",".join(f"{d:+d}" if isinstance(d, int) else d for d in
                                         (value if isinstance(value, list) else [value]))
                    cli.append(f"--{'lambda' if key == 'lambda_' else key}={value}")
                rows = run_cli(CLIP, "--backend", "cpu", "--start", start, "--frames", 5, *cli)
                stream = xme.References(device="cpu", **setting)
                decided = list(itertools.chain.from_iterable(stream.feed(frame) for frame in frames))
                decided += stream.finish()
                self.assertEqual([d.frame + start for d in decided], sorted(set(rows[:, 0].tolist())))
                moving = 0
                for d in decided:
                    r = rows[rows[:, 0] == d.frame + start]
                    by, bx = d.cost.shape
                    self.assertEqual(len(r), by * bx)
                    self.assertTrue(numpy.array_equal(d.vectors, r[:, 3:5].reshape(by, bx, 2)))
                    self.assertTrue(numpy.array_equal(d.cost, r[:, 5].reshape(by, bx)))
                    self.assertTrue(numpy.array_equal(d.candidates, r[:, 8].reshape(by, bx)))
                    self.assertTrue(numpy.array_equal(d.refs, r[:, 9].reshape(by, bx)))
                    self.assertTrue(numpy.array_equal(d.modes, r[:, 10].reshape(by, bx)))
                    self.assertTrue(numpy.array_equal(d.second_vectors, r[:, 11:13].reshape(by, bx, 2)))
                    self.assertTrue(numpy.array_equal(d.second_refs, r[:, 13].reshape(by, bx)))
                    if setting.get("direction") == "both":
                        self.assertTrue(numpy.array_equal(d.backward_vectors, r[:, 14:16].reshape(by, bx, 2)))
                        self.assertTrue(numpy.array_equal(d.consistency, r[:, 16].reshape(by, bx)))
                    else:
                        self.assertIsNone(d.consistency)
                    self.assertGreater(d.mc_psnr_db, 20)
                    moving += int(numpy.count_nonzero(d.vectors))
                self.assertGreater(moving, 0, "real motion, not zeros")

    def test_bad_keywords_are_named(self):
        with self.assertRaisesRegex(xme.InvalidArgument, "twice"):
            xme.References(refs=[-1, -1])
        with self.assertRaisesRegex(xme.InvalidArgument, "frame distances are ints"):
            xme.References(refs=[-1, "x"])
        with self.assertRaisesRegex(xme.InvalidArgument, "forward or both"):
            xme.References(direction="sideways")
        with self.assertRaisesRegex(xme.InvalidArgument, "unknown option 'colour'"):
            xme.References(refs=[-1, 1], colour="red")


if __name__ == "__main__":
    unittest.main()
